import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yIssue, STORES, signIn, snap } from './helpers';
import { PAYPAL_PORT } from './playwright.config';

/**
 * PayPal seller onboarding: the garden store's owner connects PayPal through the
 * stand-in's sign-up page and sees "Connected" (passing through pending and action needed on the
 * way, each state photographed); then a guest pays that store with PayPal.
 */

const garden = STORES.garden.url;
const storeOwner = { base: garden, email: 'owner@garden.test' };
const PAYMENTS = '/manage-store/payments';
const standIn = `http://127.0.0.1:${PAYPAL_PORT}`;

async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, `admin-paypal-${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, `admin-paypal-${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

const status = (page: Page) => page.getByTestId('paypal-status');

test('the owner connects PayPal through the sign-up page, then a guest pays the store with PayPal', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await signIn(page, storeOwner, PAYMENTS);
  await expect(page.getByRole('heading', { level: 1, name: 'Payments' })).toBeVisible();
  await expect(status(page)).toHaveText('Not connected');
  await expect(page.getByRole('link', { name: 'PayPal settings' })).toHaveAttribute('href', `${PAYMENTS}/settings`);
  await expectNoSeriousA11yIssue(page);
  await screenshots(page, 'not-connected');

  // Connect: PayPal's sign-up page (the stand-in's). Leaving it unfinished leaves the store pending.
  await page.getByRole('button', { name: 'Connect PayPal' }).click();
  await expect(page).toHaveURL(new RegExp(`^${standIn}/bizsignup/partner/entry\\?referralToken=`));
  const signUp = page.url();
  await page.goto(`${garden}${PAYMENTS}`);
  await expect(status(page)).toHaveText('Waiting for PayPal');
  await screenshots(page, 'pending');

  // A return PayPal does not know (a stale or made-up link): action needed, with the next step.
  await page.goto(`${garden}/api/paypal/seller/return?merchantIdInPayPal=ZZZZZZZZZZZZZ`);
  await expect(page).toHaveURL(`${garden}${PAYMENTS}?paypal=not_found`);
  await expect(status(page)).toHaveText('Action needed');
  await expect(page.getByRole('list', { name: 'Next steps' })).toContainText('PayPal does not know this sign-up yet');
  await expect(page.getByTestId('paypal-checkout')).toHaveText('Does not offer PayPal');
  await expectNoSeriousA11yIssue(page);
  await screenshots(page, 'action-needed');

  // Start again and agree at PayPal: back on Payments, connected.
  await page.getByRole('button', { name: 'Connect PayPal again' }).click();
  await expect(page).toHaveURL(new RegExp(`^${standIn}/bizsignup/partner/entry\\?referralToken=`));
  expect(page.url()).not.toBe(signUp);
  await expect(page.getByRole('heading', { name: 'Connect your PayPal account' })).toBeVisible();
  await snap(page, 'admin-paypal-signup-page');
  await page.getByRole('button', { name: 'Agree and connect' }).click();
  await expect(page).toHaveURL(`${garden}${PAYMENTS}?paypal=connected`);
  await expect(status(page)).toHaveText('Connected');
  await expect(page.getByRole('status').filter({ hasText: 'PayPal is connected' })).toBeVisible();
  await expect(page.getByTestId('paypal-merchant-id')).toHaveText(/^[A-Z0-9]{13}$/);
  await expect(page.getByTestId('paypal-checkout')).toHaveText('Offers PayPal');
  await screenshots(page, 'connected');

  // Disconnect sits behind a confirmation; keep the connection.
  await page.getByRole('link', { name: 'Disconnect' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Disconnect PayPal?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toBeFocused();
  await screenshots(page, 'disconnect-confirm');
  await dialog.getByRole('link', { name: 'Keep connected' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(status(page)).toHaveText('Connected');

  // A guest, in a browser of its own, pays the store with PayPal.
  const guestContext = await browser.newContext();
  const shop = await guestContext.newPage();
  await shop.goto(`${garden}/product/search/seed?inStock=true`);
  await shop.getByTestId('product-card').first().getByRole('link').first().click();
  await shop.getByTestId('add-to-cart').click();
  await expect(shop).toHaveURL(`${garden}/cart`);
  await shop.getByRole('link', { name: 'Check out' }).click();
  await expect(shop).toHaveURL(`${garden}/checkout`);
  const form = shop.getByTestId('checkout-form');
  await form.getByLabel('Email').fill('paypal-guest@example.com');
  await form.getByLabel('Full name').fill('Grace Hopper');
  await form.getByLabel('Street address').fill('1 Market Street');
  await form.getByLabel('City').fill('San Francisco');
  await form.getByLabel('Postal code').fill('94105');
  await form.getByLabel('State or region').selectOption('US_CA');
  await shop.getByRole('radio', { name: 'PayPal' }).check();
  await shop.getByRole('button', { name: 'Continue to PayPal' }).click();
  // The stand-in approves at once and sends the shopper back; the store captures.
  await expect(shop.getByText('Thank you! Your order has been placed.')).toBeVisible();
  await expect(shop).toHaveURL(new RegExp(`^${garden}/order\\?orderId=GAR-`));
  await expect(shop.getByTestId('order-status')).toHaveText('Paid');
  await snap(shop, 'admin-paypal-guest-order');
  await guestContext.close();

  // Without JavaScript: the owner disconnects through the confirmation and connects again (the plain
  // form post is sent on to PayPal's sign-up page, which the page's form-action policy must allow).
  const plain = await browser.newContext({ javaScriptEnabled: false });
  const owner = await plain.newPage();
  await signIn(owner, storeOwner, PAYMENTS);
  await owner.getByRole('link', { name: 'Disconnect' }).click();
  await owner.getByRole('button', { name: 'Disconnect PayPal' }).click();
  await expect(owner).toHaveURL(`${garden}${PAYMENTS}?paypal=disconnected`);
  await expect(status(owner)).toHaveText('Disconnected');
  await expect(owner.getByTestId('paypal-checkout')).toHaveText('Does not offer PayPal');
  await owner.getByRole('button', { name: /^Connect PayPal/ }).click();
  await expect(owner).toHaveURL(new RegExp(`^${standIn}/bizsignup/partner/entry\\?referralToken=`));
  await owner.getByRole('button', { name: 'Agree and connect' }).click();
  await expect(owner).toHaveURL(`${garden}${PAYMENTS}?paypal=connected`);
  await expect(status(owner)).toHaveText('Connected');
  await plain.close();
});
