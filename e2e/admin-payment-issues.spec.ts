import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yIssue, STORES, signIn, snap } from './helpers';
import { PAYPAL_PORT } from './playwright.config';

/**
 * "Payments needing attention" (decision 053) on the power store: empty at first;
 * then PayPal takes money for an order the store never made (an order created and captured at the
 * stand-in with power as custom_id, as a lost checkout would leave it), the stand-in sends its
 * signed PAYMENT.CAPTURE.COMPLETED to the server, and the owner sees it and marks it resolved.
 */

const power = STORES.power.url;
const owner = { base: power, email: 'owner@power.test' };
const PAYPAL = `http://127.0.0.1:${PAYPAL_PORT}`;
const PATH = '/manage-store/payments/issues';

async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, `admin-payment-issues-${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, `admin-payment-issues-${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** PayPal takes money in the platform's app for the power store with no order behind it. */
async function captureWithoutOrder(value: string) {
  const tokenRes = await fetch(`${PAYPAL}/v1/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('e2e-client:e2e-secret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  expect(tokenRes.status).toBe(200);
  const { access_token: token } = (await tokenRes.json()) as { access_token: string };
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const created = await fetch(`${PAYPAL}/v2/checkout/orders`, {
    method: 'POST',
    headers: { ...auth, 'paypal-request-id': `e2e-issue-${Date.now()}` },
    body: JSON.stringify({
      intent: 'CAPTURE',
      purchase_units: [{ reference_id: 'lost', custom_id: 'power', amount: { currency_code: 'USD', value } }],
    }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  expect((await fetch(`${PAYPAL}/checkoutnow?token=${id}`)).status).toBe(200);
  const captured = await fetch(`${PAYPAL}/v2/checkout/orders/${id}/capture`, {
    method: 'POST',
    headers: { ...auth, 'paypal-request-id': `e2e-capture-${id}` },
    body: '{}',
  });
  expect(captured.status).toBe(201);
  return id;
}

test('the owner sees a payment PayPal took without an order and marks it resolved', async ({ page }) => {
  await signIn(page, owner, PATH);
  await expect(page.getByRole('heading', { level: 1, name: 'Payments needing attention' })).toBeVisible();
  await expect(page.getByText('Nothing needs your attention')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open (0)' })).toHaveAttribute('aria-current', 'page');
  await screenshots(page, 'empty');

  const paypalOrderId = await captureWithoutOrder('12.34');
  // The stand-in's signed webhook reaches the server on its own; the page shows it once applied.
  await expect(async () => {
    await page.reload();
    await expect(page.getByText('Payment without an order', { exact: true })).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 10_000 });
  const row = page.getByRole('listitem').filter({ hasText: paypalOrderId });
  await expect(row.getByText('$12.34').first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open (1)' })).toBeVisible();
  await expectNoSeriousA11yIssue(page);
  await screenshots(page, 'one-issue');

  // Resolving takes a note of what was done; a blank one is refused next to the field.
  await row.getByText('Mark resolved').first().click();
  const note = row.getByLabel('What did you do about it?');
  await note.fill('   ');
  await row.getByRole('button', { name: 'Mark resolved' }).click();
  await expect(row.getByText('Please say how the payment was settled.')).toBeVisible();
  await expect(note).toHaveAttribute('aria-invalid', 'true');
  await snap(page, 'admin-payment-issues-note-refused-1280');
  await note.fill('Refunded the buyer in PayPal');
  await row.getByRole('button', { name: 'Mark resolved' }).click();
  await expect(page.getByText('Marked resolved.')).toBeVisible();
  await expect(page.getByText('Nothing needs your attention')).toBeVisible();
  await page.getByRole('link', { name: 'Resolved' }).click();
  await expect(page.getByText(/Resolved .*: Refunded the buyer in PayPal/)).toBeVisible();
  await screenshots(page, 'resolved');
});
