import { expect, test } from '@playwright/test';
import { hydrated, ownerApi, STORES, signIn, snap } from './helpers';

/**
 * Asking for more than the store has. On the product page the shopper is told why, stays where they
 * were, and the cart is untouched; in the cart, a quantity the store refuses goes back to what the
 * cart holds instead of staying in the box beside a total that does not match it.
 * A product of its own on the power store, which no other spec touches. It has no picture, and the
 * looks spec checks that no seeded product shows the placeholder: so this spec runs with those that
 * change stores, after the others (playwright.config.ts, CHANGES_STORES).
 */

const power = STORES.power.url;

test('more than the stock is refused on the product page, and a refused cart quantity goes back to the cart’s', async ({
  page,
  browser,
}) => {
  const run = `Qty${Date.now().toString(36)}`;
  const name = `${run} Lantern`;
  await signIn(page, { base: power, email: 'owner@power.test' }, '/manage-store/inventory');
  const { productId } = await ownerApi<{ productId: string }>(page, 'POST', '/skulocity/api/v1/catalog/products', {
    fields: { productName: name, sku: `${run}-1`, listPrice: 4900, status: 'ACTIVE' },
    initialStock: 3,
  });

  const shopperContext = await browser.newContext();
  const shop = await shopperContext.newPage();
  // Any slug: the product page sends an old or mistyped one to the product's own address.
  await shop.goto(`${power}/p/${productId}`);
  await expect(shop.getByRole('heading', { level: 1, name })).toBeVisible();
  await hydrated(shop);
  const productUrl = shop.url();

  // Five of three: refused where the shopper asked, by name and count; nothing went into the cart.
  await shop.getByRole('spinbutton', { name: 'Quantity' }).fill('5');
  await shop.getByRole('button', { name: 'Add to cart' }).click();
  await expect(shop.getByRole('alert').filter({ hasText: 'left in stock' })).toHaveText(
    `Only 3 of ${name} are left in stock.`,
  );
  await expect(shop).toHaveURL(productUrl);
  await expect(shop.getByRole('spinbutton', { name: 'Quantity' })).toHaveValue('5');
  await snap(shop, 'cart-quantities-refused-on-product');

  // Two of three: taken, and the shopper is in the cart with them.
  await shop.getByRole('spinbutton', { name: 'Quantity' }).fill('2');
  await shop.getByRole('button', { name: 'Add to cart' }).click();
  await expect(shop).toHaveURL(`${power}/cart`);
  const box = shop.getByRole('spinbutton', { name: `Quantity of ${name}` });
  await expect(box).toHaveValue('2');
  await hydrated(shop);

  // Meanwhile the shop sells two elsewhere: one is left. The cart page still offers up to three.
  await ownerApi(page, 'POST', `/api/v1/inventory/products/${productId}/adjust`, {
    reason: 'CORRECTION',
    set: 1,
    note: 'Sold in the shop',
  });
  await box.fill('3');
  await shop.getByRole('listitem').filter({ hasText: name }).getByRole('button', { name: 'Update' }).click();
  await expect(shop.getByRole('alert').filter({ hasText: 'left in stock' })).toHaveText(
    `Only 1 of ${name} is left in stock.`,
  );
  // The box says what the cart holds, not the refused 3.
  await expect(box).toHaveValue('2');
  await snap(shop, 'cart-quantities-refused-in-cart');
  await shopperContext.close();
});
