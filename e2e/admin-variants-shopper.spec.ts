import { type Browser, expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yIssue, hydrated, ownerApi, STORES, signIn, snap } from './helpers';

/**
 * Products with variants, the whole way on the power store (decision 112, parts B, C and D): the
 * owner gives a drill two options through the variant API, a shopper picks one variant by its values
 * (with JavaScript, and without it through the "Show" button), a sold-out variant cannot be added,
 * the shopper buys, and only the bought variant's stock moves. Named `admin-*` because it adds a
 * product to a seeded store: it runs after the storefront specs, which count the seeded catalog.
 */
const power = STORES.power.url;
const run = `Vx${Date.now().toString(36)}`;
const name = `${run} Hammer Drill`;
const API = '/skulocity/api/v1/catalog/products';

type Variant = { variantId: string; title: string; stock: number };

/**
 * Battery 2 Ah or 5 Ah, colour Red or Black: four variants, 2 Ah / Black sold out. The product's
 * default variant becomes the first combination (2 Ah / Red) and keeps its stock.
 */
async function drillWithVariants(owner: Page): Promise<{ productId: string; variants: () => Promise<Variant[]> }> {
  const created = await ownerApi<{ productId: string }>(owner, 'POST', API, {
    fields: { productName: name, sku: `${run}-2R`, listPrice: 9900, status: 'ACTIVE' },
    initialStock: 3,
  });
  const productId = created.productId;
  await ownerApi(owner, 'PUT', `${API}/${productId}/options`, {
    options: [
      { name: 'Battery', values: [{ label: '2 Ah' }, { label: '5 Ah' }] },
      { name: 'Colour', values: [{ label: 'Red' }, { label: 'Black' }] },
    ],
  });
  const add = [
    { values: ['2 Ah', 'Black'], sku: `${run}-2B`, listPrice: 9900, stock: 0 },
    { values: ['5 Ah', 'Red'], sku: `${run}-5R`, listPrice: 14900, stock: 2 },
    { values: ['5 Ah', 'Black'], sku: `${run}-5B`, listPrice: 14900, stock: 2 },
  ];
  for (const v of add) await ownerApi(owner, 'POST', `${API}/${productId}/variants`, v);
  const variants = async () =>
    (await ownerApi<{ variants: Variant[] }>(owner, 'GET', `${API}/${productId}/variants`)).variants;
  return { productId, variants };
}

/** The product page, reached as a shopper reaches it: a search for its name, then its card. */
async function openFromSearch(page: Page) {
  await expect(async () => {
    await page.goto(`${power}/product/search/${encodeURIComponent(run)}`);
    await expect(page.getByTestId('product-card')).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByTestId('product-card')).toContainText('From');
  await page.getByTestId('product-card').getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

async function shopper(browser: Browser, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1280, height: 800 } });
  return context.newPage();
}

test('a shopper picks a variant by its values, with and without JavaScript, and buys it; only its stock moves', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await signIn(page, { base: power, email: 'owner@power.test' }, '/manage-store/products');
  const { variants } = await drillWithVariants(page);
  const stockOf = async (title: string) => (await variants()).find((v) => v.title === title)?.stock;
  const before = Object.fromEntries((await variants()).map((v) => [v.title, v.stock]));
  expect(before).toEqual({ '2 Ah / Red': 3, '2 Ah / Black': 0, '5 Ah / Red': 2, '5 Ah / Black': 2 });

  // With JavaScript: the choice updates price and address at once; a sold-out variant cannot be added.
  const buyer = await shopper(browser, true);
  await openFromSearch(buyer);
  await hydrated(buyer);
  const picker = buyer.getByTestId('variant-picker');
  await picker.getByRole('radio', { name: /^Black/ }).check();
  await expect(picker.getByRole('radio', { name: /^Black/ })).toBeChecked();
  await expect(buyer.getByTestId('add-to-cart')).toBeDisabled();
  await expect(buyer.getByTestId('stock-status')).toContainText('Sold out');
  await picker.getByRole('radio', { name: /^5 Ah/ }).check();
  await expect(buyer.getByTestId('price-current')).toContainText('$149.00');
  await expect(buyer).toHaveURL(/\?variant=/);
  await expect(buyer.getByTestId('add-to-cart')).toBeEnabled();
  await snap(buyer, 'variants-product-page-1280');
  await expectNoSeriousA11yIssue(buyer);
  await buyer.getByTestId('add-to-cart').click();
  await expect(buyer).toHaveURL(`${power}/cart`);
  const line = buyer.getByTestId('cart-line');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText('5 Ah / Black');
  await expect(line).toContainText('$149.00');

  // The guest checks out with the test card.
  await buyer.goto(`${power}/checkout`);
  const form = buyer.getByTestId('checkout-form');
  await form.getByLabel('Email').fill(`${run.toLowerCase()}@example.com`);
  await buyer.getByLabel('Full name').fill('Ada Lovelace');
  await buyer.getByLabel('Street address').fill('12 Analytical Row');
  await buyer.getByLabel('City').fill('Seattle');
  await buyer.getByLabel('Postal code').fill('98101');
  await buyer.getByLabel('State or region').selectOption('US_WA');
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Month').fill('12');
  await form.getByLabel('Year').fill('2099');
  await form.getByLabel('CVC').fill('123');
  await form.getByLabel('Name on card').fill('Ada Lovelace');
  await buyer.getByRole('button', { name: 'Place order' }).click();
  await expect(buyer.getByText('Thank you! Your order has been placed.')).toBeVisible({ timeout: 15_000 });
  await expect(buyer.getByTestId('order-status')).toHaveText('Paid');
  await expect(buyer.getByText('5 Ah / Black').first()).toBeVisible();

  // Only the bought variant's stock moved.
  await expect.poll(() => stockOf('5 Ah / Black')).toBe(1);
  expect(Object.fromEntries((await variants()).map((v) => [v.title, v.stock]))).toEqual({
    ...before,
    '5 Ah / Black': 1,
  });

  // Without JavaScript: the values go to the page with "Show", which answers with the variant's page.
  const plain = await shopper(browser, false);
  await openFromSearch(plain);
  const plainPicker = plain.getByTestId('variant-picker');
  await plainPicker.getByRole('radio', { name: /^5 Ah/ }).check();
  await plain.getByRole('button', { name: 'Show' }).click();
  await expect(plain).toHaveURL(/\?variant=/);
  await expect(plain.getByTestId('price-current')).toContainText('$149.00');
  await expect(plainPicker.getByRole('radio', { name: /^5 Ah/ })).toBeChecked();
  await expect(plainPicker.getByRole('radio', { name: /^Red/ })).toBeChecked();
  await snap(plain, 'variants-product-page-no-js');
  await plain.getByTestId('add-to-cart').click();
  await expect(plain).toHaveURL(`${power}/cart`);
  await expect(plain.getByTestId('cart-line')).toContainText('5 Ah / Red');
  await plain.context().close();
  await buyer.context().close();
});
