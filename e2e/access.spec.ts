import { type Browser, expect, test } from '@playwright/test';
import { axeFindings, hydrated, mailedLinks, STORES, signIn, snap } from './helpers';

/**
 * The access page (decision 027). It turns a seeded store private for a while, so it runs in its
 * own project after every other browser test (playwright.config.ts): no other test meets a closed
 * store by surprise.
 */

const lighting = STORES.lighting.url;
const owner = { base: lighting, email: 'owner@lighting.test', password: 'owner-demo-1' };
const ACCESS = '/manage-store/settings/access';

async function ownerPage(browser: Browser, javaScriptEnabled = true) {
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  await signIn(page, owner, ACCESS);
  return page;
}

test.describe.configure({ mode: 'serial' });

test('the owner makes the store login-required: a visitor sees only login and registration; public again, the catalog', async ({
  browser,
}) => {
  // Without JavaScript first: the form posts and the page answers by itself.
  const noJs = await ownerPage(browser, false);
  await expect(noJs.getByRole('heading', { level: 1, name: 'Access' })).toBeVisible();
  await expect(noJs.getByTestId('visibility-badge')).toHaveText('Public');
  await noJs.getByRole('radio', { name: /Login required/ }).check();
  await noJs.getByRole('button', { name: 'Save access' }).click();
  await expect(noJs.getByTestId('visibility-badge')).toHaveText('Login required');
  await noJs.context().close();

  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`${lighting}/`);
  await expect(visitor).toHaveURL(`${lighting}/auth/login`);
  await expect(visitor.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
  await expect(visitor.getByText('This store is private.')).toBeVisible();
  await snap(visitor, 'access-private-store-visitor');
  await visitor.getByRole('link', { name: 'Create an account' }).click();
  await expect(visitor.getByRole('heading', { level: 1, name: /Create/ })).toBeVisible();
  for (const path of ['/product/search/lamp', '/cart', '/faqs']) {
    await visitor.goto(`${lighting}${path}`);
    await expect(visitor).toHaveURL(new RegExp(`/auth/login\\?redirectUrl=${encodeURIComponent(path)}`));
  }
  // The API answers the visitor's browser the same: nothing of the catalog.
  const status = await visitor.evaluate(
    async () => (await fetch('/skulocity/api/v1/public/ecommerce/product/search?searchText=lamp')).status,
  );
  expect(status).toBe(401);

  // With JavaScript: the owner opens the store again; a toast says so.
  const page = await ownerPage(browser);
  await hydrated(page);
  await expect(page.getByTestId('visibility-badge')).toHaveText('Login required');
  await page.getByRole('radio', { name: /Public/ }).check();
  const save = page.getByRole('button', { name: 'Save access' });
  await save.click();
  await expect(page.getByRole('status').filter({ hasText: 'Access saved: public' })).toBeVisible();
  await expect(page.getByTestId('visibility-badge')).toHaveText('Public');

  await visitor.goto(`${lighting}/`);
  await expect(visitor).toHaveURL(`${lighting}/`);
  await expect(visitor.getByRole('link', { name: /Pendants/ }).first()).toBeVisible();
  await page.context().close();
  await visitor.context().close();
});

test('the owner invites staff; the mailed link sets a password; the staff member sees what they may; revoked, they are out', async ({
  browser,
}) => {
  const email = `casey.${Date.now()}@example.test`;
  const page = await ownerPage(browser);
  await hydrated(page);
  const form = page.getByTestId('invite-form');
  await form.getByLabel('First name').fill('Casey');
  await form.getByLabel('Last name').fill('Catalog');
  await form.getByLabel('Email').fill(email);
  await form.getByRole('button', { name: 'Send invitation' }).click();
  // No permission chosen: said next to the field, and what was typed stays.
  await expect(form.getByTestId('error-permissions')).toHaveText('Choose at least one permission.');
  await expect(form.getByLabel('Email')).toHaveValue(email);
  await form.getByRole('checkbox', { name: /Products/ }).check();
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Invitation sent to ${email}` })).toBeVisible();
  await expect(page.getByTestId('invitation-row').filter({ hasText: email })).toBeVisible();
  await expect(form.getByLabel('Email')).toHaveValue('');

  await page.getByRole('button', { name: 'Dismiss notification' }).click();
  await expect(page.getByRole('button', { name: `Revoke invitation for ${email}` })).toBeVisible();
  await snap(page, 'access-page-1280');
  expect(await axeFindings(page, { exclude: [] })).toEqual([]);
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, 'access-page-375');
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.setViewportSize({ width: 1280, height: 800 });

  await expect.poll(() => mailedLinks(email, '/auth/staff-invitation').length, { timeout: 15_000 }).toBe(1);
  const link = mailedLinks(email, '/auth/staff-invitation')[0] as string;
  const staff = await (await browser.newContext()).newPage();
  await staff.goto(link);
  await expect(staff.getByRole('heading', { level: 1, name: /^Join / })).toBeVisible();
  await expect(staff.getByText('Products')).toBeVisible();
  await snap(staff, 'access-staff-invitation');
  await staff.getByLabel('Password').fill('casey-picks-a-long-one');
  await staff.getByRole('button', { name: 'Set password and join' }).click();
  await expect(staff.getByTestId('invitation-accepted')).toBeVisible();
  await staff.getByRole('link', { name: 'Log in' }).click();
  await staff.getByLabel('Email').fill(email);
  await staff.getByLabel('Password').fill('casey-picks-a-long-one');
  await staff.getByRole('button', { name: 'Log in' }).click();
  await expect(staff).toHaveURL(`${lighting}/manage-store`);
  await expect(staff.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  // The menu offers what their permission opens (Products) and not the settings or orders.
  const menu = staff.getByRole('navigation', { name: 'Dashboard' }).first();
  await expect(menu.getByRole('link', { name: 'Products' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Access' })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Orders' })).toHaveCount(0);
  // Products only: the access settings are not theirs to see.
  await staff.goto(`${lighting}${ACCESS}`);
  await expect(staff.getByRole('heading', { level: 1 })).toHaveText('You do not have access to this page');
  await expect(staff.getByText('Your staff account at')).toBeVisible();

  // The owner removes them: their session ends at once.
  await page.reload();
  await hydrated(page);
  const row = page.getByTestId('staff-row').filter({ hasText: email });
  await row.getByText('Edit access for Casey Catalog').click();
  // A destructive action asks first: the first press only opens the question.
  await row.getByText('Remove access', { exact: true }).click();
  await expect(row.getByText('Remove Casey Catalog’s access?')).toBeVisible();
  await expect(page.getByTestId('staff-row').filter({ hasText: email })).toHaveCount(1);
  await row.getByRole('button', { name: 'Remove Casey Catalog', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Staff access removed' })).toBeVisible();
  await expect(page.getByTestId('staff-row').filter({ hasText: email })).toHaveCount(0);
  // The owner has no remove button for themselves.
  await expect(page.getByTestId('staff-row').filter({ hasText: owner.email }).getByRole('button')).toHaveCount(0);

  await staff.goto(`${lighting}/manage-store`);
  await expect(staff).toHaveURL(/\/auth\/login\?redirectUrl=/);
  await page.context().close();
  await staff.context().close();
});
