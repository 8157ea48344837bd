import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import type { App } from '../lib/app-types';
import { createTestApp } from './harness';

/**
 * The API's types for the typed test client (decision 076), generated from the live document by
 * openapi-typescript and committed, in apps/api/generated (generated, not read: outside the source
 * tree and its 600-line rule); `npm run openapi:types` writes them, a test fails on drift.
 */
export const OPENAPI_TYPES_FILE = fileURLToPath(new URL('../../generated/openapi.gen.d.ts', import.meta.url));

/** The document as a client reads it, from an app already built. */
export async function openapiDocument(app: App): Promise<Record<string, unknown>> {
  const res = await app.inject({ method: 'GET', url: '/api/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`GET /api/openapi.json answered ${res.statusCode}`);
  return res.json();
}

/** The TypeScript of a document, exactly as the committed file holds it. */
export async function openapiTypes(document: Record<string, unknown>): Promise<string> {
  const ast = await openapiTS(structuredClone(document) as never, { silent: true });
  return `${COMMENT_HEADER.trimEnd()}\n/* Regenerate with \`npm run openapi:types\`; apps/api/src/test/openapi-types.test.ts fails when it is stale. */\n\n${astToString(ast)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const t = await createTestApp({ seed: false });
  try {
    writeFileSync(OPENAPI_TYPES_FILE, await openapiTypes(await openapiDocument(t.app)));
    console.log(`wrote ${OPENAPI_TYPES_FILE}`);
  } finally {
    await t.close();
  }
}
