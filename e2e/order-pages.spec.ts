import { expect, test } from '@playwright/test';
import { STORES, signIn, snap } from './helpers';

/**
 * What a demanding shopper noticed on the order pages: the state of the address, links
 * from order lines to their products, the account navigation on the history, title-cased CMS titles.
 */

const base = STORES.lighting.url;
const shopper = { base, email: 'shopper@lighting.test', password: 'shopper-demo-1' };
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 375, height: 812 },
] as const;

test('the confirmation right after checkout shows the state of the address and links the line to its product', async ({
  page,
}) => {
  await page.goto(`${base}/product/search/lamp?inStock=true`);
  await page.getByTestId('product-card').first().getByRole('link').first().click();
  await expect(page.getByTestId('add-to-cart-form')).toBeVisible();
  const productPath = new URL(page.url()).pathname;
  const productName = (await page.getByRole('heading', { level: 1 }).textContent())?.trim() ?? '';
  await page.getByTestId('add-to-cart').click();
  await expect(page).toHaveURL(`${base}/cart`);
  await page.goto(`${base}/checkout`);
  const form = page.getByTestId('checkout-form');
  await form.getByLabel('Email').fill('region@example.com');
  await form.getByLabel('Full name').fill('Grace Hopper');
  await form.getByLabel('Street address').fill('1 Market Street');
  await form.getByLabel('City').fill('San Francisco');
  await form.getByLabel('Postal code').fill('94105');
  await form.getByLabel('State or region').selectOption('US_CA');
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Month').fill('12');
  await form.getByLabel('Year').fill('2099');
  await form.getByLabel('CVC').fill('123');
  await form.getByLabel('Name on card').fill('Grace Hopper');
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByText('Thank you! Your order has been placed.')).toBeVisible();
  await expect(page).toHaveURL(/[?&]placed/);

  const shipsTo = page.getByRole('region', { name: 'Ships to' });
  await expect(shipsTo).toContainText('San Francisco, California 94105');
  await expect(shipsTo).toContainText('United States');
  const line = page.getByTestId('order-lines').getByRole('link', { name: productName, exact: true });
  await expect(line).toHaveAttribute('href', productPath);

  for (const w of WIDTHS) {
    await page.setViewportSize({ width: w.width, height: w.height });
    await snap(page, `order-confirmation-region-${w.name}`);
  }
  await line.click();
  await expect(page).toHaveURL(`${base}${productPath}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(productName);
});

test('a seeded order links each line (name and picture) to its product, where the review is written', async ({
  page,
}) => {
  await signIn(page, shopper, '/order?orderId=LIG-DEMO-S1');
  const lines = page.getByTestId('order-lines').getByRole('listitem');
  await expect(lines).toHaveCount(2);
  await expect(page.getByRole('region', { name: 'Ships to' })).toContainText('California');
  for (const w of WIDTHS) {
    await page.setViewportSize({ width: w.width, height: w.height });
    await snap(page, `order-seeded-${w.name}`);
  }
  const first = lines.first();
  const name = first.getByRole('link').last();
  const href = await name.getAttribute('href');
  expect(href).toMatch(/^\/[^/]+\/[^/]+$/);
  // The picture goes to the same page, out of the tab order (one stop per line).
  await expect(first.locator(`a[href="${href}"] img`)).toHaveCount(1);
  const productName = (await name.textContent())?.trim() ?? '';
  await name.click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(productName);
  // A delivered order's product: the review form (or the note of a review already written) is there.
  await expect(page.getByRole('heading', { name: 'Write a review' }).or(page.getByTestId('review-note'))).toBeVisible();
});

for (const w of WIDTHS) {
  test(`the order history has the account navigation with Orders current at ${w.width} px`, async ({ page }) => {
    await page.setViewportSize({ width: w.width, height: w.height });
    await signIn(page, shopper, '/order/history');
    // In the page, not the header's own "Account" navigation.
    const nav = page.getByRole('main').getByRole('navigation', { name: 'Account' });
    await expect(nav).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Orders' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Overview' })).not.toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('heading', { level: 1, name: 'Order history' })).toBeVisible();
    await expect(page.getByTestId('order-history').getByRole('listitem')).toHaveCount(4);
    await snap(page, `order-history-nav-${w.name}`);
    await nav.getByRole('link', { name: 'Addresses' }).click();
    await expect(page).toHaveURL(`${base}/account/addresses`);
  });
}

test('the pages index lists titles in title case, as the footer does', async ({ page }) => {
  await page.goto(`${base}/page`);
  const list = page.getByRole('main').getByRole('list');
  await expect(list.getByRole('link', { name: 'Shipping and Returns', exact: true })).toBeVisible();
  await expect(list.getByRole('link', { name: 'shipping and returns', exact: true })).toHaveCount(0);
  for (const w of WIDTHS) {
    await page.setViewportSize({ width: w.width, height: w.height });
    await snap(page, `pages-index-${w.name}`);
  }
});
