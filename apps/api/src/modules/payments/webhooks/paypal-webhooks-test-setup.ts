import type { AddressInfo } from 'node:net';
import { schema } from '@app/db';
import { asc, eq, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { stockedProductId } from '../../../test/guest-order';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../test/harness';
import { connectStoreToPayPal } from '../../../test/paypal-seller';
import {
  type PayPalStandIn,
  startPayPalStandIn,
  type WebhookDelivery,
  type WebhookInput,
} from '../../../test/paypal-stand-in';
import { createStaff } from '../../../test/staff';
import { setTestStock } from '../../../test/stock';
import type { MailMessage } from '../../mail/index';

// PayPal's webhooks against the stand-in over real HTTP: it signs each event as PayPal does (headers,
// transmission id and time, certificate URL) and answers verify-webhook-signature; the server listens
// on a port as in production, since PayPal calls it, not a browser.
export const LIGHTING = 'lighting.localhost';
export const GARDEN = 'garden.localhost';
export const B = '/skulocity/api/v1';
export const WEBHOOK_ID = 'WH9TEST0WEBHOOK0ID';

export let t: TestApp;
export let paypal: PayPalStandIn;
export let url: string;
export let productId: string;
export const mail: MailMessage[] = [];
export let owner: BrowserSession;
export let gardenOwner: BrowserSession;
export let shopper: BrowserSession;
export let paymentsStaff: BrowserSession;
export let ordersStaff: BrowserSession;

export const verifyCalls = () => paypal.requests.filter((r) => r.path === '/v1/notifications/verify-webhook-signature');
export const orderRow = async (orderId: string) =>
  (await t.database.db.select().from(schema.orders).where(eq(schema.orders.orderId, orderId)))[0];
export const issuesOf = (tenantId: string) =>
  t.database.db
    .select()
    .from(schema.paymentIssues)
    .where(eq(schema.paymentIssues.tenantId, tenantId))
    .orderBy(asc(schema.paymentIssues.createdAt));
export const historyOf = (orderId: string) =>
  t.database.db
    .select()
    .from(schema.orderStatusHistory)
    .where(eq(schema.orderStatusHistory.orderId, orderId))
    .orderBy(asc(schema.orderStatusHistory.seq));
export const placedAgo = (orderId: string, minutes: number) =>
  t.database.db
    .update(schema.orders)
    .set({ placedAt: new Date(Date.now() - minutes * 60_000) })
    .where(eq(schema.orders.orderId, orderId));
/** The event as PayPal sends it for a store's order: the checkout names the store in custom_id. */
export const forStore = (input: WebhookInput, tenantId = 'lighting'): WebhookInput => ({
  ...input,
  resource: { ...(input.resource as object), custom_id: tenantId },
});
export const send = (input: WebhookInput, opts?: { forge?: boolean }) => paypal.deliverWebhook(url, input, opts);
/** The same delivery with some headers changed, as an attacker would send it. */
export const tampered = (d: WebhookDelivery, headers: Record<string, string | undefined>) =>
  fetch(url, {
    method: 'POST',
    headers: Object.fromEntries(
      Object.entries({ ...d.headers, ...headers }).filter((e): e is [string, string] => e[1] !== undefined),
    ),
    body: d.rawBody,
  });

export function captureResource(o: { id: string; value: string; paypalOrderId?: string; tenantId?: string }) {
  return {
    event_type: 'PAYMENT.CAPTURE.COMPLETED',
    resource_type: 'capture',
    resource: {
      id: o.id,
      status: 'COMPLETED',
      amount: { currency_code: 'USD', value: o.value },
      final_capture: true,
      custom_id: o.tenantId ?? 'lighting',
      ...(o.paypalOrderId ? { supplementary_data: { related_ids: { order_id: o.paypalOrderId } } } : {}),
      links: [{ href: `${paypal.url}/v2/payments/captures/${o.id}`, rel: 'self', method: 'GET' }],
    },
  };
}

export async function guestCart() {
  const res = await t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/product/addToCart`,
    headers: { host: LIGHTING },
    payload: { productId, quantity: 2 },
  });
  return String([res.headers['set-cookie']].flat()[0]).split(';')[0] as string;
}
export const shipTo = {
  toName: 'Grace Hopper',
  address1: '1 Market Street',
  city: 'San Francisco',
  postalCode: '94105',
  countryGeoId: 'USA',
  stateProvinceGeoId: 'US_CA',
};
/** A guest approved at PayPal; `createPaypalOrder` left its checkout row (no order yet). */
export async function approvedPayPalOrder() {
  const cookie = await guestCart();
  const created = await t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/createPaypalOrder`,
    headers: { host: LIGHTING, cookie },
    payload: { email: 'grace@example.com', shipTo, shippingMethodId: 'STANDARD' },
  });
  expect(created.statusCode).toBe(200);
  const { paypalOrderId, approveUrl } = created.json().data as { paypalOrderId: string; approveUrl: string };
  expect((await fetch(approveUrl, { redirect: 'manual' })).status).toBe(302);
  return { cookie, paypalOrderId };
}

export const listIssues = (headers: Record<string, string>, host = LIGHTING, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/paypal/issues${query}`, headers: { host, ...headers } });
export const resolveIssue = (headers: Record<string, string>, issueId: string, payload: object, host = LIGHTING) =>
  t.app.inject({
    method: 'POST',
    url: `/api/paypal/issues/${encodeURIComponent(issueId)}/resolve`,
    headers: { host, ...headers },
    payload,
  });

/** Registers the hooks every part of this suite shares: call once at the top of each test file. */
export function usePayPalWebhooksApp(): void {
  beforeAll(async () => {
    paypal = await startPayPalStandIn({
      clientId: 'platform-client',
      clientSecret: 'platform-secret',
      webhookId: WEBHOOK_ID,
    });
    t = await createTestApp({
      config: {
        PAYPAL_BASE_URL: paypal.url,
        PAYPAL_CLIENT_ID: 'platform-client',
        PAYPAL_CLIENT_SECRET: 'platform-secret',
        PAYPAL_PARTNER_ID: paypal.partnerId,
        PAYPAL_WEBHOOK_ID: WEBHOOK_ID,
      },
      mailer: {
        async send(m) {
          mail.push(m);
        },
        close() {},
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/paypal/webhooks`;
    productId = await stockedProductId(t.database.db, 'lighting');
    // Only a store with a PayPal account of its own offers PayPal (decision 052): lighting is connected.
    await connectStoreToPayPal(t, paypal, 'lighting');
    owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
    gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
    shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
    await createStaff(t.database, 'lighting', 'wh-payments@lighting.test', ['payments']);
    await createStaff(t.database, 'lighting', 'wh-orders@lighting.test', ['orders']);
    paymentsStaff = await signIn(t.app, 'wh-payments@lighting.test', 'owner-demo-1', LIGHTING);
    ordersStaff = await signIn(t.app, 'wh-orders@lighting.test', 'owner-demo-1', LIGHTING);
  });
  afterAll(async () => {
    await t.close();
    await paypal.close();
  });
  beforeEach(async () => {
    await t.services.jobs.drain();
    const db = t.database.db;
    await db.delete(schema.carts);
    await db.delete(schema.orders).where(ne(schema.orders.orderId, sql`'-'`));
    await db.delete(schema.paypalCheckouts);
    await db.delete(schema.paymentIssues);
    await db.delete(schema.paypalWebhookEvents);
    await setTestStock(db, 20, { productId: productId });
    mail.length = 0;
    paypal.requests.length = 0;
  });
}
