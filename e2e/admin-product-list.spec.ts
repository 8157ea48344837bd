import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { hydrated, STORES, signIn, snap } from './helpers';

/**
 * Decision 036: the owner's product list on power.localhost. The spec
 * creates its own products (names and SKUs unique to this run) and changes only those.
 */
const power = STORES.power.url;
const owner = { base: power, email: 'owner@power.test' };
const run = `Zq${Date.now().toString(36)}`;

/** Creates this run's products as the owner does, through the product editor's API. */
type Fixture = { productName: string; sku: string; listPrice: number; stock: number; brandName?: string };
const THREE: Fixture[] = [
  { productName: `${run} Anvil Drill`, sku: `${run}-A`, listPrice: 4999, stock: 12, brandName: 'Voltline' },
  { productName: `${run} Bevel Saw`, sku: `${run}-B`, listPrice: 8900, stock: 0 },
  { productName: `${run} Chisel, "Pro"`, sku: `${run}-C`, listPrice: 1250, stock: 3 },
];

async function createProducts(page: Page, products: Fixture[] = THREE) {
  // As an API client: the session's token as a bearer token (the API's way for scripts; no form token).
  const token = (await page.context().cookies()).find((c) => c.name === 'sid')?.value;
  expect(token, 'the owner is signed in').toBeTruthy();
  // From the page (the browser resolves *.localhost; the test process may not): the owner's session.
  const res = await page.evaluate(
    async ({ token, products }) => {
      for (const f of products) {
        const r = await fetch('/skulocity/api/v1/catalog/products', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({
            fields: {
              productName: f.productName,
              sku: f.sku,
              brandName: f.brandName ?? null,
              listPrice: f.listPrice,
              status: 'ACTIVE',
            },
            initialStock: f.stock,
          }),
        });
        if (r.status !== 201) return { status: r.status, body: await r.text() };
      }
      return { status: 201, body: '' };
    },
    { token, products },
  );
  expect(res.status, res.body).toBe(201);
}

test('the owner searches, filters, changes status and price of chosen products, and exports', async ({ page }) => {
  await signIn(page, owner, '/manage-store/products');
  await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add product' })).toHaveAttribute('href', '/manage-store/products/new');
  await createProducts(page);
  await hydrated(page);

  // Search (server-side, every status).
  const search = page.getByRole('searchbox', { name: 'Search products' });
  await search.fill(run);
  await page.getByRole('button', { name: 'Filter' }).click();
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(3);

  // Filter: out of stock.
  await page.getByLabel('Filter by stock').selectOption('out');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${run} Bevel Saw`);
  await expect(rows.first()).toContainText('Out');
  await page.getByLabel('Filter by stock').selectOption('');
  await page.getByLabel('Sort by').selectOption('name:asc');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText('Anvil Drill');

  // Choose two rows with the keyboard, set them as drafts.
  await page.getByRole('checkbox', { name: `Select ${run} Anvil Drill` }).focus();
  await page.keyboard.press('Space');
  await page.getByRole('checkbox', { name: `Select ${run} Bevel Saw` }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('selected-count')).toHaveText('2 selected');
  await page.getByLabel('Action').focus();
  await page.getByLabel('Action').selectOption('status:DRAFT');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('status').filter({ hasText: '2 updated.' })).toBeVisible();
  await expect(rows.nth(0)).toContainText('Draft');
  await expect(rows.nth(1)).toContainText('Draft');
  await expect(rows.nth(2)).toContainText('Active');

  // Price: 10 % off the chisel and the drill (12.50 -> 11.25, 49.99 -> 44.99: 4.999 rounds to 5.00).
  await page.getByRole('checkbox', { name: `Select ${run} Anvil Drill` }).check();
  await page.getByRole('checkbox', { name: new RegExp(`Select ${run} Chisel`) }).check();
  await page.getByLabel('Action').selectOption('price');
  await page.getByLabel('Price change').selectOption('percent');
  await page.getByLabel('Value').fill('-10');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('status').filter({ hasText: '2 updated.' })).toBeVisible();
  await expect(rows.nth(0)).toContainText('$44.99');
  await expect(rows.nth(2)).toContainText('$11.25');
  await expect(rows.nth(1)).toContainText('$89.00');

  // A bad value is named next to the form, and nothing changes.
  await page.getByRole('checkbox', { name: `Select ${run} Bevel Saw` }).check();
  await page.getByLabel('Action').selectOption('price');
  await page.getByLabel('Value').fill('abc');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'percent' })).toBeVisible();
  await expect(rows.nth(1)).toContainText('$89.00');

  await snap(page, 'admin-product-list-1280');

  // Export keeps the filters: this run's three products only, in the product CSV format.
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export', exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^products-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path()) as string, 'utf8');
  // One row per variant: the product's columns, then its options' and the variant's (SKU, prices, stock).
  const [header = ''] = csv.split('\r\n');
  expect(header.startsWith('\uFEFFproduct_id,slug,name,status,brand,currency')).toBe(true);
  expect(header).toContain(',option1_name,option1_value,');
  expect(header).toContain(',variant_id,sku,barcode,list_price,sale_price,stock,');
  const lines = csv.trim().split('\n');
  expect(lines.length).toBe(4);
  const anvil = lines.find((l) => l.includes(`,${run} Anvil Drill,`));
  expect(anvil, 'the Anvil Drill has its row').toBeTruthy();
  expect(anvil).toContain(`,${run}-A,`);
  expect(csv).toContain(`"${run} Chisel, ""Pro"""`);
  expect(csv).toContain(',44.99,');

  // Columns: hide SKU, remembered on the next visit.
  await page.getByText('Columns', { exact: true }).click();
  await page.getByRole('checkbox', { name: 'SKU' }).uncheck();
  await page.getByRole('button', { name: 'Save columns' }).click();
  await expect(page.getByRole('columnheader', { name: 'SKU' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('columnheader', { name: 'Price' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'SKU' })).toHaveCount(0);

  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, 'admin-product-list-375');
});

test('a search with no match says so and offers to clear the filters', async ({ page }) => {
  await signIn(page, owner, `/manage-store/products?q=${run}-nothing-here`);
  await expect(page.getByText('No products match')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Clear filters' })).toBeVisible();
  await snap(page, 'admin-product-list-empty');
});

test('a change of more than 200 products runs in the background with its progress on the page', async ({ page }) => {
  test.setTimeout(90_000);
  const many = `${run}Bulk`;
  await signIn(page, owner, '/manage-store/products');
  for (let batch = 0; batch < 5; batch++) {
    await createProducts(
      page,
      Array.from({ length: 42 }, (_, i) => ({
        productName: `${many} Bolt ${batch * 42 + i}`,
        sku: `${many}-${batch * 42 + i}`,
        listPrice: 100,
        stock: 1,
      })),
    );
  }
  await page.goto(`${power}/manage-store/products?q=${many}`);
  await hydrated(page);
  await page.getByLabel('Which products').selectOption('all');
  await page.getByLabel('Action').selectOption('status:ARCHIVED');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/[?&]job=/);
  const card = page.getByRole('region', { name: 'Bulk change' });
  await expect(card).toBeVisible();
  await expect(page.getByTestId('bulk-done')).toContainText('Done: 210 of 210 products changed', { timeout: 30_000 });
  await expect(page.locator('tbody tr').first()).toContainText('Archived');
  await snap(page, 'admin-product-list-job');
});

test('without JavaScript the bulk form still posts and the list shows the change', async ({ page, browser }) => {
  const name = `${run}Nojs`;
  await signIn(page, owner, '/manage-store/products');
  await createProducts(page, [{ productName: `${name} Clamp`, sku: `${name}-1`, listPrice: 700, stock: 4 }]);
  const cookies = await page.context().cookies();
  const context = await browser.newContext({ javaScriptEnabled: false });
  await context.addCookies(cookies);
  const plain = await context.newPage();
  await plain.goto(`${power}/manage-store/products?q=${name}`);
  await expect(plain.locator('tbody tr')).toHaveCount(1);
  await expect(plain.getByRole('cell', { name: '4', exact: true })).toBeVisible();
  await plain.getByRole('checkbox', { name: `Select ${name} Clamp` }).check();
  await plain.getByLabel('Action').selectOption('stock');
  await plain.getByLabel('Stock change').selectOption('delta');
  await plain.getByLabel('Reason').selectOption('RECEIVED');
  await plain.getByLabel('Value').fill('6');
  await plain.getByRole('button', { name: 'Apply' }).click();
  await expect(plain.getByRole('cell', { name: '10', exact: true })).toBeVisible();
  await expect(plain.getByRole('cell', { name: '4', exact: true })).toHaveCount(0);
  await context.close();
});
