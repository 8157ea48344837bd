import { readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { confirmFromMail, pointAtPage, STORES, snap } from './helpers';
import { DATA_DIR } from './playwright.config';

/** Browser tests of accounts: log in, land where the guard sent you from, the header menu, logout, sign-up. */

const lighting = STORES.lighting.url;
const shopper = { email: 'shopper@lighting.test', password: 'shopper-demo-1' };
const owner = { email: 'owner@lighting.test', password: 'owner-demo-1' };

async function logIn(page: Page, who: { email: string; password: string }) {
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

test('a visitor sent to login from an account page lands back on it, with the first name in the header', async ({
  page,
}) => {
  await page.goto(`${lighting}/account/password`);
  await expect(page).toHaveURL(`${lighting}/auth/login?redirectUrl=%2Faccount%2Fpassword`);
  await logIn(page, shopper);
  await expect(page).toHaveURL(`${lighting}/account/password`);
  await expect(page.getByTestId('user-menu-button')).toHaveText('Sam');
  // The values are written by the app, which a shop page starts at the shopper's first intent.
  await pointAtPage(page);
  await page.waitForFunction(() => window.localStorage.getItem('isLogin') === 'true');
  expect(await page.evaluate(() => window.localStorage.getItem('userFirstName'))).toBe('Sam');
  // The session is an httpOnly cookie: no script can read it.
  expect(await page.evaluate(() => document.cookie)).not.toContain('sid=');
});

test('a wrong password says so, keeps the email and marks nothing as logged in', async ({ page }) => {
  await page.goto(`${lighting}/auth/login`);
  await logIn(page, { email: shopper.email, password: 'not-my-password' });
  await expect(page.getByTestId('form-error')).toHaveText('The email or password is incorrect.');
  await expect(page.getByLabel('Email')).toHaveValue(shopper.email);
  await expect(page.getByLabel('Password')).toHaveValue('');
  await snap(page, 'auth-login-error');
});

test('login works without JavaScript, through the plain form', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${lighting}/auth/login?redirectUrl=%2Ffaqs`);
  await logIn(page, shopper);
  await expect(page).toHaveURL(`${lighting}/faqs`);
  await expect(page.getByTestId('user-menu-button')).toHaveText('Sam');
  await context.close();
});

test('the header menu offers Manage Store to the store owner only', async ({ page }) => {
  await page.goto(`${lighting}/auth/login`);
  await logIn(page, owner);
  await expect(page).toHaveURL(`${lighting}/`);
  await page.getByTestId('user-menu-button').click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem')).toHaveText(['My Profile', 'Manage Store', 'Logout']);
  await snap(page, 'auth-owner-menu');

  await page.context().clearCookies();
  await page.goto(`${lighting}/auth/login`);
  await logIn(page, shopper);
  await expect(page).toHaveURL(`${lighting}/`);
  await page.getByTestId('user-menu-button').click();
  await expect(page.getByRole('menu').getByRole('menuitem')).toHaveText(['My Profile', 'Logout']);
});

test('logout ends the session, goes home, clears the stored values and says so', async ({ page }) => {
  await page.goto(`${lighting}/auth/login?redirectUrl=%2Faccount%2Fprofile`);
  await logIn(page, shopper);
  await expect(page).toHaveURL(`${lighting}/account/profile`);
  await expect(page.getByTestId('account-summary')).toContainText('Sam Shopper');
  await expect(page.getByTestId('account-summary')).toContainText('shopper@lighting.test');
  await snap(page, 'account-overview');
  await page.getByTestId('user-menu-button').click();
  await page.getByTestId('logout-button').click();
  await expect(page).toHaveURL(`${lighting}/`);
  await expect(page.getByRole('region', { name: 'Notifications' }).getByRole('status')).toContainText(
    'You have been logged out successfully!',
  );
  await expect(page.getByTestId('login-link')).toBeVisible();
  await page.waitForFunction(() => window.localStorage.getItem('isLogin') === 'false');
  expect(await page.evaluate(() => window.localStorage.getItem('userFirstName'))).toBeNull();
  // The old session is gone: account pages send the visitor to login again.
  await page.goto(`${lighting}/account/profile`);
  await expect(page).toHaveURL(/\/auth\/login\?redirectUrl=/);
});

test('a new shopper signs up, confirms by the mailed link and is logged in; a taken email gets the same page', async ({
  page,
}) => {
  const email = `e2e-${Date.now()}@example.com`;
  await page.goto(`${lighting}/auth/register?redirectUrl=%2Faccount%2Fprofile`);
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  // The browser's own minimum does not exist here; the server's message shows by the field.
  await expect(page.getByTestId('error-password')).toHaveText('Use at least 10 characters for your password.');
  await expect(page.getByLabel('First name')).toHaveValue('Grace');
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await snap(page, 'auth-register-error');
  await page.getByLabel('Password').fill('compilers-1952');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(page.getByTestId('register-done')).toContainText('follow its link to confirm your address');
  await snap(page, 'auth-register-check-email');
  // Not logged in yet: the right password is answered with the way to confirm.
  await page.goto(`${lighting}/auth/login`);
  await logIn(page, { email, password: 'compilers-1952' });
  await expect(page.getByTestId('resend-confirmation')).toContainText('Confirm your email first: we sent you a link.');
  await snap(page, 'auth-login-unconfirmed');
  await page.getByRole('button', { name: 'Send the link again' }).click();
  await expect(page.getByTestId('resend-done')).toContainText('we have sent a new link');
  // Only the newest link works; it logs in (the resent link carries no page to return to: home).
  await confirmFromMail(page, email, 2);
  await expect(page).toHaveURL(`${lighting}/`);
  await expect(page.getByTestId('user-menu-button')).toHaveText('Grace');

  await page.context().clearCookies();
  await page.goto(`${lighting}/auth/register`);
  await page.getByLabel('First name').fill('Someone');
  await page.getByLabel('Last name').fill('Else');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a-different-pass-1');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId('register-done')).toContainText('We have sent you an email about your account');
  await expect(page.getByTestId('login-link')).toHaveCount(0); // no header on auth pages
  await page.goto(`${lighting}/account/profile`);
  await expect(page).toHaveURL(/\/auth\/login/);
});

test('login and sign-up pages look right at 375 px', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`${lighting}/auth/login`);
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await snap(page, 'auth-login-mobile');
  await page.goto(`${lighting}/auth/register`);
  await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
  await snap(page, 'auth-register-mobile');
});

/** The newest reset link mailed to `to`, read from the dev outbox the e2e server writes (.eml files). */
function resetLinkFor(to: string): string | null {
  const dir = `${DATA_DIR}/outbox`;
  let files: string[] = [];
  try {
    files = readdirSync(dir).sort().reverse();
  } catch {
    return null;
  }
  for (const f of files) {
    const raw = readFileSync(join(dir, f), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    if (!raw.includes(`To: ${to}`)) continue;
    const m = raw.match(/(http:\/\/\S+\/auth\/reset-password\?token=[A-Za-z0-9_-]+)/);
    if (m) return m[1] ?? null;
  }
  return null;
}

test('a forgotten password is reset from the link in the mail, and the new one logs in', async ({ page }) => {
  const power = STORES.power.url;
  const email = 'shopper@power.test';
  await page.goto(`${power}/auth/forgot-password`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByTestId('forgot-done')).toContainText('If an account exists for this email');
  await expect.poll(() => resetLinkFor(email)).toMatch(/^http:\/\/power\.localhost:\d+\/auth\/reset-password\?token=/);
  const link = resetLinkFor(email) as string;
  await page.goto(link);
  await page.getByLabel('New password').fill('power-tools-2026');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByTestId('reset-done')).toContainText('Your password has been changed.');
  await snap(page, 'auth-reset-done');
  // The link worked once.
  await page.goto(link);
  await page.getByLabel('New password').fill('power-tools-2027');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByTestId('form-error')).toContainText('invalid, used or expired');
  await page.goto(`${power}/auth/login`);
  await logIn(page, { email, password: 'power-tools-2026' });
  await expect(page.getByTestId('user-menu-button')).toHaveText('Sam');
});

test('My Profile saves, and the password page refuses a wrong current password by its field', async ({ page }) => {
  const garden = STORES.garden.url;
  await page.goto(`${garden}/auth/login?redirectUrl=%2Faccount%2Fprofile%2Fsettings`);
  await logIn(page, { email: 'shopper@garden.test', password: 'shopper-demo-1' });
  await expect(page).toHaveURL(`${garden}/account/profile/settings`);
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue('shopper@garden.test');
  await page.getByLabel('Phone (optional)').fill('+1 503 555 0123');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText('Your profile has been saved.');
  await page.reload();
  await expect(page.getByLabel('Phone (optional)')).toHaveValue('+1 503 555 0123');
  await snap(page, 'account-profile-settings');

  await page.goto(`${garden}/account/password`);
  await page.getByLabel('Current password').fill('not-my-password');
  await page.getByLabel('New password').fill('garden-gnome-42');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByTestId('error-currentPassword')).toHaveText('The current password is not correct.');
  await expect(page.getByLabel('Current password')).toHaveValue('');
});

test('addresses: add with a checked postal code, defaults, edit and remove', async ({ page }) => {
  const power = STORES.power.url;
  await page.goto(`${power}/auth/login?redirectUrl=%2Faccount%2Faddresses`);
  await logIn(page, { email: 'owner@power.test', password: 'owner-demo-1' });
  await expect(page).toHaveURL(`${power}/account/addresses`);
  const form = page.getByTestId('address-form');
  await form.getByLabel('Full name').fill('Olivia Owner');
  await form.getByLabel('Street address').fill('200 Industrial Way');
  await form.getByLabel('City').fill('Austin');
  await form.getByLabel('Postal code').fill('ABCDE');
  await form.getByLabel('State or region').selectOption('US_TX');
  await form.getByRole('button', { name: 'Save address' }).click();
  await expect(page.getByTestId('error-postalCode')).toContainText('not a postal code of United States');
  await expect(form.getByLabel('Street address')).toHaveValue('200 Industrial Way');
  await form.getByLabel('Postal code').fill('78701');
  await form.getByRole('button', { name: 'Save address' }).click();
  const cards = page.getByTestId('address-card');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('Austin, Texas 78701');
  await expect(cards.first()).toContainText('Default shipping');

  await page.getByRole('link', { name: 'Add an address' }).click();
  await form.getByLabel('Full name').fill('Olivia at the shop');
  await form.getByLabel('Street address').fill('10 Queen St W');
  await form.getByLabel('City').fill('Toronto');
  await form.getByLabel('Country').selectOption('CAN');
  await form.getByLabel('State or region').selectOption('CA_ON');
  await form.getByLabel('Postal code').fill('M5H 2N2');
  await form.getByLabel('Use as my default shipping address').check();
  await form.getByRole('button', { name: 'Save address' }).click();
  await expect(cards).toHaveCount(2);
  await expect(cards.first()).toContainText('Toronto, Ontario M5H 2N2');
  await expect(cards.first()).toContainText('Default shipping');
  await expect(cards.nth(1)).not.toContainText('Default shipping');
  await snap(page, 'account-addresses');

  await cards.nth(1).getByRole('button', { name: 'Edit' }).click();
  await form.getByLabel('City').fill('Round Rock');
  await form.getByLabel('Postal code').fill('78664');
  await form.getByRole('button', { name: 'Save address' }).click();
  await expect(cards.nth(1)).toContainText('Round Rock, Texas 78664');
  await cards.first().getByRole('button', { name: 'Remove' }).click();
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('Default shipping');
});

test('addresses work without JavaScript: add, open another form by link, cancel it', async ({ browser }) => {
  const garden = STORES.garden.url;
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${garden}/auth/login?redirectUrl=%2Faccount%2Faddresses`);
  await logIn(page, { email: 'owner@garden.test', password: 'owner-demo-1' });
  await expect(page).toHaveURL(`${garden}/account/addresses`);
  const form = page.getByTestId('address-form');
  await form.getByLabel('Full name').fill('Olivia Owner');
  await form.getByLabel('Street address').fill('1 Garden Row');
  await form.getByLabel('City').fill('Portland');
  await form.getByLabel('State or region').selectOption('US_OR');
  await form.getByLabel('Postal code').fill('97201');
  await form.getByRole('button', { name: 'Save address' }).click();
  await expect(page.getByTestId('address-card')).toHaveCount(1);
  await expect(form).toHaveCount(0);
  await page.getByRole('link', { name: 'Add an address' }).click();
  await expect(page).toHaveURL(`${garden}/account/addresses?new`);
  await expect(form.getByLabel('Full name')).toHaveValue('');
  await form.getByRole('link', { name: 'Cancel' }).click();
  await expect(form).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Add an address' })).toBeVisible();
  await context.close();
});

test('payment methods: a declined card is refused, a good one is saved as brand and last four, then removed', async ({
  page,
}) => {
  const garden = STORES.garden.url;
  await page.goto(`${garden}/auth/login?redirectUrl=%2Faccount%2Fpayment-methods`);
  await logIn(page, { email: 'shopper@garden.test', password: 'shopper-demo-1' });
  await expect(page).toHaveURL(`${garden}/account/payment-methods`);
  const form = page.getByTestId('card-form');
  await form.getByLabel('Name on card').fill('Sam Shopper');
  await form.getByLabel('Card number').fill('4000 0000 0000 0002');
  await form.getByLabel('Year').selectOption(String(new Date().getUTCFullYear() + 2));
  await form.getByLabel('Security code').fill('123');
  await form.getByRole('button', { name: 'Save card' }).click();
  await expect(page.getByTestId('form-error')).toHaveText('The card was declined. Please use another card.');
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Security code').fill('123');
  await form.getByRole('button', { name: 'Save card' }).click();
  const cards = page.getByTestId('saved-card');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('Visa ending in 4242');
  await expect(page.getByTestId('card-list')).not.toContainText('4242 4242');
  await expect(form.getByLabel('Card number')).toHaveValue('');
  await expect(form.getByLabel('Security code')).toHaveValue('');
  await snap(page, 'account-payment-methods');
  await cards.first().getByRole('button', { name: 'Remove' }).click();
  await expect(cards).toHaveCount(0);
});

interface RawResponse {
  status: number;
  location: string;
  cookies: string[];
  body: string;
}

/** A request as a browser without JavaScript sends it, to 127.0.0.1 with the store's Host header. */
function raw(method: 'GET' | 'POST', path: string, headers: Record<string, string>, body = ''): Promise<RawResponse> {
  const { host, port } = new URL(lighting);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: Number(port),
        path,
        method,
        headers: { host, ...headers, ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            location: String(res.headers.location ?? ''),
            cookies: res.headers['set-cookie'] ?? [],
            body: text,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Opens the login page as a new browser would: its pre-session cookie and the form's CSRF token. */
async function loginPage(): Promise<{ cookie: string; csrf: string }> {
  const page = await raw('GET', '/auth/login', {});
  const cookie = page.cookies.map((c) => c.split(';')[0]).find((c) => c?.startsWith('csrf=')) ?? '';
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  expect(cookie).not.toBe('');
  expect(csrf).not.toBe('');
  return { cookie, csrf };
}

function postForm(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return raw(
    'POST',
    path,
    {
      origin: new URL(lighting).origin,
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    new URLSearchParams(fields).toString(),
  );
}

test("a login form posted without the page's CSRF token, or from another site, opens no session", async () => {
  const { cookie, csrf } = await loginPage();
  const sessionSet = (r: RawResponse) => r.cookies.some((c) => c.startsWith('sid=') && !c.startsWith('sid=;'));

  const forged = await postForm('/auth/login', shopper, { cookie });
  expect(forged.status).toBe(403);
  expect(forged.body).toContain('This form has expired or did not come from this store. Please try again.');
  expect(sessionSet(forged)).toBe(false);

  const foreign = await postForm(
    '/auth/login',
    { ...shopper, _csrf: csrf },
    { cookie, origin: 'https://evil.example' },
  );
  // React Router refuses a foreign Origin by itself (400) before our check (403) would.
  expect(foreign.status).toBeGreaterThanOrEqual(400);
  expect(sessionSet(foreign)).toBe(false);

  // Another browser's token does not go with this browser's cookie.
  const other = await loginPage();
  const swapped = await postForm('/auth/login', { ...shopper, _csrf: other.csrf }, { cookie });
  expect(swapped.status).toBe(403);

  const real = await postForm('/auth/login', { ...shopper, _csrf: csrf }, { cookie });
  expect(real.status).toBe(302);
  expect(sessionSet(real)).toBe(true);
});

test('after login, a redirectUrl pointing off the store always lands on / (open redirect)', async () => {
  const { cookie, csrf } = await loginPage();
  for (const hostile of ['https://evil.example', '//evil.example', '/\\evil.example', 'javascript:alert(1)']) {
    const res = await postForm('/auth/login', { ...shopper, redirectUrl: hostile, _csrf: csrf }, { cookie });
    expect(res.status, hostile).toBe(302);
    expect(res.location, hostile).toBe('/');
  }
  const fine = await postForm(
    '/auth/login',
    { ...shopper, redirectUrl: '/account/addresses?x=1', _csrf: csrf },
    { cookie },
  );
  expect(fine.location).toBe('/account/addresses?x=1');
});
