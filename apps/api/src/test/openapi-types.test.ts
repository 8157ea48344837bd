import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness';
import { OPENAPI_TYPES_FILE, openapiDocument, openapiTypes } from './openapi-types';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(async () => t?.close());

// The typed client's types are generated from the live document: a route, schema or status changed
// without `npm run openapi:types` fails here, and the API tests type-check against the new types.
it('the committed client types are what the live OpenAPI document generates', async () => {
  const fresh = await openapiTypes(await openapiDocument(t.app));
  const committed = readFileSync(OPENAPI_TYPES_FILE, 'utf8');
  if (fresh !== committed) {
    const a = fresh.split('\n');
    const b = committed.split('\n');
    const line = a.findIndex((l, i) => l !== b[i]);
    expect.fail(
      `apps/api/generated/openapi.gen.d.ts is stale (first difference at line ${line + 1}: ` +
        `${JSON.stringify(b[line])} should be ${JSON.stringify(a[line])}); run npm run openapi:types`,
    );
  }
});
