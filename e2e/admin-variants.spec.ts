import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yIssue, hydrated, STORES, signIn, snap } from './helpers';

/**
 * Products with variants, the owner's side (decision 112, part B's first slice): the owner gives a
 * product two options and six variants through the variant API (the editor's grid is still to
 * come), then finds it in the product list by one variant's SKU and sees its price range, total
 * stock and variant count; at 1280 and 375 pixels, axe clean.
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
