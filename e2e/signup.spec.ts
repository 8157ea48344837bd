import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yIssue, mailedLinks, snap } from './helpers';
import { PORT } from './playwright.config';

// A merchant opens a store on the platform host (decision 103): signs up, confirms from the mail,
// lands signed in on the new store's dashboard, adds a product and sees it on the new subdomain.

const PLATFORM = `http://platform.localhost:${PORT}`;

/** Screenshots at the desktop size and a 375 px phone, then back. */
async function shots(page: Page, name: string) {
  await snap(page, `signup-${name}`);
  const size = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 812 });
  // Nothing wider than the phone's screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await snap(page, `signup-${name}-375`);
  if (size) await page.setViewportSize(size);
}

test('a merchant signs up, confirms, lands in the new store and sells a product there', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const subdomain = `candles-${stamp}`;
  const email = `merchant-${stamp}@example.com`;
  const store = `http://${subdomain}.localhost:${PORT}`;

  // The platform host's bare address is its landing page with the sign-up.
  await page.goto(`${PLATFORM}/`);
  await expect(page).toHaveURL(`${PLATFORM}/signup`);
  await expect(page.getByRole('heading', { level: 1, name: 'Open your online store in a minute' })).toBeVisible();
  await expectNoSeriousA11yIssue(page);
  await shots(page, 'landing');

  // The subdomain is checked as it is typed: a reserved word, then a taken one, then a free one.
  await expect(page.locator('form[data-ready]')).toHaveCount(1);
  await page.getByLabel('Store name').fill('Sunny Candles');
  await expect(page.getByLabel('Store address')).toHaveValue('sunny-candles');
  await page.getByLabel('Store address').fill('www');
  await expect(page.getByTestId('subdomain-status')).toHaveText(
    'This name is kept for the platform. Please choose another.',
  );
  await page.getByLabel('Store address').fill('garden');
  await expect(page.getByTestId('subdomain-status')).toHaveText('This address is taken. Please choose another.');
  await expect(page.getByLabel('Store address')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Store address').fill(subdomain);
  await expect(page.getByTestId('subdomain-status')).toHaveText(`${subdomain}.localhost:${PORT} is available.`);
  await page.getByLabel('Your email').fill(email);
  await page.getByLabel('Password').fill('sunny-candles-2026');
  await page.getByRole('radio', { name: /One/ }).check();
  await shots(page, 'form');
  await page.getByRole('button', { name: 'Create my store' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(page.getByTestId('signup-sent')).toContainText('We have sent you an email');
  // The page says where the mail went, so a mistyped address shows here.
  await expect(page.getByTestId('signup-sent-to')).toContainText(`We sent it to ${email}.`);
  await expect(page.getByRole('link', { name: 'Wrong address? Start again' })).toHaveAttribute('href', '/signup');
  await expectNoSeriousA11yIssue(page);
  await shots(page, 'sent');

  // The mail's link opens a page whose button opens the store.
  await expect.poll(() => mailedLinks(email, '/signup/confirm').length).toBe(1);
  await page.goto(mailedLinks(email, '/signup/confirm')[0] as string);
  await expect(page.getByRole('heading', { level: 1, name: 'Open your store' })).toBeVisible();
  await expectNoSeriousA11yIssue(page);
  await shots(page, 'confirm');
  const confirmed = Date.now();
  await page.getByRole('button', { name: 'Open my store' }).click();

  // Signed in on the new store's host, on its dashboard, with the first-run checklist.
  await expect(page).toHaveURL(`${store}/manage-store`);
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  const liveMs = Date.now() - confirmed;
  console.info(`sign-up: from "Open my store" to the new store's dashboard: ${liveMs} ms`);
  expect(liveMs).toBeLessThan(5_000);
  const checklist = page.getByRole('region', { name: 'Set up your store' });
  await expect(checklist).toContainText('0 of 4 done');
  await expectNoSeriousA11yIssue(page);
  await shots(page, 'dashboard');

  // A first product.
  await page.goto(`${store}/manage-store/products/new`);
  await expect(page.getByRole('heading', { level: 1, name: 'Add product' })).toBeVisible();
  await page.getByLabel('Title', { exact: true }).fill('Beeswax Pillar Candle');
  await page.getByLabel('SKU', { exact: true }).fill(`BW-${stamp}`.toUpperCase());
  await page.getByLabel('Price', { exact: true }).fill('24.00');
  await page.getByRole('combobox', { name: 'Status' }).selectOption('ACTIVE');
  await page.getByLabel('Stock received', { exact: true }).fill('10');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Product created.' })).toBeVisible();
  await page.goto(`${store}/manage-store`);
  await expect(checklist).toContainText('1 of 4 done');
  await expect(checklist.getByRole('listitem').filter({ hasText: 'Add a product' })).toContainText('(done)');

  // The owner sees it on the new store; visitors only once the store goes live.
  await page.goto(`${store}/product/search/Beeswax`);
  await expect(page.getByTestId('product-card').filter({ hasText: 'Beeswax Pillar Candle' })).toBeVisible();
  await shots(page, 'storefront-owner');
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(`${store}/product/search/Beeswax`);
  await expect(visitor).toHaveURL(/\/auth\/login/);
  await page.goto(`${store}/manage-store`);
  await checklist.getByRole('button', { name: 'Go live' }).click();
  await expect(checklist).toContainText('2 of 4 done');
  await visitor.goto(`${store}/product/search/Beeswax`);
  await expect(visitor.getByTestId('product-card').filter({ hasText: 'Beeswax Pillar Candle' })).toBeVisible();
  await expectNoSeriousA11yIssue(visitor);
  await snap(visitor, 'signup-storefront-visitor');
  await visitorContext.close();

  // The checklist goes away when the owner says so.
  await page.getByRole('button', { name: 'Dismiss the checklist' }).click();
  await expect(checklist).toHaveCount(0);
});

test('the platform pages exist on the platform host only, and a store page does not exist there', async ({ page }) => {
  const signupOnStore = await page.goto(`http://lighting.localhost:${PORT}/signup`);
  expect(signupOnStore?.status()).toBe(404);
  const storeOnPlatform = await page.goto(`${PLATFORM}/cart`);
  expect(storeOnPlatform?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'We could not find that page' })).toBeVisible();
});

test('sign-up works without JavaScript: a refused field comes back next to it', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${PLATFORM}/signup`);
  await page.getByLabel('Store name').fill('No Script Shop');
  await page.getByLabel('Store address').fill('admin');
  await page.getByLabel('Your email').fill('noscript@example.com');
  await page.getByLabel('Password').fill('no-script-shop-2026');
  await page.getByRole('button', { name: 'Create my store' }).click();
  await expect(page.getByTestId('subdomain-status')).toHaveText(
    'This name is kept for the platform. Please choose another.',
  );
  await expect(page.getByLabel('Store name')).toHaveValue('No Script Shop');
  await context.close();
});
