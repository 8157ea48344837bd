import { createHmac, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yIssue, mailedLinks, signIn, snap } from './helpers';
import { PORT } from './playwright.config';

/**
 * What a store's lifecycle states mean to the people who meet them (decision 099), on a store of its
 * own: a merchant signs up for it (setup), the platform moves it through its states through the
 * operator API (the console's pages are tested in operator-console.spec.ts), and this spec looks at
 * what a shopper and the owner see: the "temporarily unavailable" page and the read-only dashboard of a
 * suspended store, the closed storefront and the dashboard's closing banner of a closing store, and a
 * closed store that shows its closed page and nothing else. No seeded store is touched.
 */

const PLATFORM = `http://platform.localhost:${PORT}`;
const OPERATOR = { email: 'operator@platform.localhost', password: 'operator-demo-1' };
/** The demo operator's TOTP secret (README), for the code step when the server asks for it. */
const OPERATOR_TOTP_SECRET = process.env.E2E_OPERATOR_TOTP_SECRET ?? 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

const subdomain = `lfc${randomBytes(3).toString('hex')}`;
const STORE = `http://${subdomain}.localhost:${PORT}`;
const STORE_NAME = `Lifecycle Test ${subdomain}`;
const OWNER = { base: STORE, email: `owner-${subdomain}@example.test`, password: 'lifecycle-owner-pw-1' };

test.describe.configure({ mode: 'serial' });

type Answer = { status: number; body: string; cookies: string[] };

/** A request from the test process to 127.0.0.1 with a host's name (Node does not resolve *.localhost here). */
function call(
  base: string,
  method: string,
  path: string,
  opts: { json?: unknown; cookie?: string; csrf?: string } = {},
): Promise<Answer> {
  const url = new URL(base);
  const body = opts.json === undefined ? '' : JSON.stringify(opts.json);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: url.port,
        path,
        method,
        headers: {
          host: url.host,
          origin: url.origin,
          ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
          ...(opts.cookie ? { cookie: opts.cookie } : {}),
          ...(opts.csrf ? { 'x-csrf-token': opts.csrf } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text, cookies: res.headers['set-cookie'] ?? [] }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** RFC 6238 with SHA-1, 30 s, 6 digits: the code an authenticator app shows at `now`. */
function totp(secretBase32: string, now: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of secretBase32.replace(/=+$/, '').toUpperCase())
    bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => Number.parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(now / 1000 / 30)));
  const h = createHmac('sha1', key).update(counter).digest();
  const o = (h[h.length - 1] ?? 0) & 0xf;
  return String((h.readUInt32BE(o) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

let operatorCookie = '';
/** The operator session's CSRF token, sent back on every change as the console does. */
let operatorCsrf = '';
let tenantId = '';

/**
 * The operator's session through the platform API (password, then the code when asked). A code is
 * accepted once: when another spec used this window's code, the next window's code is the one to send.
 */
async function operatorSession(): Promise<{ cookie: string; csrf: string }> {
  const first = await call(PLATFORM, 'POST', '/platform-api/session', { json: OPERATOR });
  expect(first.status, first.body).toBe(200);
  const answer = JSON.parse(first.body).data;
  let cookies = first.cookies;
  let session = answer.session;
  if (answer.step === 'totp') {
    let verified = await call(PLATFORM, 'POST', '/platform-api/session/totp', {
      json: { challenge: answer.challenge, code: totp(OPERATOR_TOTP_SECRET, Date.now()) },
    });
    if (verified.status === 401) {
      verified = await call(PLATFORM, 'POST', '/platform-api/session/totp', {
        json: { challenge: answer.challenge, code: totp(OPERATOR_TOTP_SECRET, Date.now() + 30_000) },
      });
    }
    expect(verified.status, verified.body).toBe(200);
    cookies = verified.cookies;
    session = JSON.parse(verified.body).data.session;
  }
  const psid = cookies.map((c) => c.split(';')[0] ?? '').find((c) => c.startsWith('psid='));
  expect(psid).toBeTruthy();
  return { cookie: psid as string, csrf: session.csrfToken };
}

/** One of the operator's actions on the store, with its reason (the store's history keeps it). */
async function operatorAction(action: string, reason: string) {
  const res = await call(PLATFORM, 'POST', `/platform-api/stores/${tenantId}/actions/${action}`, {
    json: { reason },
    cookie: operatorCookie,
    csrf: operatorCsrf,
  });
  expect(res.status, res.body).toBe(200);
}

/** The storefront as a shopper opens it: the status and the page's main heading. */
async function shopperSees(page: Page, path: string, status: number, heading: string, shot: string) {
  const response = await page.goto(`${STORE}${path}`);
  expect(response?.status()).toBe(status);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  await expectNoSeriousA11yIssue(page);
  await snap(page, shot);
}

test('setup: a merchant signs up for the store this spec runs on, and the operator finds it', async () => {
  const signup = await call(PLATFORM, 'POST', '/platform-api/signup', {
    json: {
      storeName: STORE_NAME,
      subdomain,
      email: OWNER.email,
      password: OWNER.password,
      template: 'DEFAULT',
      starter: 'empty',
    },
  });
  expect(signup.status, signup.body).toBeLessThan(300);
  await expect.poll(() => mailedLinks(OWNER.email, '/signup/confirm').length).toBeGreaterThan(0);
  const token = new URL(mailedLinks(OWNER.email, '/signup/confirm')[0] as string).searchParams.get('token');
  const confirmed = await call(PLATFORM, 'POST', '/platform-api/signup/confirm', { json: { token } });
  expect(confirmed.status, confirmed.body).toBe(200);

  ({ cookie: operatorCookie, csrf: operatorCsrf } = await operatorSession());
  const found = await call(PLATFORM, 'GET', `/platform-api/stores?q=${subdomain}.localhost`, {
    cookie: operatorCookie,
  });
  expect(found.status, found.body).toBe(200);
  const [row] = JSON.parse(found.body).data.stores;
  expect(row).toMatchObject({ name: STORE_NAME, state: 'active' });
  tenantId = row.tenantId;
});

test('suspended: shoppers get the temporarily unavailable page, the owner a read-only dashboard', async ({ page }) => {
  await operatorAction('suspend', 'Payment disputes under review (lifecycle browser test).');

  await shopperSees(page, '/', 503, `${STORE_NAME} is temporarily unavailable.`, 'lifecycle-suspended-storefront-1280');
  await expect(page.getByText('Please come back later.')).toBeVisible();
  // The API says so too, with its code.
  const api = await call(STORE, 'GET', '/skulocity/api/v1/public/ecommerce/categories');
  expect(api.status).toBe(503);
  expect(JSON.parse(api.body).code).toBe('STORE_SUSPENDED');

  // The owner still signs in and reads; every page says the dashboard is read-only.
  await signIn(page, OWNER, '/manage-store');
  const banner = page.getByTestId('lifecycle-banner');
  await expect(banner).toContainText('Read-only.');
  await expect(banner).toContainText('Your store is suspended by the platform');
  await expectNoSeriousA11yIssue(page);
  await snap(page, 'lifecycle-suspended-dashboard-1280');
  await page.goto(`${STORE}/manage-store/settings/other`);
  await expect(page.getByTestId('lifecycle-banner')).toBeVisible();

  // The forms show what they would change, with nothing to press.
  const zone = page.getByRole('region', { name: 'Danger zone' });
  await zone.getByText('Request to cancel your store…').click();
  await expect(zone.getByRole('button', { name: 'Request cancellation' })).toBeDisabled();
  await expect(zone.getByLabel('Why do you want to cancel?')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeEnabled();
  await snap(page, 'lifecycle-suspended-read-only-forms-1280');
  // A page opened before the suspension still posts: the server refuses it, with the reason on the form.
  await page.evaluate(() => {
    for (const f of document.querySelectorAll('fieldset[disabled]')) f.removeAttribute('disabled');
  });
  await zone.getByLabel('Why do you want to cancel?').fill('Trying while suspended.');
  await zone.getByLabel('I understand that my store will close once the platform approves this request.').check();
  await zone.getByRole('button', { name: 'Request cancellation' }).click();
  await expect(zone.getByRole('alert')).toContainText('the dashboard is read-only until it is resumed');
  await expect(zone.getByTestId('cancel-state')).toContainText('Your store is open.');
  await snap(page, 'lifecycle-suspended-refused-1280');

  await operatorAction('resume', 'Disputes settled.');
  const back = await page.goto(`${STORE}/manage-store`);
  expect(back?.status()).toBe(200);
  await expect(page.getByTestId('lifecycle-banner')).toHaveCount(0);
  expect((await call(STORE, 'GET', '/skulocity/api/v1/public/ecommerce/categories')).status).not.toBe(503);
});

test('closing: the owner’s approved cancel request closes the storefront; the owner can still sign in and export', async ({
  page,
}) => {
  await signIn(page, OWNER, '/manage-store/settings/other');
  const zone = page.getByRole('region', { name: 'Danger zone' });
  await zone.getByText('Request to cancel your store…').click();
  await zone.getByLabel('Why do you want to cancel?').fill('Closing the shop at the end of the season.');
  await zone.getByLabel('I understand that my store will close once the platform approves this request.').check();
  await zone.getByRole('button', { name: 'Request cancellation' }).click();
  await expect(zone.getByTestId('cancel-state')).toContainText('Cancellation requested');

  await operatorAction('approve-cancel', 'Approved as requested.');

  await page.goto(`${STORE}/manage-store/settings/other`);
  const banner = page.getByTestId('lifecycle-banner');
  await expect(banner).toContainText('Your store is closing');
  await expect(banner).toContainText('until');
  await expect(zone.getByTestId('cancel-state')).toContainText('Cancellation approved');
  await expect(zone.getByTestId('cancel-decision')).toContainText('You can sign in and export your data until');
  await expectNoSeriousA11yIssue(page);
  await snap(page, 'lifecycle-closing-dashboard-1280');
  // Export works (the orders CSV the orders page links to).
  const exported = await page.evaluate(async () => {
    const res = await fetch('/api/v1/orders/export.csv');
    return { status: res.status, type: res.headers.get('content-type') ?? '' };
  });
  expect(exported).toEqual({ status: 200, type: expect.stringContaining('text/csv') });

  // A shopper finds the store closed, and checkout with it.
  const shopper = await page.context().browser()?.newContext();
  if (!shopper) throw new Error('no browser');
  const visitor = await shopper.newPage();
  await shopperSees(visitor, '/', 410, `${STORE_NAME} is closed.`, 'lifecycle-closing-storefront-1280');
  const checkout = await visitor.goto(`${STORE}/checkout`);
  expect(checkout?.status()).toBe(410);
  await shopper.close();
});

test('closed: nothing but the closed page, the dashboard and sign-in included', async ({ page }) => {
  await operatorAction('close', 'Closed ahead of the 30 days at the owner’s request.');
  for (const [path, shot] of [
    ['/', 'lifecycle-closed-storefront-1280'],
    ['/manage-store', 'lifecycle-closed-dashboard-1280'],
    ['/auth/login', 'lifecycle-closed-login-1280'],
  ] as const) {
    await shopperSees(page, path, 410, `${STORE_NAME} is closed.`, shot);
    await expect(page.getByRole('link', { name: 'Store owner? Sign in' })).toHaveCount(0);
  }
  const login = await call(STORE, 'POST', '/skulocity/api/v1/login', {
    json: { email: OWNER.email, password: OWNER.password },
  });
  expect(login.status).toBe(410);
  expect(JSON.parse(login.body).message).toContain('no longer be signed in');
});
