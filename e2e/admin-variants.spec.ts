import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { expectNoSeriousA11yIssue, hydrated, STORES, signIn, snap } from './helpers';

/**
 * Products with variants, the owner's side (decision 112, part B): the owner adds a product with two
 * options and six variants through the editor (Set all, the keyboard through the grid, a picture per
 * variant, one disabled), sees the range and total in the product list, and a SKU another product
 * holds is refused on its cell with nothing saved; a 100-variant grid opens and saves. An API-made
 * product is found in the list by a variant's SKU. At 1280 and 375 pixels, axe clean.
 */
const power = STORES.power.url;
const owner = { base: power, email: 'owner@power.test' };
const run = `Zv${Date.now().toString(36)}`;

/** As an API client, from the page (the browser resolves *.localhost): the owner's session as a bearer token. */
async function buildProductWithVariants(page: Page) {
  const token = (await page.context().cookies()).find((c) => c.name === 'sid')?.value;
  expect(token, 'the owner is signed in').toBeTruthy();
  const res = await page.evaluate(
    async ({ token, run }) => {
      const base = '/skulocity/api/v1/catalog/products';
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
      const send = async (method: string, url: string, body: unknown) => {
        const r = await fetch(url, { method, headers, body: JSON.stringify(body) });
        return { status: r.status, body: await r.text() };
      };
      const created = await send('POST', base, {
        fields: { productName: `${run} Impact Driver`, sku: `${run}-ID`, listPrice: 9900, status: 'ACTIVE' },
        initialStock: 1,
      });
      if (created.status !== 201) return created;
      const productId = JSON.parse(created.body).data.productId as string;
      const options = await send('PUT', `${base}/${productId}/options`, {
        options: [
          { name: 'Battery', values: [{ label: '2 Ah' }, { label: '5 Ah' }] },
          { name: 'Colour', values: [{ label: 'Red' }, { label: 'Blue' }, { label: 'Black' }] },
        ],
      });
      if (options.status !== 200) return options;
      const combos = [
        ['2 Ah', 'Blue'],
        ['2 Ah', 'Black'],
        ['5 Ah', 'Red'],
        ['5 Ah', 'Blue'],
        ['5 Ah', 'Black'],
      ];
      for (const [i, values] of combos.entries()) {
        const added = await send('POST', `${base}/${productId}/variants`, {
          values,
          sku: `${run}-V${i}`,
          listPrice: values[0] === '5 Ah' ? 14900 : 9900,
          stock: 2,
        });
        if (added.status !== 201) return added;
      }
      return { status: 200, body: '' };
    },
    { token, run },
  );
  expect(res.status, res.body).toBe(200);
}

test('the owner gives a product six variants and finds it in the list by a variant SKU, with its range and total', async ({
  page,
}) => {
  await signIn(page, owner, '/manage-store/products');
  await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
  await buildProductWithVariants(page);
  await hydrated(page);

  const search = page.getByRole('searchbox', { name: 'Search products' });
  await search.fill(`${run}-v3`);
  await search.press('Enter');
  const row = page.getByRole('row').filter({ hasText: `${run} Impact Driver` });
  await expect(row).toHaveCount(1);
  // 2 Ah at $99.00 to 5 Ah at $149.00; 1 + 5 × 2 in stock across six variants.
  await expect(row.getByRole('cell', { name: '$99.00 – $149.00' })).toBeVisible();
  await expect(row.getByRole('cell', { name: /^11\s*6 variants$/ })).toBeVisible();
  await snap(page, 'admin-variants-list-1280');
  await expectNoSeriousA11yIssue(page);

  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByText(`${run} Impact Driver`).first()).toBeVisible();
  await snap(page, 'admin-variants-list-375');
  await expectNoSeriousA11yIssue(page);
});

/** An API client's write from the page (the owner's session as a bearer token). */
async function api(page: Page, method: string, url: string, body: unknown) {
  const token = (await page.context().cookies()).find((c) => c.name === 'sid')?.value;
  return page.evaluate(
    async ({ token, method, url, body }) => {
      const r = await fetch(url, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      return { status: r.status, body: await r.text() };
    },
    { token, method, url, body },
  );
}

const picture = (background: string) =>
  sharp({ create: { width: 320, height: 240, channels: 3, background } })
    .png()
    .toBuffer();

test('the owner adds a product with two options and six variants in the editor, with the keyboard', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const name = `${run} Hammer Drill`;
  // Another product's SKU, for the clash at the end.
  await signIn(page, owner, '/manage-store/products/new');
  const taken = await api(page, 'POST', '/skulocity/api/v1/catalog/products', {
    fields: { productName: `${run} Other`, sku: `${run}-TAKEN`, listPrice: 500, status: 'DRAFT' },
  });
  expect(taken.status, taken.body).toBe(201);
  await hydrated(page);

  await page.getByLabel('Title', { exact: true }).fill(name);
  await page.getByRole('combobox', { name: 'Status', exact: true }).selectOption('ACTIVE');
  await page.getByLabel('Add pictures', { exact: true }).setInputFiles([
    { name: 'red.png', mimeType: 'image/png', buffer: await picture('#b91c1c') },
    { name: 'blue.png', mimeType: 'image/png', buffer: await picture('#1d4ed8') },
  ]);
  const options = page.getByRole('region', { name: 'Options', exact: true });
  await options.getByRole('button', { name: 'Add options like size or colour' }).click();
  await expect(page.getByTestId('first-option-note')).toContainText('each variant has its own SKU, price');
  await options.getByLabel('Option 1 name').fill('Battery');
  await options.getByRole('textbox', { name: 'Battery value 1', exact: true }).fill('2 Ah');
  await options.getByRole('textbox', { name: 'New value of Battery', exact: true }).fill('5 Ah');
  await options.getByRole('textbox', { name: 'New value of Battery', exact: true }).press('Enter');
  await options.getByRole('button', { name: 'Add another option' }).click();
  await options.getByLabel('Option 2 name').fill('Colour');
  await options.getByRole('textbox', { name: 'Colour value 1', exact: true }).fill('Red');
  for (const colour of ['Blue', 'Black']) {
    await options.getByRole('textbox', { name: 'New value of Colour', exact: true }).fill(colour);
    await options.getByRole('button', { name: 'Add value' }).nth(1).click();
  }
  // The product's own price and SKU now read "set per variant".
  await expect(page.getByTestId('per-variant-fields')).toContainText('Set per variant');
  await expect(page.getByLabel('Price', { exact: true })).toHaveCount(0);

  const grid = page.getByRole('region', { name: 'Variants', exact: true });
  await expect(grid.getByRole('row')).toHaveCount(7);
  await grid.getByLabel('Price for all (USD)').fill('99.00');
  await grid.getByRole('button', { name: 'Set all prices' }).click();
  await grid.getByLabel('Stock for all').fill('3');
  await grid.getByRole('button', { name: 'Set all stock' }).click();
  await expect(grid.getByRole('textbox', { name: 'Price of 5 Ah / Black', exact: true })).toHaveValue('99.00');

  // The keyboard only: SKUs down their column with Enter, the 5 Ah prices with the arrow key, and Tab
  // along a row (price, sale price, SKU, stock).
  const titles = ['2 Ah / Red', '2 Ah / Blue', '2 Ah / Black', '5 Ah / Red', '5 Ah / Blue', '5 Ah / Black'];
  await grid.getByRole('textbox', { name: `SKU of ${titles[0]}` }).focus();
  for (const [i] of titles.entries()) {
    await page.keyboard.type(`${run}-E${i}`);
    await page.keyboard.press('Enter');
  }
  await grid.getByRole('textbox', { name: 'Price of 5 Ah / Red', exact: true }).focus();
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('149.00');
    await page.keyboard.press('ArrowDown');
  }
  await grid.getByRole('textbox', { name: 'Price of 2 Ah / Red', exact: true }).focus();
  await page.keyboard.press('Tab');
  await expect(grid.getByRole('textbox', { name: 'Sale price of 2 Ah / Red', exact: true })).toBeFocused();
  await page.keyboard.type('89.00');
  await page.keyboard.press('Tab');
  await expect(grid.getByRole('textbox', { name: 'SKU of 2 Ah / Red', exact: true })).toBeFocused();
  await grid.getByRole('checkbox', { name: 'Sell 2 Ah / Black', exact: true }).focus();
  await page.keyboard.press('Space');
  await expect(grid.getByRole('checkbox', { name: 'Sell 2 Ah / Black', exact: true })).not.toBeChecked();
  await expect(grid.getByRole('textbox', { name: 'SKU of 5 Ah / Black', exact: true })).toHaveValue(`${run}-E5`);
  await expect(grid.getByRole('textbox', { name: 'Price of 5 Ah / Black', exact: true })).toHaveValue('149.00');

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(/\/manage-store\/products\/P[0-9A-F]+\?created=1$/, { timeout: 30_000 });
  await expect(page.getByRole('status').filter({ hasText: 'Product created.' })).toBeVisible();
  await hydrated(page);

  // A picture per variant, from the product's pictures.
  const saved = page.getByRole('region', { name: 'Variants', exact: true });
  await expect(saved.getByRole('row')).toHaveCount(7);
  await saved
    .getByRole('combobox', { name: 'Picture of 5 Ah / Blue', exact: true })
    .selectOption({ label: 'Picture 2' });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Product saved.' })).toBeVisible();
  await expect(page.getByTestId('per-variant-fields')).toContainText('$89.00 – $149.00');
  await expect(page.getByTestId('per-variant-fields')).toContainText('18 across the variants');
  await expect(saved.getByRole('combobox', { name: 'Picture of 5 Ah / Blue', exact: true })).toHaveValue(
    /^[0-9a-f]{32}$/,
  );
  await expect(saved.getByRole('checkbox', { name: 'Sell 2 Ah / Black', exact: true })).not.toBeChecked();
  await page.waitForFunction(() =>
    [...document.images].filter((i) => i.loading !== 'lazy').every((i) => i.complete && i.naturalWidth > 0),
  );
  await saved.scrollIntoViewIfNeeded();
  await snap(page, 'admin-variants-grid-1280');
  await expectNoSeriousA11yIssue(page);
  await page.setViewportSize({ width: 375, height: 800 });
  // The grid scrolls inside its card; the page does not scroll sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await saved.scrollIntoViewIfNeeded();
  await snap(page, 'admin-variants-grid-375');
  await expectNoSeriousA11yIssue(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  const editorUrl = page.url().replace(/\?.*$/, '');

  // The product list: the range of the enabled variants and the total stock of the six.
  await page.goto(`${power}/manage-store/products`);
  await hydrated(page);
  const search = page.getByRole('searchbox', { name: 'Search products' });
  await search.fill(`${run}-E4`);
  await search.press('Enter');
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell', { name: '$89.00 – $149.00' })).toBeVisible();
  await expect(row.getByRole('cell', { name: /^18\s*6 variants$/ })).toBeVisible();

  // A SKU another product holds: refused on its cell, and nothing of the save is written.
  await page.goto(editorUrl);
  await hydrated(page);
  const again = page.getByRole('region', { name: 'Variants', exact: true });
  await again.getByRole('textbox', { name: 'Price of 2 Ah / Red', exact: true }).fill('95.00');
  await again.getByRole('textbox', { name: 'SKU of 2 Ah / Blue', exact: true }).fill(`${run}-TAKEN`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('error-variants-1-sku')).toContainText(
    `SKU ${run}-TAKEN is already used by ${run} Other`,
  );
  await expect(again.getByRole('textbox', { name: 'SKU of 2 Ah / Blue', exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expect(page.getByTestId('error-variants')).toContainText('row 2');
  await page.reload();
  await hydrated(page);
  await expect(again.getByRole('textbox', { name: 'SKU of 2 Ah / Blue', exact: true })).toHaveValue(`${run}-E1`);
  await expect(again.getByRole('textbox', { name: 'Price of 2 Ah / Red', exact: true })).toHaveValue('99.00');
});

test('a product with 100 variants: its grid opens, and a Set all saves', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, owner, '/manage-store/products');
  const base = '/skulocity/api/v1/catalog/products';
  const created = await api(page, 'POST', base, {
    fields: { productName: `${run} Bolt Assortment`, sku: `${run}-B`, listPrice: 500, status: 'DRAFT' },
  });
  expect(created.status, created.body).toBe(201);
  const productId = JSON.parse(created.body).data.productId as string;
  const tens = Array.from({ length: 10 }, (_, i) => ({ label: `${i + 1}` }));
  const opts = await api(page, 'PUT', `${base}/${productId}/options`, {
    options: [
      { name: 'Length', values: tens.map((v) => ({ label: `${v.label}0 mm` })) },
      { name: 'Head', values: tens.map((v) => ({ label: `H${v.label}` })) },
    ],
  });
  expect(opts.status, opts.body).toBe(200);
  const token = (await page.context().cookies()).find((c) => c.name === 'sid')?.value;
  const made = await page.evaluate(
    async ({ base, productId, run, token }) => {
      for (let l = 1; l <= 10; l++) {
        for (let h = 1; h <= 10; h++) {
          if (l === 1 && h === 1) continue; // the product's own variant is 10 mm / H1
          const r = await fetch(`${base}/${productId}/variants`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({ values: [`${l}0 mm`, `H${h}`], sku: `${run}-B${l}-${h}`, listPrice: 500 }),
          });
          if (r.status !== 201) return `${r.status} ${await r.text()}`;
        }
      }
      return 'ok';
    },
    { base, productId, run, token },
  );
  expect(made).toBe('ok');

  await page.goto(`${power}/manage-store/products/${productId}`);
  await hydrated(page);
  const grid = page.getByRole('region', { name: 'Variants', exact: true });
  await expect(grid.getByRole('row')).toHaveCount(101);
  await grid.getByLabel('Price for all (USD)').fill('6.50');
  await grid.getByRole('button', { name: 'Set all prices' }).click();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Product saved.' })).toBeVisible({ timeout: 60_000 });
  await page.reload();
  await expect(grid.getByRole('textbox', { name: 'Price of 100 mm / H10', exact: true })).toHaveValue('6.50');
  await expect(page.getByTestId('per-variant-fields')).toContainText('$6.50');
});
