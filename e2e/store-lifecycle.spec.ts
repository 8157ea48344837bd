import { randomBytes } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yIssue, signIn, snap } from './helpers';
import { call, DEMO_OPERATOR, DEMO_OPERATOR_TOTP_SECRET, PLATFORM, signUpStore, totp } from './platform';
import { PORT } from './playwright.config';

/**
 * What a store's lifecycle states mean to the people who meet them (decision 099), on a store of its
 * own: a merchant signs up for it (setup), the platform moves it through its states through the
 * operator API (the console's pages are tested in operator-console.spec.ts), and this spec looks at
 * what a shopper and the owner see: the "temporarily unavailable" page and the read-only dashboard of a
 * suspended store, the closed storefront and the dashboard's closing banner of a closing store, and a
 * closed store that shows its closed page and nothing else. No seeded store is touched.
 */

const OPERATOR = DEMO_OPERATOR;
const OPERATOR_TOTP_SECRET = DEMO_OPERATOR_TOTP_SECRET;

const subdomain = `lfc${randomBytes(3).toString('hex')}`;
const STORE = `http://${subdomain}.localhost:${PORT}`;
const STORE_NAME = `Lifecycle Test ${subdomain}`;
const OWNER = { base: STORE, email: `owner-${subdomain}@example.test`, password: 'lifecycle-owner-pw-1' };

test.describe.configure({ mode: 'serial' });

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
  await signUpStore({ storeName: STORE_NAME, subdomain, owner: OWNER });

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
