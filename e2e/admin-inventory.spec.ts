import { type Browser, expect, type Page, test } from '@playwright/test';
import { apiJson, expectNoSeriousA11yIssue, hydrated, ownerApi, STORES, signIn, snap } from './helpers';

/**
 * The owner's inventory: counts are typed inline, a number per row and one Save for the page. A
 * product is counted down to none without JavaScript (one plain form) and shows sold out on the
 * storefront; the owner restocks it with JavaScript and "Add to cart" comes back; the stock history
 * shows both adjustments. Runs on the power store, on one product no other spec touches
 * (the Gutter Cleaning Kit), and leaves it with the stock it had.
 */

const power = STORES.power.url;
const owner = { base: power, email: 'owner@power.test' };
const PRODUCT = 'Gutter Cleaning Kit';
const INVENTORY = `/manage-store/inventory?q=${encodeURIComponent(PRODUCT)}`;

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

const rows = (page: Page) => page.getByRole('table', { name: 'Products and their stock' }).getByRole('row');
const row = (page: Page) => rows(page).filter({ hasText: PRODUCT });
const onHand = (page: Page) => row(page).getByRole('textbox', { name: `On hand: ${PRODUCT}` });

test('the owner counts a product down to none, restocks it, and the storefront and history follow', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);

  // Without JavaScript: the page is one plain form, a count per row and one Save.
  const noJs = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noJs.newPage();
  await signIn(plain, owner, INVENTORY);
  await expect(plain.getByRole('heading', { level: 1, name: 'Inventory' })).toBeVisible();
  await expect(rows(plain)).toHaveCount(2); // the header and the product
  const item = row(plain);
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
  const before = Number(await item.locator('[data-stock]:visible').getAttribute('data-stock'));
  expect(before).toBeGreaterThan(0);
  await expect(onHand(plain)).toHaveValue(String(before));
  // No adjust form per row any more: one form, one Save for the page.
  await expect(plain.getByRole('button', { name: 'Adjust' })).toHaveCount(0);

  // A typo is refused next to its row, with what was typed kept.
  await plain.getByRole('combobox', { name: 'Reason' }).selectOption({ label: 'Correction' });
  await plain.getByRole('textbox', { name: 'Note' }).fill('Shelf count, E2E');
  await onHand(plain).fill('-3');
  await plain.getByRole('button', { name: 'Save counts' }).click();
  await expect(plain.getByTestId(`error-count.${productId}`)).toContainText('Enter the count');
  await expect(onHand(plain)).toHaveValue('-3');
  await expect(plain.getByRole('textbox', { name: 'Note' })).toHaveValue('Shelf count, E2E');
  await expect(plain.getByRole('combobox', { name: 'Reason' })).toHaveValue('CORRECTION');

  // Counted: none left. Enter in the row's box saves the page's form.
  await onHand(plain).fill('0');
  await onHand(plain).press('Enter');
  await expect(row(plain)).toContainText('Out of stock');
  await expect(onHand(plain)).toHaveValue('0');
  await noJs.close();

  const shopper = await shopperPage(browser, productPath);
  await expect(shopper.page.getByTestId('add-to-cart')).toHaveText('Sold out');
  await expect(shopper.page.getByTestId('add-to-cart')).toBeDisabled();

  // With JavaScript: the owner finds it under "Out of stock" and restocks it.
  await signIn(page, owner, `/manage-store/inventory?stock=out&q=${encodeURIComponent(PRODUCT)}`);
  await expect(row(page)).toHaveCount(1);
  await hydrated(page);
  await expect(page.getByRole('link', { name: 'Inventory', exact: true })).toHaveAttribute('aria-current', 'page');
  await screenshots(page, 'out');
  await expectNoSeriousA11yIssue(page);
  await page.getByRole('combobox', { name: 'Reason' }).selectOption({ label: 'Received' });
  await page.getByRole('textbox', { name: 'Note' }).fill('Delivery, E2E');
  await onHand(page).fill(String(before));
  await page.getByRole('button', { name: 'Save counts' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Stock saved for 1 product.' }).first()).toBeVisible();
  // Restocked, it leaves the "Out of stock" list it was found in.
  await expect(row(page)).toHaveCount(0);

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
  await expect(rows(page).nth(1)).toBeVisible();
  await screenshots(page, 'list');
});

test('the owner counts one variant of a pendant and sees that variant’s history; the others do not move', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const run = `Iv${Date.now().toString(36)}`;
  const name = `${run} Pendant`;
  const API = '/skulocity/api/v1/catalog/products';
  await signIn(page, owner, '/manage-store/inventory');
  // Finish: Brass (the product's first variant, 6), Black (3), Opal (2), through the variant API.
  const { productId } = await ownerApi<{ productId: string }>(page, 'POST', API, {
    fields: { productName: name, sku: `${run}-BR`, listPrice: 12900, status: 'ACTIVE' },
    initialStock: 6,
  });
  await ownerApi(page, 'PUT', `${API}/${productId}/options`, {
    options: [{ name: 'Finish', values: [{ label: 'Brass' }, { label: 'Black' }, { label: 'Opal' }] }],
  });
  await ownerApi(page, 'POST', `${API}/${productId}/variants`, {
    values: ['Black'],
    sku: `${run}-BK`,
    listPrice: 12900,
    stock: 3,
  });
  await ownerApi(page, 'POST', `${API}/${productId}/variants`, {
    values: ['Opal'],
    sku: `${run}-OP`,
    listPrice: 13900,
    stock: 2,
  });

  // The list: a row per variant, found by the product's name.
  await page.goto(`${power}/manage-store/inventory?q=${encodeURIComponent(run)}`);
  await hydrated(page);
  const variantRows = rows(page).filter({ hasText: name });
  await expect(variantRows).toHaveCount(3);
  await expect(variantRows.first()).toContainText(`${name} · Opal`);
  await expect(variantRows.first()).toContainText(`SKU ${run}-OP`, { ignoreCase: true });
  await expect(variantRows.first()).toContainText('2 left · low');
  // A variant's SKU finds that variant alone.
  await page.getByRole('searchbox', { name: 'Search by name or SKU' }).fill(`${run}-bk`);
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(variantRows).toHaveCount(1);
  await expect(variantRows).toContainText(`${name} · Black`);
  await page.goto(`${power}/manage-store/inventory?q=${encodeURIComponent(run)}`);
  await hydrated(page);

  // Opal: 2 on the shelf, 10 after a delivery; only its box changes.
  await page.getByRole('combobox', { name: 'Reason' }).selectOption({ label: 'Received' });
  await page.getByRole('textbox', { name: 'Note' }).fill('Opal delivery, E2E');
  await page.getByRole('textbox', { name: `On hand: ${name} · Opal` }).fill('10');
  await page.getByRole('button', { name: 'Save counts' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Stock saved for 1 product.' }).first()).toBeVisible();
  await expect(page.getByRole('textbox', { name: `On hand: ${name} · Opal` })).toHaveValue('10');
  await expect(page.getByRole('textbox', { name: `On hand: ${name} · Black` })).toHaveValue('3');
  await expect(page.getByRole('textbox', { name: `On hand: ${name} · Brass` })).toHaveValue('6');
  await screenshots(page, 'variants');
  await expectNoSeriousA11yIssue(page);

  // Opal's history: its count and its own movements only, newest first.
  await page.getByRole('link', { name: `Stock history of ${name} · Opal` }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByTestId('stock-now')).toHaveText('10');
  const lines = page.getByRole('table', { name: 'Stock history, newest first' }).getByRole('row');
  await expect(lines).toHaveCount(3); // the header, the delivery, the first count
  await expect(lines.nth(1)).toContainText('Received');
  await expect(lines.nth(1)).toContainText('2 → 10');
  await expect(lines.nth(1)).toContainText('Opal delivery, E2E');
  await expect(lines.nth(2)).toContainText('0 → 2');

  // Adjusted from its own page: two damaged.
  await hydrated(page);
  await page.getByRole('combobox', { name: 'Reason' }).selectOption({ label: 'Damaged' });
  await page.getByRole('textbox', { name: 'Quantity' }).fill('-2');
  await page.getByRole('button', { name: 'Adjust' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Stock of Opal is now 8.' }).first()).toBeVisible();
  await expect(page.getByTestId('stock-now')).toHaveText('8');
  await expect(lines).toHaveCount(4);
  await expect(lines.nth(1)).toContainText('10 → 8');
  const variants = page.getByRole('table', { name: 'Variants and their stock' });
  await expect(variants.getByRole('row').filter({ hasText: 'Brass' })).toContainText('6 in stock');
  await expect(variants.getByRole('row').filter({ hasText: 'Black' })).toContainText('3 left · low');
  await screenshots(page, 'variant-history');
  await expectNoSeriousA11yIssue(page);

  // The whole product: every variant's movements, each named.
  await page.getByRole('link', { name: 'All variants' }).click();
  await expect(page.getByTestId('stock-now')).toHaveText('17');
  const all = page.getByRole('table', { name: 'Stock history, newest first' }).getByRole('row');
  await expect(all.nth(1)).toContainText('Opal');
  await expect(all.filter({ hasText: 'Black' })).toHaveCount(1);
});
