import { expect, type Page, test } from '@playwright/test';
import { STORES, snap } from './helpers';
import { connectPayPal } from './paypal-connect';
import { PAYPAL_PORT } from './playwright.config';

/**
 * PayPal without JavaScript. The checkout form's PayPal choice is a plain form
 * post: the server creates the PayPal order (in the store's connected PayPal account) and answers
 * 303 to PayPal's approval page, which sends the shopper back to the store, which captures.
 */
test.use({ javaScriptEnabled: false });
// One after the other: both connect the store first, which must not happen twice at once.
test.describe.configure({ mode: 'serial' });

const base = STORES.lighting.url;
const standIn = `http://127.0.0.1:${PAYPAL_PORT}`;

async function ownerConnects(page: Page) {
  await page.goto(`${base}/auth/login?redirectUrl=${encodeURIComponent('/manage-store/payments')}`);
  await page.getByLabel('Email').fill('owner@lighting.test');
  await page.getByLabel('Password').fill('owner-demo-1');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(`${base}/manage-store/payments`);
  await connectPayPal(page, base);
}

test('a guest pays with PayPal without JavaScript: a plain form post to PayPal and back to a paid order', async ({
  page,
  browser,
}) => {
  test.setTimeout(45_000);
  // The owner connects the store in a browser of their own (with JavaScript, as most owners).
  const ownerContext = await browser.newContext({ javaScriptEnabled: true });
  await ownerConnects(await ownerContext.newPage());
  await ownerContext.close();

  await page.goto(`${base}/product/search/lamp?inStock=true`);
  await page.getByTestId('product-card').first().getByRole('link').first().click();
  await page.getByTestId('add-to-cart').click();
  await expect(page).toHaveURL(`${base}/cart`);
  await page.getByRole('link', { name: 'Check out' }).click();
  await expect(page).toHaveURL(`${base}/checkout`);
  const form = page.getByTestId('checkout-form');
  await form.getByLabel('Email').fill('no-script-paypal@example.com');
  await form.getByLabel('Full name').fill('Grace Hopper');
  await form.getByLabel('Street address').fill('1 Market Street');
  await form.getByLabel('City').fill('San Francisco');
  await form.getByLabel('Postal code').fill('94105');
  await form.getByLabel('State or region').selectOption('US_CA');
  // Card fields until PayPal is chosen; then PayPal's note and the button that says where it goes.
  await expect(form.getByLabel('Card number')).toBeVisible();
  await page.getByRole('radio', { name: 'PayPal' }).check();
  await expect(form.getByLabel('Card number')).toBeHidden();
  await expect(page.getByText('You will approve the payment on PayPal')).toBeVisible();
  await snap(page, 'checkout-paypal-no-js');

  // The post answers 303 to PayPal's approval page (the page's CSP form-action lets the post go
  // there); the stand-in approves and sends the shopper back, and the store captures.
  const atPayPal = page.waitForRequest((r) => r.url().startsWith(`${standIn}/checkoutnow`));
  await page.getByRole('button', { name: 'Continue to PayPal' }).click();
  const post = (await atPayPal).redirectedFrom();
  expect(post?.method()).toBe('POST');
  expect((await post?.response())?.status()).toBe(303);
  await expect(page).toHaveURL(new RegExp(`^${base}/order\\?orderId=LIG-`));
  await expect(page.getByText('Thank you! Your order has been placed.')).toBeVisible();
  await expect(page.getByTestId('order-status')).toHaveText('Paid');
  await expect(page.getByText('PayPal').first()).toBeVisible();
  await snap(page, 'paypal-no-js-order');
});

test('a signed-in shopper pays with PayPal without JavaScript and the address they asked to save is in their account', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const ownerContext = await browser.newContext({ javaScriptEnabled: true });
  await ownerConnects(await ownerContext.newPage());
  await ownerContext.close();

  // The owner's account shops too (the demo shopper's addresses belong to other tests).
  await page.goto(`${base}/auth/login`);
  await page.getByLabel('Email').fill('owner@lighting.test');
  await page.getByLabel('Password').fill('owner-demo-1');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Olivia' })).toBeVisible();
  await page.goto(`${base}/product/search/lamp?inStock=true`);
  await page.getByTestId('product-card').first().getByRole('link').first().click();
  await page.getByTestId('add-to-cart').click();
  await expect(page).toHaveURL(`${base}/cart`);
  await page.goto(`${base}/checkout`);
  const newAddress = page.getByRole('radio', { name: 'A new address' });
  if (await newAddress.count()) await newAddress.check();
  const street = `${Date.now() % 100_000} PayPal Avenue`;
  const form = page.getByTestId('checkout-form');
  await form.getByLabel('Full name').fill('Olivia Owner');
  await form.getByLabel('Street address').fill(street);
  await form.getByLabel('City').fill('San Francisco');
  await form.getByLabel('Postal code').fill('94105');
  await form.getByLabel('State or region').selectOption('US_CA');
  await expect(form.getByLabel('Save this address to my account')).toBeChecked();
  await page.getByRole('radio', { name: 'PayPal' }).check();
  await page.getByRole('button', { name: 'Continue to PayPal' }).click();
  await expect(page).toHaveURL(new RegExp(`^${base}/order\\?orderId=LIG-`));
  await expect(page.getByTestId('order-status')).toHaveText('Paid');

  await page.goto(`${base}/account/addresses`);
  await expect(page.getByTestId('address-list')).toContainText(street);
  await snap(page, 'paypal-saved-address');
});
