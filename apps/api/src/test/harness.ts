import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '@app/db';
import { renderSeedImage } from '@app/db/seed';
import { openSecondHandle, openTestDatabase, testDatabaseUrl } from '@app/db/testing';
import { type BuildOptions, buildAppWithServices } from '../app';
import type { App } from '../lib/app-types';
import type { AllServices } from '../lib/module';

export const SEEDED_HOSTS = {
  lighting: { host: 'lighting.localhost', storeId: '9000' },
  garden: { host: 'garden.localhost', storeId: '9001' },
  power: { host: 'power.localhost', storeId: '9002' },
} as const;
export { openSecondHandle, openTestDatabase, testDatabaseUrl };
export type SeededTenant = keyof typeof SEEDED_HOSTS;
export const SEEDED_TENANTS = Object.keys(SEEDED_HOSTS) as SeededTenant[];

export interface TestApp {
  app: App;
  /**
   * The modules' services and the platform's (the job runner, the event bus, refunds, drafts ...):
   * what a test reaches behind the HTTP API. A module the test did not boot is undefined here.
   */
  services: AllServices;
  database: Database;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * An app on a fresh seeded database; with `database` (e.g. `openSecondHandle` of another test
 * app's), an app on that one as another process would run it: not seeded again, closed with it.
 *
 * `modules: ['catalog', 'cart']` boots only those modules, the ones they need and use, and the
 * tenant and auth modules every request goes through (decision 081): a narrow test starts faster.
 * Routes and pages of modules left out answer 404, and their services are undefined.
 */
export async function createTestApp(
  opts: Omit<Partial<BuildOptions>, 'config'> & { config?: Partial<BuildOptions['config']>; seed?: boolean } = {},
): Promise<TestApp> {
  const database = opts.database ?? (await openTestDatabase({ seeded: opts.seed !== false }));
  const dataDir = mkdtempSync(join(tmpdir(), 'sf-test-'));
  const { config, database: _, ...rest } = opts;
  const { app, services } = await buildAppWithServices({
    database,
    generateMedia: renderSeedImage,
    logger: false,
    ...rest,
    // Jobs retry within the test's time; a test wanting the sweep runs it (no surprise run at start).
    jobs: { pollMs: 100, retryBaseMs: 20, startupSweepDelayMs: null, ...rest.jobs },
    // Tests name only the settings they are about; the rest are the test defaults.
    config: {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      TRUST_PROXY: false,
      NODE_ENV: 'test',
      DEV_TENANT_ID: undefined,
      ...config,
    },
  });
  return {
    app,
    services,
    database,
    dataDir,
    async close() {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A multipart/form-data body as a browser would send it. */
export function multipart(fields: Record<string, string>) {
  const boundary = `----sf${randomBytes(8).toString('hex')}`;
  const body = `${Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('')}--${boundary}--\r\n`;
  return { payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A signed-in browser's headers: the session cookie and the CSRF token its pages would send. */
export type BrowserSession = { cookie: string; 'x-csrf-token': string };

export async function signIn(app: App, email: string, password: string, host: string): Promise<BrowserSession> {
  const res = await app.inject({
    method: 'POST',
    url: '/skulocity/api/v1/login',
    headers: { host },
    payload: { email, password },
  });
  if (res.statusCode !== 200) throw new Error(`login of ${email} on ${host} failed: ${res.body}`);
  return {
    cookie: String(res.headers['set-cookie']).split(';')[0] ?? '',
    'x-csrf-token': res.json().data.csrfToken as string,
  };
}
