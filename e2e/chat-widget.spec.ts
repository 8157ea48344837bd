import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { hydrated, pointAtPage } from './helpers';
import { PORT as E2E_PORT } from './playwright.config';

/**
 * The chat widget on a server of this spec's own, whose garden store has a
 * widget id. The chat provider is on the internet: its script is answered by a stand-in here.
 */
// Beside the run's own server and PayPal stand-in (E2E_PORT, +1), so runs on two ports never meet.
const PORT = E2E_PORT + 5;
const DATA_DIR = `.e2e-data-chat-${PORT}`;
const WIDGET = 'a1b2c3d4e5/default';
const PROVIDER = 'https://chat-provider.example';
const base = `http://garden.localhost:${PORT}`;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
let server: ChildProcess;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  // Migrating and seeding a fresh store, then starting a server, takes a while on a busy 2-core CI box.
  test.setTimeout(180_000);
  rmSync(`${ROOT}/${DATA_DIR}`, { recursive: true, force: true });
  // Under `npm test`, on a copy of the run's seeded database (as the run's own server,
  // start-server.mjs): the fixture then finds no migration and no seed to do, only the widget id
  // to set (2.7 CPU seconds instead of 10).
  const seeded = process.env.E2E_SEEDED_DATA_DIR;
  if (seeded && existsSync(`${seeded}/pg`)) cpSync(seeded, `${ROOT}/${DATA_DIR}`, { recursive: true });
  const prep = spawnSync(process.execPath, ['--import', 'tsx', 'e2e/fixtures/store-with-chat.ts', DATA_DIR, WIDGET], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (prep.status !== 0) throw new Error(prep.stderr);
  server = spawn(process.execPath, ['apps/api/dist/server.mjs'], {
    cwd: ROOT,
    stdio: 'ignore',
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(PORT),
      DATA_DIR,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      CHAT_WIDGET_URL: PROVIDER,
    },
  });
  for (let i = 0; i < 240; i++) {
    const ok = await fetch(`http://127.0.0.1:${PORT}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('chat test server did not start');
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await new Promise((r) => server?.once('exit', r));
  rmSync(`${ROOT}/${DATA_DIR}`, { recursive: true, force: true });
});

test('the provider script loads on shop pages of a store with a widget id, never on checkout or login', async ({
  page,
}) => {
  const loaded: string[] = [];
  await page.route(`${PROVIDER}/**`, (route) => {
    loaded.push(route.request().url());
    return route.fulfill({ contentType: 'text/javascript', body: 'window.__chatLoaded = true;' });
  });
  await page.goto(`${base}/`);
  // A third party's script waits, with the app, for the shopper's first intent: loaded, the app's
  // script still sits inert in the page and the widget is not there.
  await expect(page.locator('script[type="text/x-after-first-paint"]')).toHaveCount(1);
  expect(loaded).toEqual([]);
  await expect(page.locator('script[data-chat-widget]')).toHaveCount(0);
  await pointAtPage(page);
  await expect(page.locator('script[data-chat-widget]')).toHaveAttribute('src', `${PROVIDER}/${WIDGET}`);
  await expect.poll(() => page.evaluate(() => (window as { __chatLoaded?: boolean }).__chatLoaded)).toBe(true);
  expect(loaded).toEqual([`${PROVIDER}/${WIDGET}`]);

  for (const path of ['/checkout', '/auth/login']) {
    const fresh = await page.context().newPage();
    await fresh.goto(`${base}${path}`);
    await expect(fresh.getByRole('heading', { level: 1 })).toBeVisible();
    // The app runs here too, and still loads no chat.
    await hydrated(fresh);
    await expect(fresh.locator('script[data-chat-widget]')).toHaveCount(0);
    await fresh.close();
  }
  expect(loaded).toHaveLength(1);
});

test('a store without a widget id loads no chat script', async ({ page }) => {
  await page.goto(`http://lighting.localhost:${PORT}/`);
  await expect(page.getByTestId('logo')).toBeVisible();
  await expect(page.locator('script[data-chat-widget]')).toHaveCount(0);
});
