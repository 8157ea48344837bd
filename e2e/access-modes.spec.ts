import { type Browser, expect, test } from '@playwright/test';
import { confirmFromMail, expectNoSeriousA11yIssue, hydrated, STORES, signIn, snap } from './helpers';

/**
 * Access modes (decision 105): a store that admits approved accounts only. A visitor registers and
 * confirms their email, and still sees nothing but the waiting page; the owner approves the request
 * in Access settings; then the shopper browses. It closes the power store for a while, so it runs
 * in the store-access project after every other browser test (playwright.config.ts), and opens the
 * store again at the end, whatever happened.
 */

const power = STORES.power.url;
const owner = { base: power, email: 'owner@power.test' };
const ACCESS = '/manage-store/settings/access';
const SEARCH_API = '/skulocity/api/v1/public/ecommerce/product/search?searchText=a';

async function ownerPage(browser: Browser) {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, owner, ACCESS);
  await hydrated(page);
  return page;
}

async function saveMode(browser: Browser, label: RegExp) {
  const page = await ownerPage(browser);
  await page.getByRole('radio', { name: label }).check();
  await page.getByRole('button', { name: 'Save access' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Access saved' })).toBeVisible();
  return page;
}

test.describe.configure({ mode: 'serial' });

test.afterAll(async ({ browser }) => {
  // The store is public again for whatever runs after this file.
  const page = await saveMode(browser, /^Public/);
  await expect(page.getByTestId('visibility-badge')).toHaveText('Public');
  await page.context().close();
});

test('a visitor who registers at an approved-only store waits; the owner approves; then they browse', async ({
  browser,
}) => {
  const owned = await saveMode(browser, /Approved accounts only/);
  await expect(owned.getByTestId('visibility-badge')).toHaveText('Approved accounts only');
  await expect(owned.getByRole('heading', { name: 'Account requests' })).toBeVisible();
  await snap(owned, 'access-modes-owner-approved-only');
  await expectNoSeriousA11yIssue(owned);

  // A visitor sees only the login page, and registration says accounts are approved.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`${power}/`);
  await expect(visitor).toHaveURL(`${power}/auth/login`);
  await expect(visitor.getByText('Log in, or ask for an account')).toBeVisible();
  await visitor.getByRole('link', { name: 'Create an account' }).click();
  await expect(visitor.getByText('This store approves every new account')).toBeVisible();
  const email = `pat.${Date.now()}@example.test`;
  const form = visitor.getByTestId('register-form');
  await form.getByLabel('First name').fill('Pat');
  await form.getByLabel('Last name').fill('Pending');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill('a-long-passphrase-42');
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(visitor.getByTestId('register-done')).toContainText('your account waits for the owner’s approval');

  // Confirmed and signed in, the account still sees nothing but where it stands.
  await confirmFromMail(visitor, email);
  await expect(visitor).toHaveURL(`${power}/auth/awaiting-approval`);
  await expect(visitor.getByRole('heading', { level: 1, name: 'Your account is waiting for approval' })).toBeVisible();
  await expect(visitor.getByText(`Signed in as ${email}`)).toBeVisible();
  await snap(visitor, 'access-modes-waiting');
  await expectNoSeriousA11yIssue(visitor);
  await visitor.goto(`${power}/cart`);
  await expect(visitor).toHaveURL(`${power}/auth/awaiting-approval`);
  const refused = await visitor.evaluate(async (url) => (await fetch(url)).status, SEARCH_API);
  expect(refused).toBe(403);

  // The owner approves the request in Access settings.
  await owned.reload();
  await hydrated(owned);
  const row = owned.getByTestId('account-request-row').filter({ hasText: email });
  await expect(row.getByText('Waiting')).toBeVisible();
  await snap(owned, 'access-modes-owner-request');
  await row.getByRole('button', { name: `Approve ${email}` }).click();
  await expect(owned.getByRole('status').filter({ hasText: 'Account approved' })).toBeVisible();
  await expect(owned.getByTestId('account-request-row').filter({ hasText: email })).toHaveCount(0);
  await snap(owned, 'access-modes-owner-approved');

  // Now the shopper browses: the home page, the catalog API.
  await visitor.goto(`${power}/`);
  await expect(visitor).toHaveURL(`${power}/`);
  await expect(visitor.getByRole('heading', { name: 'Your account is waiting for approval' })).toHaveCount(0);
  // Prices show now: the catalog is theirs to see.
  await expect(visitor.getByText(/^\$\d+\.\d\d$/).first()).toBeVisible();
  const allowed = await visitor.evaluate(async (url) => (await fetch(url)).status, SEARCH_API);
  expect(allowed).toBe(200);
  await snap(visitor, 'access-modes-approved-home');
  await visitor.context().close();
  await owned.context().close();
});

test('an invitation-only store: registration says it is closed, and the login page offers no sign-up', async ({
  browser,
}) => {
  const owned = await saveMode(browser, /Invitation only/);
  await expect(owned.getByRole('heading', { name: 'Customer invitations' })).toBeVisible();
  await owned.context().close();
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`${power}/auth/register`);
  await expect(visitor.getByRole('heading', { level: 1, name: 'Invitation only' })).toBeVisible();
  await expect(visitor.getByTestId('register-form')).toHaveCount(0);
  await snap(visitor, 'access-modes-registration-closed');
  await visitor.goto(`${power}/auth/login`);
  await expect(visitor.getByText('admits customers by invitation only')).toBeVisible();
  await expect(visitor.getByRole('link', { name: 'Create an account' })).toHaveCount(0);
  await visitor.context().close();
});
