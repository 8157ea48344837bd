import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yIssue, OWNER_PASSWORD, STORES, signIn, snap } from './helpers';
import { STRIPE_TEST_ACCOUNT } from './playwright.config';

/**
 * Stripe as the power store's own card provider (decision 118), against the Stripe stand-in: the
 * owner connects it in Payments; one shopper pays with 4242, another with the 3-D Secure card and
 * completes the bank's check; the owner refunds part of an order through Stripe. The power store
 * is the one whose checkout no other spec of this project uses (access-modes runs after).
 */
const base = STORES.power.url;
const owner = { base, email: 'owner@power.test', password: OWNER_PASSWORD };

async function both(page: Page, name: string) {
  await snap(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function buyWithStripe(page: Page, email: string) {
  await page.goto(`${base}/product/search/drill?inStock=true`);
  await page.getByTestId('product-card').first().getByRole('link').first().click();
  await page.getByTestId('add-to-cart').click();
  await expect(page).toHaveURL(`${base}/cart`);
  await page.getByRole('link', { name: 'Check out' }).click();
  const form = page.getByTestId('checkout-form');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Full name').fill('Ada Lovelace');
  await form.getByLabel('Street address').fill('12 Analytical Row');
  await form.getByLabel('City').fill('Austin');
  await form.getByLabel('Postal code').fill('73301');
  await form.getByLabel('State or region').selectOption('US_TX');
  await page.getByRole('radio', { name: 'Pay with card (Stripe)' }).check();
  await page.getByRole('button', { name: 'Continue to Stripe' }).click();
  // Stripe's hosted page (the stand-in's), for the order's total.
  await expect(page.getByRole('heading', { name: /^Pay / })).toBeVisible();
}

test.describe.configure({ mode: 'serial' });

test('the owner connects Stripe in Payments: a refused key is named, a good one shows only its hint', async ({
  page,
}) => {
  await signIn(page, owner, '/manage-store/payments');
  await expect(page.getByRole('region', { name: 'Test card payments (test mode)' })).toContainText('On');
  const stripe = page.getByRole('region', { name: 'Stripe' });
  await stripe.getByLabel('Secret key').fill('sk_test_notakeystripeknows');
  await stripe.getByLabel('Webhook signing secret').fill(STRIPE_TEST_ACCOUNT.webhookSecret);
  await stripe.getByRole('button', { name: 'Connect Stripe' }).click();
  await expect(page.getByTestId('error-secretKey')).toContainText('Stripe did not accept this secret key');
  await expect(stripe.getByText('Not connected')).toBeVisible();

  await stripe.getByLabel('Secret key').fill(STRIPE_TEST_ACCOUNT.secretKey);
  await stripe.getByLabel('Webhook signing secret').fill(STRIPE_TEST_ACCOUNT.webhookSecret);
  await stripe.getByRole('button', { name: 'Connect Stripe' }).click();
  await expect(stripe.getByTestId('stripe-key-hint')).toHaveText('sk_test_…4242');
  await expect(stripe.getByText('Connected (test mode)')).toBeVisible();
  await expect(page.locator('body')).not.toContainText(STRIPE_TEST_ACCOUNT.secretKey);
  await expectNoSeriousA11yIssue(page);
  await both(page, 'stripe-payments');
});

test('a shopper pays with 4242 on Stripe’s page and lands on the paid order', async ({ page }) => {
  await buyWithStripe(page, 'stripe-4242@example.com');
  await both(page, 'stripe-hosted-page');
  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByText('Thank you! Your order has been placed.')).toBeVisible();
  await expect(page.getByTestId('order-status')).toHaveText('Paid');
  await expect(page.getByText('Card (Stripe)').first()).toBeVisible();
  await both(page, 'stripe-order-paid');
});

test('a shopper pays with the 3-D Secure card, completes the bank’s check, and the owner refunds part of it', async ({
  page,
  browser,
}) => {
  await buyWithStripe(page, 'stripe-3ds@example.com');
  await page.getByLabel('Card number').fill('4000 0025 0000 3155');
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByRole('heading', { name: '3D Secure 2 test page' })).toBeVisible();
  await both(page, 'stripe-3ds');
  await page.getByRole('button', { name: 'Complete' }).click();
  await expect(page.getByText('Thank you! Your order has been placed.')).toBeVisible();
  await expect(page.getByTestId('order-status')).toHaveText('Paid');
  const orderId = new URL(page.url()).searchParams.get('orderId') ?? '';
  expect(orderId).toMatch(/^POW-/);

  const ownerPage = await (await browser.newContext()).newPage();
  await signIn(ownerPage, owner, `/manage-store/orders/${orderId}`);
  await ownerPage.getByRole('link', { name: 'Refund', exact: true }).click();
  const refund = ownerPage.getByRole('form', { name: 'Refund' });
  await refund.getByLabel('Amount to refund').fill('5.00');
  await refund.getByLabel(/^Reason/).fill('Part of the order, through Stripe');
  await refund.getByRole('button', { name: 'Refund' }).click();
  await expect(ownerPage.getByTestId('payment-status')).toHaveText('Partially refunded');
  await expect(ownerPage.getByTestId('refunded-total')).toHaveText('$5.00');
  await both(ownerPage, 'stripe-refunded');
});

test('the owner disconnects Stripe: checkout offers the test card form alone again', async ({ page, browser }) => {
  await signIn(page, owner, '/manage-store/payments');
  const stripe = page.getByRole('region', { name: 'Stripe' });
  await stripe.getByRole('button', { name: 'Disconnect Stripe' }).click();
  await expect(stripe.getByText('Not connected')).toBeVisible();
  await expect(stripe.getByLabel('Secret key')).toHaveValue('');

  const shopper = await (await browser.newContext()).newPage();
  await shopper.goto(`${base}/product/search/drill?inStock=true`);
  await shopper.getByTestId('product-card').first().getByRole('link').first().click();
  await shopper.getByTestId('add-to-cart').click();
  await shopper.goto(`${base}/checkout`);
  await expect(shopper.getByLabel('Card number')).toBeVisible();
  await expect(shopper.getByRole('radio', { name: 'Pay with card (Stripe)' })).toHaveCount(0);
});
