import { expect, type Page, test } from '@playwright/test';
import { getDocumentProxy } from 'unpdf';
import { STORES, signIn, snap } from './helpers';

/**
 * The order page on the lighting store: a guest buys this run's own product
 * through the HTTP API (a cart cookie, as a browser does); the owner ships it with a UPS tracking
 * number in the dashboard; the guest's order page shows it shipped with the tracking link, and the
 * dev mailbox has the mail with it; the owner refunds one unit of the line, and the order page and
 * the invoice PDF show the refund.
 */

const base = STORES.lighting.url;
const owner = { base: base, email: 'owner@lighting.test' };
const run = `OP${Date.now().toString(36).toUpperCase()}`;
const EMAIL = `order-page-${run.toLowerCase()}@example.com`;
const TRACKING = `1Z${run}`;
/** This run's product (the first test makes it). */
let productId = '';

async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, `admin-order-page-${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, `admin-order-page-${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** A guest's order through the HTTP API, from the page (its cart cookie is the browser's). */
async function placeOrder(page: Page, productId: string, email: string) {
  if (!page.url().startsWith(base)) await page.goto(`${base}/`);
  return page.evaluate(
    async ({ productId, email }) => {
      const added = await fetch('/skulocity/api/v1/public/ecommerce/product/addToCart', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ productId, quantity: 2 }),
      });
      if (!added.ok) throw new Error(`addToCart: ${added.status} ${await added.text()}`);
      const res = await fetch('/skulocity/api/v1/ecommerce/checkout/processorder', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify({
          email,
          shipTo: {
            toName: 'Ada Order-Page',
            address1: '1 Market Street',
            city: 'San Francisco',
            postalCode: '94105',
            countryGeoId: 'USA',
            stateProvinceGeoId: 'US_CA',
          },
          shippingMethodId: 'STANDARD',
          payment: {
            method: 'card',
            cardNumber: '4242424242424242',
            cvc: '123',
            expMonth: 12,
            expYear: 2099,
            nameOnCard: 'Ada',
          },
        }),
      });
      if (!res.ok) throw new Error(`processorder: ${res.status} ${await res.text()}`);
      const data = (await res.json()).data;
      return { orderId: data.orderId as string, accessKey: data.accessKey as string };
    },
    { productId, email },
  );
}

async function pdfText(bytes: number[]) {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const parts: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    for (const item of content.items) if ('str' in item) parts.push(item.str);
  }
  return parts.join(' ').replace(/\s+/g, ' ');
}

test.describe.configure({ mode: 'serial' });

test('the owner ships an order with tracking and refunds one unit; the shopper sees both', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);

  // This run's product, made by the owner as an API client (the session as a bearer token).
  await signIn(page, owner, '/manage-store');
  const token = (await page.context().cookies()).find((c) => c.name === 'sid')?.value;
  expect(token, 'the owner is signed in').toBeTruthy();
  productId = await page.evaluate(
    async ({ token, run }) => {
      const r = await fetch('/skulocity/api/v1/catalog/products', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          fields: { productName: `${run} Order Page Lamp`, sku: `${run}-LAMP`, listPrice: 4000, status: 'ACTIVE' },
          initialStock: 10,
        }),
      });
      if (r.status !== 201) throw new Error(`product not created: ${r.status} ${await r.text()}`);
      return (await r.json()).data.productId as string;
    },
    { token, run },
  );

  // A guest buys two, in a browser of its own (the cart cookie is the browser's).
  const guest = await browser.newContext();
  const shopper = await guest.newPage();
  await shopper.goto(`${base}/`);
  const placed = await placeOrder(shopper, productId, EMAIL);
  const orderUrl = `${base}/order?orderId=${encodeURIComponent(placed.orderId)}&key=${encodeURIComponent(placed.accessKey)}`;

  // The owner's order page: paid, waiting to be shipped.
  await page.goto(`${base}/manage-store/orders/${placed.orderId}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Order ${placed.orderId}`);
  await expect(page.getByTestId('order-status')).toHaveText('Unfulfilled');
  await expect(page.getByTestId('payment-status')).toHaveText('Paid');
  await expect(page.getByRole('region', { name: 'Customer' })).toContainText(EMAIL);
  await expect(page.getByRole('region', { name: 'Customer' })).toContainText('Guest');
  await screenshots(page, 'paid');

  // Fulfil: the primary action opens the form; UPS and a tracking number.
  await page.getByRole('link', { name: 'Fulfil', exact: true }).click();
  const fulfil = page.getByRole('form', { name: 'Fulfil order' });
  await expect(fulfil).toBeVisible();
  await fulfil.getByLabel('Carrier', { exact: true }).selectOption('ups');
  await fulfil.getByLabel('Tracking number').fill(TRACKING);
  await screenshots(page, 'fulfil-form');
  await fulfil.getByRole('button', { name: 'Mark as shipped' }).click();
  await expect(page.getByTestId('order-status')).toHaveText('Shipped');
  await expect(page.getByRole('status').filter({ hasText: 'marked as shipped' }).first()).toBeVisible();
  const timeline = page.getByRole('list', { name: 'Timeline, newest first' });
  await expect(timeline).toContainText(`Shipped with UPS · ${TRACKING}`);
  await expect(timeline).toContainText(`Shipping confirmation sent to ${EMAIL}`);
  await expect(page.getByRole('button', { name: 'Mark delivered' })).toBeVisible();

  // The shopper's order page: shipped, with the carrier's tracking link.
  await shopper.goto(orderUrl);
  await expect(shopper.getByTestId('order-status')).toHaveText('Shipped');
  const shipments = shopper.getByTestId('order-shipments');
  await expect(shipments).toContainText(`Shipped with UPS · ${TRACKING}`);
  await expect(shipments.getByRole('link', { name: 'Track your parcel' })).toHaveAttribute(
    'href',
    `https://www.ups.com/track?tracknum=${TRACKING}`,
  );
  await expect(shopper.getByTestId('order-history')).toContainText(`Shipped with UPS · ${TRACKING}`);
  await snap(shopper, 'admin-order-page-shopper-shipped-1280');
  await shopper.setViewportSize({ width: 375, height: 800 });
  await snap(shopper, 'admin-order-page-shopper-shipped-375');
  await shopper.setViewportSize({ width: 1280, height: 800 });

  // The dev mailbox has the shipping mail with the tracking link (mail leaves as a job: poll).
  const mail = shopper.getByRole('row', { name: EMAIL }).getByRole('link', { name: /is on its way/ });
  await expect(async () => {
    await shopper.goto(`${base}/dev/mailbox`);
    await expect(mail).toBeVisible({ timeout: 500 });
  }).toPass();
  await mail.click();
  await expect(shopper.getByRole('link', { name: `https://www.ups.com/track?tracknum=${TRACKING}` })).toBeVisible();

  // The owner refunds one of the two lamps: the form proposes the amount, the owner keeps it.
  await page.getByRole('link', { name: 'Refund', exact: true }).click();
  const refund = page.getByRole('form', { name: 'Refund' });
  await expect(refund).toBeVisible();
  await refund.getByLabel(new RegExp(`${run} Order Page Lamp`)).fill('1');
  await expect(refund.getByTestId('proposed-amount')).not.toHaveText('$0.00');
  const proposed = (await refund.getByTestId('proposed-amount').textContent()) ?? '';
  await refund.getByLabel(/^Reason/).fill('One shade arrived scratched');
  await screenshots(page, 'refund-form');
  await refund.getByRole('button', { name: 'Refund' }).click();
  await expect(page.getByTestId('payment-status')).toHaveText('Partially refunded');
  await expect(page.getByTestId('refunded-qty-1')).toHaveText('1 refunded');
  await expect(page.getByTestId('refunded-total')).toHaveText(proposed);
  await expect(page.getByRole('list', { name: 'Refunds' })).toContainText('One shade arrived scratched');
  // California taxed the order: the refund row says how much of it was tax.
  await expect(page.getByRole('list', { name: 'Refunds' })).toContainText(/incl\. \$\d+\.\d\d tax/);
  await screenshots(page, 'refunded');

  // The shopper's order page and the invoice show the refund.
  await shopper.goto(orderUrl);
  await expect(shopper.getByTestId('order-refund')).toContainText(proposed.replace('$', ''));
  await expect(shopper.getByTestId('order-refund')).toContainText('One shade arrived scratched');
  await expect(shopper.getByTestId('order-refund')).toContainText(/Including \$\d+\.\d\d tax/);
  await expect(shopper.getByTestId('order-net')).toBeVisible();
  await snap(shopper, 'admin-order-page-shopper-refunded-1280');
  await shopper.setViewportSize({ width: 375, height: 800 });
  await snap(shopper, 'admin-order-page-shopper-refunded-375');

  const invoiceHref = (await page.getByTestId('staff-invoice').getAttribute('href')) ?? '';
  const bytes = await page.evaluate(async (url) => {
    const res = await fetch(url);
    if (!res.ok || res.headers.get('content-type') !== 'application/pdf') throw new Error(`invoice: ${res.status}`);
    return [...new Uint8Array(await res.arrayBuffer())];
  }, invoiceHref);
  const text = await pdfText(bytes);
  expect(text).toContain(`-${proposed}`);
  expect(text).toContain('One shade arrived scratched');
  expect(text).toContain('Net paid');
  const shopperBytes = await shopper.evaluate(
    async (url) => {
      const res = await fetch(url);
      return [...new Uint8Array(await res.arrayBuffer())];
    },
    (await shopper.getByTestId('invoice-link').getAttribute('href')) ?? '',
  );
  expect(await pdfText(shopperBytes)).toContain('Net paid');
  await guest.close();
});

test('without JavaScript the owner is told what is wrong next to the field, then cancels an order after confirming', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const guest = await browser.newContext();
  const placed = await placeOrder(await guest.newPage(), productId, `nojs-${EMAIL}`);
  await guest.close();

  const noJs = await browser.newContext({ javaScriptEnabled: false });
  const page = await noJs.newPage();
  await signIn(page, owner, `/manage-store/orders/${placed.orderId}`);
  await expect(page.getByTestId('order-status')).toHaveText('Unfulfilled');

  // Another carrier with a link that is not http(s): refused next to the field, what was typed kept.
  await page.getByRole('link', { name: 'Fulfil', exact: true }).click();
  const fulfil = page.getByRole('form', { name: 'Fulfil order' });
  await fulfil.getByLabel('Carrier', { exact: true }).selectOption('other');
  await fulfil.getByLabel('Tracking number').fill('AC-77');
  await fulfil.getByLabel('Carrier name (other carrier)').fill('Acme Couriers');
  await fulfil.getByLabel('Tracking link (other carrier)').fill('ftp://acme.example/AC-77');
  await fulfil.getByRole('button', { name: 'Mark as shipped' }).click();
  await expect(page.getByText('Give an http(s) link')).toBeVisible();
  await expect(fulfil.getByLabel('Tracking number')).toHaveValue('AC-77');
  await expect(fulfil.getByLabel('Carrier name (other carrier)')).toHaveValue('Acme Couriers');
  await expect(page.getByTestId('order-status')).toHaveText('Unfulfilled');
  await screenshots(page, 'nojs-field-error');

  // Cancel asks first, then cancels: the stock comes back and the payment is refunded.
  await page.getByRole('link', { name: 'Fulfil', exact: true }).click();
  await page.getByRole('link', { name: 'Cancel order' }).click();
  const confirm = page.getByRole('alertdialog', { name: `Cancel order ${placed.orderId}?` });
  await expect(confirm).toContainText('Its items go back into stock');
  await screenshots(page, 'nojs-cancel-confirm');
  await confirm.getByLabel(/^Reason/).fill('Customer asked by phone');
  await confirm.getByRole('button', { name: 'Cancel order' }).click();
  await expect(page.getByTestId('order-status')).toHaveText('Cancelled');
  await expect(page.getByTestId('payment-status')).toHaveText('Refunded');
  await expect(page.getByRole('list', { name: 'Timeline, newest first' })).toContainText('Customer asked by phone');
  await expect(page.getByRole('link', { name: 'Cancel order' })).toHaveCount(0);
  await noJs.close();
});
