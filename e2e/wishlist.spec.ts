import { expect, type Page, test } from '@playwright/test';
import { apiJson, confirmFromMail, STORES, type StoreName, snap } from './helpers';

/**
 * The wishlist: a guest's heart goes through login (or sign-up) and comes back saved; the account
 * page moves it to the cart. Accounts no other browser test changes the wishlist or cart of: the
 * garden store's shopper, and a new account made here.
 */

const API = '/skulocity/api/v1/public/ecommerce';
type Summary = { productId: string; productName: string; slug: string; productType: string; lowStock: number | null };

/** A plain product with plenty in stock: one that can be moved to the cart as it is. */
async function plainProduct(store: StoreName, skip = 0) {
  const page = await apiJson<{ data: { products: Summary[] } }>(null, store, `${API}/product?inStock=true&pageSize=24`);
  const found = page.data.products.filter((p) => p.productType !== 'CONFIGURABLE' && p.lowStock === null)[skip];
  if (!found) throw new Error(`no plain product in stock on ${store}`);
  return { ...found, path: `/${found.slug}/${encodeURIComponent(found.productId)}` };
}

async function logIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

test("a guest's heart goes through login and back; the wishlist page moves the product to the cart", async ({
  page,
}) => {
  const base = STORES.garden.url;
  const product = await plainProduct('garden');
  await page.goto(`${base}${product.path}`);
  await expect(page.getByTestId('wishlist-count')).toHaveCount(0);
  await page.getByRole('link', { name: 'Add to wishlist', exact: true }).click();

  await expect(page).toHaveURL(
    `${base}/auth/login?redirectUrl=${encodeURIComponent(product.path)}&wishlist=${encodeURIComponent(product.productId)}`,
  );
  await expect(page.getByText('Log in and the product goes on your wishlist')).toBeVisible();
  await logIn(page, 'shopper@garden.test', 'shopper-demo-1');

  await expect(page).toHaveURL(`${base}${product.path}`);
  const heart = page.getByRole('button', { name: 'Remove from wishlist', exact: true });
  await expect(heart).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('wishlist-count')).toHaveText('1');
  await expect(page.getByTestId('wishlist-link')).toHaveAccessibleName('My Wishlist, 1 item');
  const cartBefore = Number(await page.getByTestId('cart-count').textContent());

  await page.getByTestId('wishlist-link').click();
  await expect(page).toHaveURL(`${base}/account/wishlist`);
  const items = page.getByTestId('wishlist-item');
  await expect(items).toHaveCount(1);
  await expect(items.first().getByRole('link', { name: product.productName })).toHaveAttribute('href', product.path);
  await expect(items.first().getByTestId('wishlist-stock')).toHaveText('In stock');
  await snap(page, 'wishlist-desktop');
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, 'wishlist-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  await items
    .first()
    .getByRole('button', { name: /^Move to cart/ })
    .click();
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText(
    `${product.productName} was moved to your cart.`,
  );
  await expect(page.getByText('Your wishlist is empty')).toBeVisible();
  await expect(page.getByTestId('cart-count')).toHaveText(String(cartBefore + 1));
  await expect(page.getByTestId('wishlist-count')).toHaveCount(0);
  await snap(page, 'wishlist-empty');

  await page.getByTestId('cart-link').click();
  await expect(page.getByTestId('cart-line').filter({ hasText: product.productName })).toHaveCount(1);
});

test('without JavaScript: a guest signs up through the heart, then the heart toggles by plain form posts', async ({
  browser,
}) => {
  const base = STORES.lighting.url;
  const product = await plainProduct('lighting', 1);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${base}${product.path}`);
  await page.getByRole('link', { name: 'Add to wishlist', exact: true }).click();
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/auth\/register\?redirectUrl=.+&wishlist=/);

  const email = `wish-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const password = 'hearts-and-lamps-42';
  await page.getByLabel('First name').fill('Wren');
  await page.getByLabel('Last name').fill('Wisher');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  // The welcome mail's link carries the page and the heart: confirming lands back with it on the wishlist.
  await confirmFromMail(page, email);

  await expect(page).toHaveURL(`${base}${product.path}`);
  await expect(page.getByRole('button', { name: 'Remove from wishlist', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByTestId('wishlist-count')).toHaveText('1');
  await page.getByRole('button', { name: 'Remove from wishlist', exact: true }).click();
  await expect(page).toHaveURL(`${base}${product.path}`);
  await expect(page.getByRole('button', { name: 'Add to wishlist', exact: true })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  await expect(page.getByTestId('wishlist-count')).toHaveCount(0);

  // A hand-made wishlist value is dropped and the login goes ahead as usual.
  await context.clearCookies();
  for (const odd of ['NOPE-1', '..%2F..%2Fx']) {
    await page.goto(`${base}/auth/login?redirectUrl=%2Ffaqs&wishlist=${odd}`);
    await logIn(page, email, password);
    await expect(page).toHaveURL(`${base}/faqs`);
    await expect(page.getByTestId('wishlist-count')).toHaveCount(0);
    await context.clearCookies();
  }
  await context.close();
});
