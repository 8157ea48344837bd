import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { BROWSER_TESTS_CHROMIUM_PATH, CHROMIUM_ARGS } from './chromium';

/**
 * Browser tests against the production build, served by the real server on a fresh PGlite.
 * Chromium is Debian's (its headless shell when installed, else CHROMIUM_PATH set by `npm test`:
 * chromium.ts); *.localhost resolves to loopback by
 * itself and *.shop.test is mapped there so any host name can be opened.
 */
export const PORT = Number(process.env.E2E_PORT ?? 3190);
/**
 * The server's embedded database and dev outbox: one per port, so runs on different ports (two
 * people, or two checkouts) never share a database.
 */
export const DATA_DIR = `.e2e-data-${PORT}`;
/** Where the server's faults during the run are noted (start-server.mjs), for global-teardown.ts. */
export const SERVER_FAULTS_FILE = join(tmpdir(), `storefront-e2e-server-faults-${PORT}.log`);
/** The PayPal stand-in (PayPal's REST API and approval page) the server pays through. */
export const PAYPAL_PORT = PORT + 1;
/** The platform's partner merchant id and webhook id at the stand-in (decision 049). */
const PAYPAL_PARTNER_ID = 'E2EPARTNER01';
const PAYPAL_WEBHOOK_ID = 'WH-E2E-PLATFORM';
/** A store's own PayPal app the stand-in knows besides the platform's (PP_CONFIG, decision 051). */
export const STAND_IN_OWN_APP = { id: 'lighting-e2e-own-app', secret: 'lighting-e2e-own-secret-77' };
/** The carriers' stand-in (UPS and FedEx: OAuth, rating; decision 117) and the account it knows. */
export const CARRIER_PORT = PORT + 3;
/** The stand-in's control socket: stop and start its carriers' port (decision 117, checkout with UPS down). */
export const CARRIER_CONTROL_SOCKET = join(tmpdir(), `carrier-stand-in-${CARRIER_PORT}.sock`);
export const STAND_IN_CARRIER = { clientId: 'e2e-ups-client', secret: 'e2e-ups-secret-41', account: 'E2E7890' };
/** The Stripe stand-in (Stripe's API, hosted payment and 3-D Secure pages; decision 118). */
export const STRIPE_PORT = PORT + 2;
/** The Stripe account the stand-in knows: what an owner pastes into Payments in the browser tests. */
export const STRIPE_TEST_ACCOUNT = { secretKey: 'sk_test_e2estore00004242', webhookSecret: 'whsec_e2estoreendpoint' };

/**
 * Specs that change a seeded store's look, content, catalog or checkout (theme, details, pages,
 * banners, the owner's catalog tools: `admin-*.spec.ts`; a carrier account, a Stripe account; a product
 * without a picture, added by cart-quantities) for a while: they run after the others, so no shell,
 * storefront or checkout test meets a half-changed store.
 */
const CHANGES_STORES =
  /(settings-[a-z-]+|banners|admin-[a-z-]+|carrier-rates|stripe-checkout|cart-quantities)\.spec\.ts$/;
// Specs that close a seeded store (its access mode) for a while: access.spec.ts, access-modes.spec.ts.
const STORE_ACCESS = /access(-modes)?\.spec\.ts$/;

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // One per port, like the database: a run on another port does not wipe this run's traces.
  outputDir: `../test-results/e2e-${PORT}`,
  fullyParallel: true,
  workers: 2,
  // A failed test runs once more, traced (`on-first-retry` below), and the run fails all the same:
  // a test that passes only on its second try is a flaky one, and fails the run
  // (`failOnFlakyTests`). Tracing every test to keep the few that fail cost about a tenth of the
  // stage's CPU (decision 109).
  retries: 1,
  failOnFlakyTests: true,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  globalTeardown: './global-teardown.ts',
  use: {
    baseURL: `http://lighting.localhost:${PORT}`,
    // A failed test's second run is traced with DOM snapshots of every step, not the screencast:
    // the screencast's frames cost about a fifth of the run's CPU (decision 084). The first run is
    // not traced at all (decision 109).
    trace: { mode: 'on-first-retry', screenshots: false, snapshots: true, sources: true },
    launchOptions: {
      executablePath: BROWSER_TESTS_CHROMIUM_PATH,
      // *.shop.test lets tests open any store host on loopback.
      args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP *.shop.test 127.0.0.1'],
    },
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: [STORE_ACCESS, CHANGES_STORES],
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
    {
      name: 'store-settings',
      testMatch: CHANGES_STORES,
      dependencies: ['chromium'],
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
    // Makes a seeded store private for a while: after every other test, so none meets it closed.
    {
      name: 'store-access',
      testMatch: STORE_ACCESS,
      dependencies: ['store-settings'],
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
  ],
  webServer: [
    {
      command: 'node --import tsx e2e/stripe-stand-in.ts',
      cwd: '..',
      url: `http://127.0.0.1:${STRIPE_PORT}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        STRIPE_STAND_IN_PORT: String(STRIPE_PORT),
        STRIPE_STAND_IN_ACCOUNTS: `${STRIPE_TEST_ACCOUNT.secretKey}:${STRIPE_TEST_ACCOUNT.webhookSecret}`,
        // Signed events go to the store's /api/stripe/webhook on this server, with the store's Host.
        STRIPE_WEBHOOK_DELIVER_TO: `127.0.0.1:${PORT}`,
      },
    },
    {
      command: 'node --import tsx e2e/paypal-stand-in.ts',
      cwd: '..',
      url: `http://127.0.0.1:${PAYPAL_PORT}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PAYPAL_STAND_IN_PORT: String(PAYPAL_PORT),
        PAYPAL_CLIENT_ID: 'e2e-client',
        PAYPAL_CLIENT_SECRET: 'e2e-secret',
        PAYPAL_PARTNER_ID: PAYPAL_PARTNER_ID,
        PAYPAL_WEBHOOK_ID: PAYPAL_WEBHOOK_ID,
        // PayPal's events for the platform's app go to the platform's webhook (any host reaches it).
        PAYPAL_WEBHOOK_URL: `http://127.0.0.1:${PORT}/api/paypal/webhooks`,
        PAYPAL_STAND_IN_APPS: `${STAND_IN_OWN_APP.id}:${STAND_IN_OWN_APP.secret}`,
      },
    },
    {
      command: 'node --import tsx e2e/carrier-stand-in.ts',
      cwd: '..',
      url: `http://127.0.0.1:${CARRIER_PORT}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        CARRIER_STAND_IN_PORT: String(CARRIER_PORT),
        CARRIER_STAND_IN_ACCOUNTS: `${STAND_IN_CARRIER.clientId}:${STAND_IN_CARRIER.secret}:${STAND_IN_CARRIER.account}`,
        CARRIER_STAND_IN_CONTROL_SOCKET: CARRIER_CONTROL_SOCKET,
      },
    },
    {
      command: 'node e2e/start-server.mjs',
      cwd: '..',
      url: `http://127.0.0.1:${PORT}/readyz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(PORT),
        DATA_DIR,
        SERVER_FAULTS_FILE,
        PAYPAL_BASE_URL: `http://127.0.0.1:${PAYPAL_PORT}`,
        PAYPAL_CLIENT_ID: 'e2e-client',
        PAYPAL_CLIENT_SECRET: 'e2e-secret',
        PAYPAL_PARTNER_ID: PAYPAL_PARTNER_ID,
        PAYPAL_BN_CODE: 'E2E_PLATFORM_PPCP',
        PAYPAL_WEBHOOK_ID: PAYPAL_WEBHOOK_ID,
        UPS_BASE_URL: `http://127.0.0.1:${CARRIER_PORT}`,
        FEDEX_BASE_URL: `http://127.0.0.1:${CARRIER_PORT}`,
        STRIPE_BASE_URL: `http://127.0.0.1:${STRIPE_PORT}`,
      },
    },
  ],
});
