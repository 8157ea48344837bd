import { type Browser, expect, type Page, test } from '@playwright/test';
import { apiJson, expectNoSeriousA11yIssue, STORES, snap } from './helpers';

/**
 * The owner's inventory (issue 16 point 4): a product is counted down to none without JavaScript and
 * shows sold out on the storefront; the owner restocks it and "Add to cart" comes back; the stock
 * history shows both adjustments. Runs on the power store, on one product no other spec touches
 * (the Gutter Cleaning Kit), and leaves it with the stock it had.
 */

const power = STORES.power.url;
const PRODUCT = 'Gutter Cleaning Kit';
const INVENTORY = `/manage-store/inventory?q=${encodeURIComponent(PRODUCT)}`;

async function logIn(page: Page, then: string) {
  await page.goto(`${power}/auth/login?redirectUrl=${encodeURIComponent(then)}`);
  await page.getByLabel('Email').fill('owner@power.test');
  await page.getByLabel('Password').fill('owner-demo-1');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(`${power}${then}`);
}

async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, `admin-inventory-${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, `admin-inventory-${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** A shopper's view of the product page, in a browser of its own (no owner session). */
async function shopperPage(browser: Browser, path: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${power}${path}`);
  return { page, close: () => context.close() };
}

const row = (page: Page) => page.getByRole('list', { name: 'Products and their stock' }).getByRole('listitem');

test('the owner counts a product down to none, restocks it, and the storefront and history follow', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);

  // Without JavaScript: the adjust form is a plain form.
  const noJs = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noJs.newPage();
  await logIn(plain, INVENTORY);
  await expect(plain.getByRole('heading', { level: 1, name: 'Inventory' })).toBeVisible();
  await expect(row(plain)).toHaveCount(1);
  const item = row(plain).first();
  await expect(item).toContainText(PRODUCT);
  const historyHref = await item.getByRole('link', { name: `Stock history of ${PRODUCT}` }).getAttribute('href');
  const productId = decodeURIComponent(String(historyHref).split('/').pop() ?? '');
  expect(productId).not.toBe('');
  const details = await apiJson<{ data: { slug: string; inStock: boolean } }>(
    null,
    'power',
    `/skulocity/api/v1/public/ecommerce/getproductdetails?productId=${encodeURIComponent(productId)}`,
  );
  expect(details.data.inStock).toBe(true);
  const productPath = `/${details.data.slug}/${encodeURIComponent(productId)}`;
  const before = Number(await item.locator('[data-stock]').getAttribute('data-stock'));
  expect(before).toBeGreaterThan(0);

  // A typo is refused next to the field, with what was typed kept.
  await item.getByLabel('Reason').selectOption({ label: 'Correction' });
  await item.getByLabel('How').selectOption({ label: 'Set count to' });
  await item.getByLabel('Quantity').fill('-3');
  await item.getByLabel('Note').fill('Shelf count, E2E');
  await item.getByRole('button', { name: 'Adjust' }).click();
  await expect(plain.getByTestId(`adjust-error-${productId}`)).toContainText('Enter the count');
  await expect(row(plain).first().getByLabel('Note')).toHaveValue('Shelf count, E2E');
  await expect(row(plain).first().getByLabel('How')).toHaveValue('set');

  // Counted: none left.
  await row(plain).first().getByLabel('Quantity').fill('0');
  await row(plain).first().getByRole('button', { name: 'Adjust' }).click();
  await expect(row(plain).first()).toContainText('Out of stock');
  await noJs.close();

  const shopper = await shopperPage(browser, productPath);
  await expect(shopper.page.getByTestId('add-to-cart')).toHaveText('Sold out');
  await expect(shopper.page.getByTestId('add-to-cart')).toBeDisabled();

  // With JavaScript: the owner finds it under "Out of stock" and restocks it.
  await logIn(page, `/manage-store/inventory?stock=out&q=${encodeURIComponent(PRODUCT)}`);
  await expect(row(page)).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'Inventory', exact: true })).toHaveAttribute('aria-current', 'page');
  await screenshots(page, 'out');
  await expectNoSeriousA11yIssue(page);
  const out = row(page).first();
  await out.getByLabel('Reason').selectOption({ label: 'Received' });
  await out.getByLabel('Quantity').fill(String(before));
  await out.getByLabel('Note').fill('Delivery, E2E');
  await out.getByRole('button', { name: 'Adjust' }).click();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: `Stock is now ${before}.` })
      .first(),
  ).toBeVisible();

  // The storefront shows it in stock again, at once.
  await shopper.page.reload();
  await expect(shopper.page.getByRole('button', { name: 'Add to cart' })).toBeEnabled();
  await shopper.close();

  // The history: both adjustments, newest first, with who, before and after.
  await page.goto(`${power}${historyHref}`);
  await expect(page.getByRole('heading', { level: 1, name: PRODUCT })).toBeVisible();
  await expect(page.getByTestId('stock-now')).toHaveText(String(before));
  const lines = page.getByRole('table', { name: 'Stock history, newest first' }).getByRole('row');
  await expect(lines.nth(1)).toContainText('Received');
  await expect(lines.nth(1)).toContainText(`+${before}`);
  await expect(lines.nth(1)).toContainText(`0 → ${before}`);
  await expect(lines.nth(1)).toContainText('Delivery, E2E');
  await expect(lines.nth(2)).toContainText('Correction');
  await expect(lines.nth(2)).toContainText(`${before} → 0`);
  await expect(lines.nth(2)).toContainText('Shelf count, E2E');
  await screenshots(page, 'history');
  await expectNoSeriousA11yIssue(page);

  // The whole list, for a look at a full page.
  await page.goto(`${power}/manage-store/inventory`);
  await expect(row(page).first()).toBeVisible();
  await screenshots(page, 'list');
});
