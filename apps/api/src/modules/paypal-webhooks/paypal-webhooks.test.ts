import type { AddressInfo } from 'node:net';
import { schema } from '@app/db';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../lib/context';
import { placeGuestOrder, stockedProductId } from '../../test/guest-order';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';
import { connectStoreToPayPal } from '../../test/paypal-seller';
import {
  type PayPalStandIn,
  startPayPalStandIn,
  type WebhookDelivery,
  type WebhookInput,
} from '../../test/paypal-stand-in';
import { createStaff } from '../../test/staff';
import { createAuditService } from '../audit/index';
import type { MailMessage } from '../mail/index';
import { transitionSeller } from '../paypal-seller/index';
import { createPaymentIssuesService, createPayPalWebhookService } from './index';

// PayPal's webhooks against the stand-in over real HTTP: it signs each event as PayPal does (headers,
// transmission id and time, certificate URL) and answers verify-webhook-signature; the server listens
// on a port as in production, since PayPal calls it, not a browser.
const LIGHTING = 'lighting.localhost';
const GARDEN = 'garden.localhost';
const B = '/skulocity/api/v1';
const WEBHOOK_ID = 'WH9TEST0WEBHOOK0ID';

let t: TestApp;
let paypal: PayPalStandIn;
let url: string;
let productId: string;
const mail: MailMessage[] = [];
let owner: BrowserSession;
let gardenOwner: BrowserSession;
let shopper: BrowserSession;
let paymentsStaff: BrowserSession;
let ordersStaff: BrowserSession;

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
  await db.update(schema.products).set({ stockQuantity: 20 }).where(eq(schema.products.productId, productId));
  mail.length = 0;
  paypal.requests.length = 0;
});

const verifyCalls = () => paypal.requests.filter((r) => r.path === '/v1/notifications/verify-webhook-signature');
const orderRow = async (orderId: string) =>
  (await t.database.db.select().from(schema.orders).where(eq(schema.orders.orderId, orderId)))[0];
const issuesOf = (tenantId: string) =>
  t.database.db
    .select()
    .from(schema.paymentIssues)
    .where(eq(schema.paymentIssues.tenantId, tenantId))
    .orderBy(asc(schema.paymentIssues.createdAt));
const historyOf = (orderId: string) =>
  t.database.db
    .select()
    .from(schema.orderStatusHistory)
    .where(eq(schema.orderStatusHistory.orderId, orderId))
    .orderBy(asc(schema.orderStatusHistory.seq));
const placedAgo = (orderId: string, minutes: number) =>
  t.database.db
    .update(schema.orders)
    .set({ placedAt: new Date(Date.now() - minutes * 60_000) })
    .where(eq(schema.orders.orderId, orderId));
/** The event as PayPal sends it for a store's order: the checkout names the store in custom_id. */
const forStore = (input: WebhookInput, tenantId = 'lighting'): WebhookInput => ({
  ...input,
  resource: { ...(input.resource as object), custom_id: tenantId },
});
const send = (input: WebhookInput, opts?: { forge?: boolean }) => paypal.deliverWebhook(url, input, opts);
/** The same delivery with some headers changed, as an attacker would send it. */
const tampered = (d: WebhookDelivery, headers: Record<string, string | undefined>) =>
  fetch(url, {
    method: 'POST',
    headers: Object.fromEntries(
      Object.entries({ ...d.headers, ...headers }).filter((e): e is [string, string] => e[1] !== undefined),
    ),
    body: d.rawBody,
  });

function captureResource(o: { id: string; value: string; paypalOrderId?: string; tenantId?: string }) {
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

async function guestCart() {
  const res = await t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/product/addToCart`,
    headers: { host: LIGHTING },
    payload: { productId, quantity: 2 },
  });
  return String([res.headers['set-cookie']].flat()[0]).split(';')[0] as string;
}
const shipTo = {
  toName: 'Grace Hopper',
  address1: '1 Market Street',
  city: 'San Francisco',
  postalCode: '94105',
  countryGeoId: 'USA',
  stateProvinceGeoId: 'US_CA',
};
/** A guest approved at PayPal; `createPaypalOrder` left its checkout row (no order yet). */
async function approvedPayPalOrder() {
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

const listIssues = (headers: Record<string, string>, host = LIGHTING, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/paypal/issues${query}`, headers: { host, ...headers } });
const resolveIssue = (headers: Record<string, string>, issueId: string, payload: object, host = LIGHTING) =>
  t.app.inject({
    method: 'POST',
    url: `/api/paypal/issues/${encodeURIComponent(issueId)}/resolve`,
    headers: { host, ...headers },
    payload,
  });

describe('PAYMENT.CAPTURE.COMPLETED', () => {
  it('settles a placed order whose checkout never heard back, once, and a replay changes nothing', async () => {
    const { cookie, paypalOrderId } = await approvedPayPalOrder();
    // PayPal takes the money; the shop's checkout hears nothing back.
    const held = paypal.holdNextCapture();
    const capturing = t.app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/capturePaypalOrder`,
      headers: { host: LIGHTING, cookie },
      payload: { paypalOrderId },
    });
    await held.captured;
    const [placed] = await t.database.db
      .select()
      .from(schema.orders)
      .where(eq(schema.orders.email, 'grace@example.com'));
    expect(placed?.status).toBe('placed');
    const orderId = placed?.orderId as string;
    const event = forStore(paypal.captureEvent(paypalOrderId));
    const captureId = paypal.orders.get(paypalOrderId)?.capture?.id;

    // While its checkout may still finish it, PayPal is asked to come back later: nothing recorded.
    const early = await send(event);
    expect(early.status).toBe(503);
    expect(JSON.parse(early.responseBody)).toMatchObject({ error: true, code: 'UNAVAILABLE' });
    expect((await orderRow(orderId))?.status).toBe('placed');
    expect(await t.database.db.select().from(schema.paypalWebhookEvents)).toHaveLength(0);

    // PayPal's retry after the checkout died: the order is paid with PayPal's capture.
    await placedAgo(orderId, 10);
    const retry = await paypal.redeliver(early);
    expect(retry.status).toBe(200);
    expect(JSON.parse(retry.responseBody)).toEqual({ eventId: early.event.id, outcome: 'applied' });
    expect(await orderRow(orderId)).toMatchObject({
      status: 'paid',
      paymentRef: captureId,
      paymentLabel: 'PayPal',
      capturedAmount: placed?.grandTotal,
    });
    const [checkout] = await t.database.db
      .select()
      .from(schema.paypalCheckouts)
      .where(eq(schema.paypalCheckouts.paypalOrderId, paypalOrderId));
    expect(checkout).toMatchObject({ orderId, status: 'placed' });
    const history = await historyOf(orderId);
    expect(history.at(-1)).toMatchObject({
      fromStatus: 'placed',
      status: 'paid',
      actorKind: 'system',
      reason: `PayPal reported the payment (webhook PAYMENT.CAPTURE.COMPLETED, capture ${captureId})`,
    });
    await t.services.jobs.drain();
    expect(mail.map((m) => m.subject)).toEqual([`Your Brightside Lighting order ${orderId}`]);
    expect(verifyCalls().length).toBeGreaterThanOrEqual(2);

    // The same event again (PayPal's retry, or an attacker's replay): 200, nothing changes.
    const replay = await paypal.redeliver(retry);
    expect(replay.status).toBe(200);
    expect(JSON.parse(replay.responseBody)).toEqual({ eventId: early.event.id, outcome: 'duplicate' });
    expect(await historyOf(orderId)).toHaveLength(history.length);
    await t.services.jobs.drain();
    expect(mail).toHaveLength(1);
    const [row] = await t.database.db
      .select()
      .from(schema.paypalWebhookEvents)
      .where(eq(schema.paypalWebhookEvents.eventId, early.event.id));
    expect(row).toMatchObject({ tenantId: 'lighting', outcome: 'applied', eventType: 'PAYMENT.CAPTURE.COMPLETED' });

    // The checkout finally hears back: the same paid order, one receipt.
    held.release();
    const res = await capturing;
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ orderId, status: 'paid' });
    await t.services.jobs.drain();
    expect(mail).toHaveLength(1);
  });

  it('delivered twice at once, settles the order once', async () => {
    const { cookie, paypalOrderId } = await approvedPayPalOrder();
    const held = paypal.holdNextCapture();
    const capturing = t.app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/capturePaypalOrder`,
      headers: { host: LIGHTING, cookie },
      payload: { paypalOrderId },
    });
    await held.captured;
    const [placed] = await t.database.db
      .select()
      .from(schema.orders)
      .where(eq(schema.orders.email, 'grace@example.com'));
    const orderId = placed?.orderId as string;
    await placedAgo(orderId, 10);
    const early = await send(forStore(paypal.captureEvent(paypalOrderId)));
    expect(early.status).toBe(200);
    await t.database.db.delete(schema.paypalWebhookEvents);
    // Back to placed as if the first delivery had never come, then the same event twice in parallel.
    await t.database.db.update(schema.orders).set({ status: 'placed' }).where(eq(schema.orders.orderId, orderId));
    const before = (await historyOf(orderId)).length;
    const answers = await Promise.all([paypal.redeliver(early), paypal.redeliver(early)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => JSON.parse(a.responseBody).outcome).sort()).toEqual(['applied', 'duplicate']);
    expect(await historyOf(orderId)).toHaveLength(before + 1);
    held.release();
    await capturing;
  });

  it('for an order the sweep had cancelled is money without an order', async () => {
    const placed = await placeGuestOrder(t.app, { host: LIGHTING, productId, email: 'late@example.com' });
    const orderId = placed.json().data.orderId as string;
    await t.database.db
      .update(schema.orders)
      .set({ status: 'cancelled', idempotencyKey: 'paypal:PPCANCELLED0001', paymentRef: null })
      .where(eq(schema.orders.orderId, orderId));
    const d = await send(captureResource({ id: 'CAPLATE00000001', value: '9.99', paypalOrderId: 'PPCANCELLED0001' }));
    expect(JSON.parse(d.responseBody).outcome).toBe('flagged');
    const [issue] = await issuesOf('lighting');
    expect(issue).toMatchObject({ kind: 'capture_without_order', orderId, amount: 999 });
    expect(issue?.message).toContain('had been cancelled');
    expect((await orderRow(orderId))?.status).toBe('cancelled');
  });

  it('for an order already paid by its checkout changes nothing', async () => {
    const { cookie, paypalOrderId } = await approvedPayPalOrder();
    const captured = await t.app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/capturePaypalOrder`,
      headers: { host: LIGHTING, cookie },
      payload: { paypalOrderId },
    });
    expect(captured.statusCode).toBe(200);
    const orderId = captured.json().data.orderId as string;
    const before = await historyOf(orderId);
    const d = await send(forStore(paypal.captureEvent(paypalOrderId)));
    expect(d.status).toBe(200);
    expect(JSON.parse(d.responseBody).outcome).toBe('applied');
    expect(await historyOf(orderId)).toHaveLength(before.length);
    expect(await issuesOf('lighting')).toEqual([]);
  });

  it('with no order of ours becomes an issue for that store only, and its checkout is flagged', async () => {
    const { paypalOrderId } = await approvedPayPalOrder();
    const d = await send(captureResource({ id: 'CAPNOORDER00001', value: '54.13', paypalOrderId }));
    expect(d.status).toBe(200);
    expect(JSON.parse(d.responseBody).outcome).toBe('flagged');
    const [issue, ...more] = await issuesOf('lighting');
    expect(more).toEqual([]);
    expect(issue).toMatchObject({
      kind: 'capture_without_order',
      captureId: 'CAPNOORDER00001',
      paypalOrderId,
      amount: 5413,
      currency: 'USD',
      status: 'open',
      orderId: null,
    });
    expect(issue?.message).toContain('$54.13');
    const [checkout] = await t.database.db
      .select()
      .from(schema.paypalCheckouts)
      .where(eq(schema.paypalCheckouts.paypalOrderId, paypalOrderId));
    expect(checkout?.status).toBe('flagged');

    // Listed for lighting's owner, not for garden's; the same capture again adds nothing.
    const list = await listIssues(owner);
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toMatchObject({ openCount: 1, nextCursor: null });
    expect(list.json().data.items).toEqual([
      expect.objectContaining({ issueId: issue?.issueId, kind: 'capture_without_order', amount: 5413 }),
    ]);
    const garden = await listIssues(gardenOwner, GARDEN);
    expect(garden.json().data).toMatchObject({ items: [], openCount: 0 });
    await send(captureResource({ id: 'CAPNOORDER00001', value: '54.13', paypalOrderId }));
    expect(await issuesOf('lighting')).toHaveLength(1);
  });

  it('for another amount than the order total is an issue; the order stays placed', async () => {
    const { cookie, paypalOrderId } = await approvedPayPalOrder();
    const held = paypal.holdNextCapture();
    const capturing = t.app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/capturePaypalOrder`,
      headers: { host: LIGHTING, cookie },
      payload: { paypalOrderId },
    });
    await held.captured;
    const [placed] = await t.database.db
      .select()
      .from(schema.orders)
      .where(eq(schema.orders.email, 'grace@example.com'));
    await placedAgo(placed?.orderId as string, 10);
    const d = await send(captureResource({ id: 'CAPMISMATCH0001', value: '1.00', paypalOrderId }));
    expect(d.status).toBe(200);
    expect(JSON.parse(d.responseBody).outcome).toBe('flagged');
    expect((await orderRow(placed?.orderId as string))?.status).toBe('placed');
    expect(await issuesOf('lighting')).toEqual([
      expect.objectContaining({ kind: 'amount_mismatch', orderId: placed?.orderId, amount: 100 }),
    ]);
    held.release();
    await capturing;
  });

  it('of a store that is not on this platform is recorded as ignored, and shown to nobody', async () => {
    const d = await send(captureResource({ id: 'CAPELSEWHERE001', value: '5.00', tenantId: 'no-such-store' }));
    expect(d.status).toBe(200);
    expect(JSON.parse(d.responseBody).outcome).toBe('ignored');
    expect(await t.database.db.select().from(schema.paymentIssues)).toEqual([]);
  });
});

describe('what is not PayPal changes nothing', () => {
  it('a forged signature: 401, PayPal was asked and said no, nothing recorded', async () => {
    const { paypalOrderId } = await approvedPayPalOrder();
    const d = await send(captureResource({ id: 'CAPFORGED000001', value: '54.13', paypalOrderId }), { forge: true });
    expect(d.status).toBe(401);
    const body = JSON.parse(d.responseBody);
    expect(body).toMatchObject({
      error: true,
      code: 'UNAUTHENTICATED',
      message: 'PayPal did not confirm this webhook.',
    });
    expect(d.responseBody).not.toMatch(/at .*\.ts|stack/i);
    expect(verifyCalls()).toHaveLength(1);
    expect(await t.database.db.select().from(schema.paypalWebhookEvents)).toEqual([]);
    expect(await t.database.db.select().from(schema.paymentIssues)).toEqual([]);
    const [checkout] = await t.database.db.select().from(schema.paypalCheckouts);
    expect(checkout?.status).toBe('open');
  });

  it('a refusal is logged as a warning with the reason, never the body', async () => {
    const lines: unknown[] = [];
    const log = { ...t.app.log, warn: (...a: unknown[]) => lines.push(a), info: () => {} } as typeof t.app.log;
    const service = createPayPalWebhookService(t.database.db, {
      paymentAccounts: t.services.paymentAccounts,
      webhookId: WEBHOOK_ID,
      platformBaseUrl: paypal.url,
      events: t.services.events,
      issues: createPaymentIssuesService(t.database.db, { audit: createAuditService(t.database.db) }),
      orders: undefined as never,
      checkout: undefined as never,
      log,
      linkOrigin: (host) => `http://${host}`,
      onboarding: () => undefined,
    });
    const d = await send(captureResource({ id: 'CAPSECRETBODY01', value: '77.77' }), { forge: true });
    await expect(service.receive(d.headers, d.rawBody, 'req-log')).rejects.toMatchObject({ statusCode: 401 });
    expect(lines).toHaveLength(1);
    expect(JSON.stringify(lines)).toContain('signature not verified');
    expect(JSON.stringify(lines)).not.toMatch(/CAPSECRETBODY01|77\.77|lighting/);
  });

  it('a genuine event with its body edited is not verified', async () => {
    const d = await send(captureResource({ id: 'CAPEDITED000001', value: '1.00' }));
    expect(d.status).toBe(200);
    await t.database.db.delete(schema.paymentIssues);
    await t.database.db.delete(schema.paypalWebhookEvents);
    const edited = d.rawBody.replace('"1.00"', '"999.00"');
    const res = await fetch(url, { method: 'POST', headers: d.headers, body: edited });
    expect(res.status).toBe(401);
    expect(await t.database.db.select().from(schema.paymentIssues)).toEqual([]);
  });

  it("a certificate URL off PayPal's hosts is refused before PayPal is asked", async () => {
    const d = await send(captureResource({ id: 'CAPCERT00000001', value: '2.00', tenantId: 'no-such-store' }));
    await t.database.db.delete(schema.paypalWebhookEvents);
    paypal.requests.length = 0;
    for (const certUrl of [
      'https://evil.example/v1/notifications/certs/CERT-1',
      'https://api.paypal.com.evil.example/certs/CERT-1',
      'http://api.paypal.com/v1/notifications/certs/CERT-1',
      'https://user:pw@api.paypal.com/certs/CERT-1',
      'not a url',
    ]) {
      const res = await tampered(d, { 'paypal-cert-url': certUrl });
      expect(res.status, certUrl).toBe(401);
      expect((await res.json()).message).toBe("The certificate URL is not on PayPal's hosts.");
    }
    expect(verifyCalls()).toEqual([]);
    expect(await t.database.db.select().from(schema.paypalWebhookEvents)).toEqual([]);
  });

  it('a charset in the content type is PayPal still; another media type is 415', async () => {
    const d = await send(captureResource({ id: 'CAPCHARSET00001', value: '2.00', tenantId: 'no-such-store' }));
    await t.database.db.delete(schema.paypalWebhookEvents);
    const charset = await tampered(d, { 'content-type': 'application/json; charset=utf-8' });
    expect(charset.status).toBe(200);
    const form = await tampered(d, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
  });

  it('without PAYPAL_WEBHOOK_ID nothing can be verified: 401 and PayPal is not asked', async () => {
    const d = await send(captureResource({ id: 'CAPNOWEBHOOK001', value: '2.00' }));
    await t.database.db.delete(schema.paymentIssues);
    await t.database.db.delete(schema.paypalWebhookEvents);
    paypal.requests.length = 0;
    // The service as app.ts builds it, but for a platform without PAYPAL_WEBHOOK_ID.
    const bare = createPayPalWebhookService(t.database.db, {
      paymentAccounts: t.services.paymentAccounts,
      webhookId: undefined,
      platformBaseUrl: paypal.url,
      events: t.services.events,
      issues: createPaymentIssuesService(t.database.db, { audit: createAuditService(t.database.db) }),
      orders: undefined as never,
      checkout: undefined as never,
      log: t.app.log,
      linkOrigin: (host) => `http://${host}`,
      onboarding: () => undefined,
    });
    await expect(bare.receive(d.headers, d.rawBody, 'test')).rejects.toMatchObject({
      statusCode: 401,
      code: 'UNAUTHENTICATED',
    });
    expect(verifyCalls()).toEqual([]);
    expect(await t.database.db.select().from(schema.paymentIssues)).toEqual([]);
  });

  it('missing headers, a stale transmission and a body that is not JSON are 400 with the envelope', async () => {
    const d = await send(captureResource({ id: 'CAPHEADERS00001', value: '2.00', tenantId: 'no-such-store' }));
    await t.database.db.delete(schema.paypalWebhookEvents);
    paypal.requests.length = 0;
    const noSig = await tampered(d, { 'paypal-transmission-sig': undefined });
    expect(noSig.status).toBe(400);
    expect(await noSig.json()).toMatchObject({ error: true, code: 'BAD_REQUEST' });
    const stale = await tampered(d, {
      'paypal-transmission-time': new Date(Date.now() - 5 * 86_400_000).toISOString(),
    });
    expect(stale.status).toBe(400);
    const notJson = await fetch(url, { method: 'POST', headers: d.headers, body: '{"id":' });
    expect(notJson.status).toBe(400);
    const huge = await fetch(url, { method: 'POST', headers: d.headers, body: `{"pad":"${'x'.repeat(70_000)}"}` });
    expect(huge.status).toBe(413);
    expect(verifyCalls()).toEqual([]);
    expect(await t.database.db.select().from(schema.paypalWebhookEvents)).toEqual([]);
  });
});

describe('denials and refunds', () => {
  it('a denied capture of an order is an issue and a line on the order timeline', async () => {
    const placed = await placeGuestOrder(t.app, { host: LIGHTING, productId, email: 'deny@example.com' });
    const orderId = placed.json().data.orderId as string;
    const order = await orderRow(orderId);
    await t.database.db
      .update(schema.orders)
      .set({ idempotencyKey: 'paypal:PPDENIED0000001' })
      .where(eq(schema.orders.orderId, orderId));
    const d = await send({
      event_type: 'PAYMENT.CAPTURE.DENIED',
      resource_type: 'capture',
      resource: {
        id: 'CAPDENIED000001',
        status: 'DECLINED',
        amount: { currency_code: 'USD', value: ((order?.grandTotal ?? 0) / 100).toFixed(2) },
        custom_id: 'lighting',
        supplementary_data: { related_ids: { order_id: 'PPDENIED0000001' } },
      },
    });
    expect(d.status).toBe(200);
    expect(await issuesOf('lighting')).toEqual([expect.objectContaining({ kind: 'capture_denied', orderId })]);
    const events = await t.database.db.select().from(schema.orderEvents).where(eq(schema.orderEvents.orderId, orderId));
    expect(events).toEqual([expect.objectContaining({ kind: 'payment', actorKind: 'system' })]);
    expect(events[0]?.message).toContain('PayPal denied the payment');
    expect((await orderRow(orderId))?.status).toBe(order?.status);
  });

  it('a reversed capture of a paid order is an issue; of no order, nothing', async () => {
    const placed = await placeGuestOrder(t.app, { host: LIGHTING, productId, email: 'reverse@example.com' });
    const orderId = placed.json().data.orderId as string;
    const captureId = (await orderRow(orderId))?.paymentRef as string;
    const reversal = (id: string) => ({
      event_type: 'PAYMENT.CAPTURE.REVERSED',
      resource_type: 'capture',
      resource: { id, status: 'REVERSED', amount: { currency_code: 'USD', value: '5.00' }, custom_id: 'lighting' },
    });
    expect(JSON.parse((await send(reversal('CAPUNKNOWN00001'))).responseBody).outcome).toBe('ignored');
    expect(await issuesOf('lighting')).toEqual([]);
    expect(JSON.parse((await send(reversal(captureId))).responseBody).outcome).toBe('flagged');
    const [issue] = await issuesOf('lighting');
    expect(issue).toMatchObject({ kind: 'capture_denied', orderId, captureId });
    expect(issue?.message).toContain('took back the payment');
  });

  it('a refund made at PayPal is an issue; one the store made is not', async () => {
    const placed = await placeGuestOrder(t.app, { host: LIGHTING, productId, email: 'refund@example.com' });
    const orderId = placed.json().data.orderId as string;
    const order = await orderRow(orderId);
    const captureId = order?.paymentRef as string;
    const refundEvent = (id: string, value: string): WebhookInput => ({
      event_type: 'PAYMENT.CAPTURE.REFUNDED',
      resource_type: 'refund',
      resource: {
        id,
        status: 'COMPLETED',
        amount: { currency_code: 'USD', value },
        custom_id: 'lighting',
        links: [
          { href: `${paypal.url}/v2/payments/refunds/${id}`, rel: 'self', method: 'GET' },
          { href: `${paypal.url}/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' },
        ],
      },
    });
    // Made through the store: order_refunds knows PayPal's id.
    await t.database.db.insert(schema.orderRefunds).values({
      tenantId: 'lighting',
      refundId: 'RF-KNOWN',
      orderId,
      amount: 100,
      currency: 'USD',
      status: 'succeeded',
      provider: 'paypal',
      providerRef: 'REFKNOWN0000001',
    });
    const known = await send(refundEvent('REFKNOWN0000001', '1.00'));
    expect(JSON.parse(known.responseBody).outcome).toBe('applied');
    expect(await issuesOf('lighting')).toEqual([]);

    const outside = await send(refundEvent('REFOUTSIDE00001', '2.50'));
    expect(JSON.parse(outside.responseBody).outcome).toBe('flagged');
    expect(await issuesOf('lighting')).toEqual([
      expect.objectContaining({ kind: 'refund_unknown', orderId, captureId, amount: 250, status: 'open' }),
    ]);
    // The store's books are the refunds module's: the webhook does not write refunded_amount.
    expect((await orderRow(orderId))?.refundedAmount).toBe(0);
    // A second refund outside the store adds to the capture's one issue.
    await send(refundEvent('REFOUTSIDE00002', '1.00'));
    expect(await issuesOf('lighting')).toEqual([expect.objectContaining({ kind: 'refund_unknown', amount: 350 })]);
    const events = await t.database.db.select().from(schema.orderEvents).where(eq(schema.orderEvents.orderId, orderId));
    expect(events.map((e) => e.kind)).toEqual(['refund', 'refund']);
  });
});

describe('seller events', () => {
  async function connect(tenantId: string, hostName: string) {
    const merchantId = paypal.addSeller({ trackingId: tenantId });
    const ctx = systemContext(
      { tenantId, productStoreId: '9001', hostName, viaDevAlias: false, origin: `http://${hostName}` },
      'test',
    );
    await t.database.db.transaction(async (tx) => {
      const moved = await transitionSeller(tx, ctx, 'connected', { merchantId });
      expect(moved.ok).toBe(true);
    });
    t.services.paymentAccounts.forget(tenantId);
    return merchantId;
  }

  it('consent revoked: the store no longer offers PayPal, at once', async () => {
    const merchantId = await connect('garden', GARDEN);
    expect((await t.services.paymentAccounts.forStore('garden'))?.merchantId).toBe(merchantId);
    const d = await send(paypal.consentRevokedEvent(merchantId));
    expect(d.status).toBe(200);
    expect(JSON.parse(d.responseBody).outcome).toBe('applied');
    expect(await t.services.paymentAccounts.forStore('garden')).toBeNull();
    const [seller] = await t.database.db
      .select()
      .from(schema.paypalSellers)
      .where(eq(schema.paypalSellers.tenantId, 'garden'));
    expect(seller).toMatchObject({ status: 'action_needed', reasons: ['CONSENT_REVOKED'] });
    const history = await t.database.db
      .select()
      .from(schema.paypalSellerHistory)
      .where(eq(schema.paypalSellerHistory.tenantId, 'garden'))
      .orderBy(asc(schema.paypalSellerHistory.id));
    expect(history.at(-1)).toMatchObject({ fromStatus: 'connected', toStatus: 'action_needed', actorKind: 'paypal' });
    // Replayed: nothing more.
    const again = await paypal.redeliver(d);
    expect(JSON.parse(again.responseBody).outcome).toBe('duplicate');
    expect(
      await t.database.db
        .select()
        .from(schema.paypalSellerHistory)
        .where(eq(schema.paypalSellerHistory.tenantId, 'garden')),
    ).toHaveLength(history.length);
  });

  it('onboarding completed confirms the seller with PayPal and connects the store, once', async () => {
    const merchantId = paypal.addSeller({ trackingId: 'power' });
    // The store started a sign-up: its seller row exists (pending).
    const ctx = systemContext(
      { tenantId: 'power', productStoreId: '9002', hostName: 'power.localhost', viaDevAlias: false, origin: '' },
      'test',
    );
    await t.database.db.transaction((tx) => transitionSeller(tx, ctx, 'pending'));
    const history = () =>
      t.database.db
        .select()
        .from(schema.paypalSellerHistory)
        .where(
          and(eq(schema.paypalSellerHistory.tenantId, 'power'), eq(schema.paypalSellerHistory.actorKind, 'paypal')),
        );
    const d = await send(paypal.onboardingCompletedEvent(merchantId));
    expect(d.status).toBe(200);
    const [seller] = await t.database.db
      .select()
      .from(schema.paypalSellers)
      .where(eq(schema.paypalSellers.tenantId, 'power'));
    expect(seller).toMatchObject({ status: 'connected', merchantId });
    expect(await history()).toEqual([
      expect.objectContaining({ fromStatus: 'pending', toStatus: 'connected', actorId: d.event.id }),
    ]);
    expect((await t.services.paymentAccounts.forStore('power'))?.merchantId).toBe(merchantId);
    // Redelivered: a duplicate, and PayPal is not asked again.
    const asked = paypal.requests.filter((r) => r.path.includes('/merchant-integrations/')).length;
    const again = await paypal.redeliver(d);
    expect(JSON.parse(again.responseBody).outcome).toBe('duplicate');
    expect(await history()).toHaveLength(1);
    expect(paypal.requests.filter((r) => r.path.includes('/merchant-integrations/')).length).toBe(asked);
  });
});

describe('payment issues API', () => {
  async function oneIssue() {
    await send(captureResource({ id: `CAPAPI${Date.now()}`, value: '3.00' }));
    const [issue] = await issuesOf('lighting');
    if (!issue) throw new Error('no issue');
    return issue;
  }

  it('the owner and staff with the payments permission list and resolve; others are refused', async () => {
    const issue = await oneIssue();
    expect((await listIssues(owner)).statusCode).toBe(200);
    expect((await listIssues(paymentsStaff)).json().data.items).toHaveLength(1);
    expect((await listIssues(ordersStaff)).statusCode).toBe(403);
    expect((await listIssues(shopper)).statusCode).toBe(403);
    const visitor = await listIssues({});
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json()).toMatchObject({ error: true, code: 'UNAUTHENTICATED' });
    expect((await resolveIssue(ordersStaff, issue.issueId, { note: 'x' })).statusCode).toBe(403);
    expect((await resolveIssue(shopper, issue.issueId, { note: 'x' })).statusCode).toBe(403);

    const empty = await resolveIssue(owner, issue.issueId, { note: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.join(' ')).toContain('note');
    // Another store's owner: as if it did not exist.
    const other = await resolveIssue(gardenOwner, issue.issueId, { note: 'not mine' }, GARDEN);
    expect(other.statusCode).toBe(404);
    expect(other.body).not.toMatch(/\.ts:\d+/);

    const done = await resolveIssue(paymentsStaff, issue.issueId, { note: 'Refunded in PayPal' });
    expect(done.statusCode).toBe(200);
    expect(done.json().data).toMatchObject({ status: 'resolved', resolution: 'Refunded in PayPal' });
    expect((await listIssues(owner)).json().data).toMatchObject({ items: [], openCount: 0 });
    const resolved = await listIssues(owner, LIGHTING, '?status=resolved');
    expect(resolved.json().data.items).toEqual([expect.objectContaining({ issueId: issue.issueId })]);
    const audit = await t.database.db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.entity, 'payment_issue'), eq(schema.auditLog.entityId, issue.issueId)));
    expect(audit).toEqual([expect.objectContaining({ tenantId: 'lighting', action: 'resolve' })]);
    // Resolving again changes nothing and writes no second entry.
    expect((await resolveIssue(owner, issue.issueId, { note: 'again' })).json().data.resolution).toBe(
      'Refunded in PayPal',
    );
    expect(
      await t.database.db.select().from(schema.auditLog).where(eq(schema.auditLog.entityId, issue.issueId)),
    ).toHaveLength(1);
  });

  it('refuses a bad status filter and a foreign cursor by naming the field', async () => {
    const bad = await listIssues(owner, LIGHTING, '?status=all');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.join(' ')).toContain('status');
    const cursor = await listIssues(owner, LIGHTING, '?cursor=nonsense');
    expect(cursor.statusCode).toBe(400);
    expect(cursor.json().errors.join(' ')).toContain('cursor');
  });
});
