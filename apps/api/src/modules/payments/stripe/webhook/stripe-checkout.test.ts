import { randomUUID } from 'node:crypto';
import { schema } from '@app/db';
import { and, asc, eq, gt, ne } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemContext } from '../../../../lib/context';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../../test/harness';
import { setTestStock } from '../../../../test/stock';
import { type StripeStandIn, startStripeStandIn } from '../../../../test/stripe-stand-in';
import { STUCK_ORDER_SWEEP, type SweepResult } from '../../../orders/index';
import { signStripePayload } from '../stripe-client';

// Checkout through a store's own Stripe account against the stand-in: the order reserved, paid on
// Stripe's page, confirmed on the shopper's return or by the signed webhook, refunded through Stripe.
const KEY = 'sk_test_checkoutstore00001234';
const LIVE_KEY = 'sk_live_checkoutstore0000live';
const WHSEC = 'whsec_checkoutendpoint';
const LIGHTING = 'lighting.localhost';
const B = '/skulocity/api/v1';
let t: TestApp;
let stripe: StripeStandIn;
let owner: BrowserSession;
let product: { productId: string };

beforeAll(async () => {
  stripe = await startStripeStandIn({
    accounts: [
      { secretKey: KEY, webhookSecret: WHSEC },
      { secretKey: LIVE_KEY, webhookSecret: WHSEC },
    ],
    webhooks: false,
  });
  t = await createTestApp({ config: { STRIPE_BASE_URL: stripe.url }, stripeTimeoutMs: 300 });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
  const p = schema.products;
  const [row] = await t.database.db
    .select()
    .from(p)
    .where(and(eq(p.tenantId, 'lighting'), gt(p.stockQuantity, 5), ne(p.productType, 'CONFIGURABLE')))
    .orderBy(asc(p.productId))
    .limit(1);
  if (!row) throw new Error('no product');
  product = { productId: row.productId };
}, 120_000);
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});
beforeEach(async () => {
  await t.database.db.delete(schema.carts);
  await t.database.db.delete(schema.orders);
  await t.database.db.delete(schema.stripeCheckouts);
  await setTestStock(t.database.db, 20, { productId: product.productId });
  await connect(KEY);
});

async function connect(secretKey: string) {
  const res = await t.app.inject({
    method: 'PUT',
    url: `${B}/admin/stripe`,
    headers: { host: LIGHTING, origin: `http://${LIGHTING}`, ...owner },
    payload: { secretKey, webhookSecret: WHSEC },
  });
  expect(res.statusCode).toBe(200);
}

const shipTo = {
  toName: 'Grace Hopper',
  address1: '1 Market Street',
  city: 'San Francisco',
  postalCode: '94105',
  countryGeoId: 'USA',
  stateProvinceGeoId: 'US_CA',
};
const checkoutBody = { email: 'grace@example.com', shipTo, shippingMethodId: 'STANDARD' };

async function addToCart(quantity = 2) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/product/addToCart`,
    headers: { host: LIGHTING },
    payload: { productId: product.productId, quantity },
  });
  expect(res.statusCode).toBe(200);
  return String([res.headers['set-cookie']].flat()[0]).split(';')[0] as string;
}
const post = (path: string, cookie: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/${path}`,
    headers: { host: LIGHTING, cookie, ...headers },
    payload,
  });
const start = (cookie: string, key = `stripe-key-${randomUUID()}`) =>
  post('createStripeSession', cookie, checkoutBody, { 'idempotency-key': key });
const sessionIdOf = (url: string) => url.split('/').at(-1) as string;
const stock = async () =>
  (await t.database.db.select().from(schema.products).where(eq(schema.products.productId, product.productId)))[0]
    ?.stockQuantity;
const order = async (orderId: string) =>
  (await t.database.db.select().from(schema.orders).where(eq(schema.orders.orderId, orderId)))[0];

function webhook(event: object, opts: { secret?: string; at?: number; signature?: string } = {}) {
  const body = JSON.stringify(event);
  return t.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: {
      host: LIGHTING,
      'content-type': 'application/json',
      'stripe-signature': opts.signature ?? signStripePayload(body, opts.secret ?? WHSEC, opts.at),
    },
    payload: body,
  });
}
const completed = (sessionId: string, id = `evt_${sessionId.slice(-12)}`) => ({
  id,
  object: 'event',
  type: 'checkout.session.completed',
  data: { object: { id: sessionId, object: 'checkout.session' } },
});

describe('paying on Stripe’s page', () => {
  it('Place order reserves the order and answers Stripe’s page; back paid, the order is paid for the session’s amount', async () => {
    const cookie = await addToCart();
    const res = await start(cookie);
    expect(res.statusCode).toBe(200);
    const { url, orderId } = res.json().data;
    expect(url).toMatch(new RegExp(`^${stripe.url}/pay/cs_test_`));
    // Reserved while the shopper is at Stripe, and the session is for exactly the order's total.
    expect(await stock()).toBe(18);
    const placed = await order(orderId);
    expect(placed).toMatchObject({ status: 'placed', paymentProvider: 'stripe' });
    const sent = stripe.requests.find((r) => r.path === '/v1/checkout/sessions');
    expect(sent?.body).toMatchObject({
      client_reference_id: orderId,
      'metadata[order_id]': orderId,
      'line_items[0][price_data][unit_amount]': String(placed?.grandTotal),
      success_url: `http://${LIGHTING}/checkout/stripe/return?session_id={CHECKOUT_SESSION_ID}`,
    });
    expect(sent?.idempotencyKey).toMatch(/^checkout:stripe-key-/);

    // Back before paying: not confirmed.
    const early = await post('stripeReturn', cookie, { sessionId: sessionIdOf(url) });
    expect(early.json().data).toEqual({ paid: false, reason: 'unpaid' });
    expect((await order(orderId))?.status).toBe('placed');

    stripe.pay(sessionIdOf(url));
    const back = await post('stripeReturn', cookie, { sessionId: sessionIdOf(url) });
    expect(back.statusCode).toBe(200);
    expect(back.json().data).toMatchObject({ paid: true, orderId, guest: true });
    const paid = await order(orderId);
    expect(paid).toMatchObject({ status: 'paid', paymentLabel: 'Card (Stripe)', capturedAmount: placed?.grandTotal });
    expect(paid?.paymentRef).toBe(stripe.session(sessionIdOf(url))?.payment_intent);
    // Coming back again changes nothing.
    expect((await post('stripeReturn', cookie, { sessionId: sessionIdOf(url) })).json().data.orderId).toBe(orderId);
  });

  it('Place order sent twice with its key makes one order and one session', async () => {
    const cookie = await addToCart();
    const a = (await start(cookie, 'stripe-key-twice')).json().data;
    const b = (await start(cookie, 'stripe-key-twice')).json().data;
    expect(b).toEqual(a);
    expect(await stock()).toBe(18);
    expect(await t.database.db.select().from(schema.stripeCheckouts)).toHaveLength(1);
  });

  it('leaving Stripe’s page without paying releases the reservation; another shopper cannot cancel it', async () => {
    const cookie = await addToCart();
    const { orderId } = (await start(cookie)).json().data;
    const stranger = await addToCart(1);
    const refused = await post('stripeCancel', stranger, { orderId });
    expect(refused.statusCode, refused.body).toBe(404);
    const res = await post('stripeCancel', cookie, { orderId });
    expect(res.json().data).toEqual({ paid: false, reason: 'cancelled' });
    expect(await order(orderId)).toBeUndefined();
    // All back on the shelf (the stranger's line is only in their cart).
    expect(await stock()).toBe(20);
  });

  it('after leaving, Stripe’s page takes no more money: the session is expired at Stripe before the stock goes back', async () => {
    const cookie = await addToCart();
    const { url, orderId } = (await start(cookie)).json().data;
    expect((await post('stripeCancel', cookie, { orderId })).json().data).toEqual({ paid: false, reason: 'cancelled' });
    expect(stripe.requests.some((r) => r.path === `/v1/checkout/sessions/${sessionIdOf(url)}/expire`)).toBe(true);
    expect(stripe.session(sessionIdOf(url))?.status).toBe('expired');
    // The shopper goes back in the browser's history and tries to pay on the page they left.
    const paying = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'card=4242424242424242',
      redirect: 'manual',
    });
    expect(paying.status).toBe(410);
    expect(stripe.session(sessionIdOf(url))?.payment_status).toBe('unpaid');
  });

  it('paid in another tab while “back to the store” asks Stripe to expire the page: the shopper gets the paid order', async () => {
    const cookie = await addToCart();
    const { url, orderId } = (await start(cookie)).json().data;
    stripe.fault({ path: /\/expire$/, times: 1, hangMs: 200 });
    const cancelling = post('stripeCancel', cookie, { orderId });
    // The payment lands while the expire is on its way: Stripe will not expire a complete session.
    await vi.waitUntil(() => stripe.requests.some((r) => r.path.endsWith('/expire')));
    stripe.pay(sessionIdOf(url));
    const res = await cancelling;
    expect(res.json().data).toMatchObject({ paid: true, orderId });
    expect((await order(orderId))?.status).toBe('paid');
    expect(await stock()).toBe(18);
  });

  it('Stripe down when the session is made: a 502, and the reservation is released', async () => {
    const cookie = await addToCart();
    stripe.fault({ path: /^\/v1\/checkout\/sessions$/, times: 2, status: 500 });
    expect((await start(cookie, 'stripe-key-down')).statusCode).toBe(502);
    expect(await stock()).toBe(20);
    expect(await t.database.db.select().from(schema.orders)).toEqual([]);
  });

  it('a store without Stripe refuses with 409; a store with a live key refuses the test card form', async () => {
    const cookie = await addToCart();
    const garden = await t.app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/createStripeSession`,
      headers: { host: 'garden.localhost', 'idempotency-key': 'garden-key-0001' },
      payload: checkoutBody,
    });
    expect(garden.statusCode).toBe(409);
    await connect(LIVE_KEY);
    const card = await t.app.inject({
      method: 'POST',
      url: `${B}/ecommerce/checkout/processorder`,
      headers: { host: LIGHTING, cookie, 'idempotency-key': 'test-card-on-live' },
      payload: {
        ...checkoutBody,
        payment: {
          method: 'card',
          cardNumber: '4242424242424242',
          cvc: '123',
          expMonth: 12,
          expYear: 2034,
          nameOnCard: 'G H',
        },
      },
    });
    expect(card.statusCode).toBe(409);
    expect(card.json().message).toContain('Stripe');
    expect(await stock()).toBe(20);
  });
});

describe('Stripe’s webhook', () => {
  it('confirms the order of a shopper who never came back, after asking Stripe; the same event again changes nothing', async () => {
    const cookie = await addToCart();
    const { url, orderId } = (await start(cookie)).json().data;
    const sessionId = sessionIdOf(url);
    // Signed, but Stripe says unpaid: the event's body is not proof of payment.
    const early = await webhook(completed(sessionId, 'evt_early'));
    expect(early.json()).toEqual({ eventId: 'evt_early', outcome: 'unpaid' });
    expect((await order(orderId))?.status).toBe('placed');

    stripe.pay(sessionId);
    const res = await webhook(completed(sessionId, 'evt_paid'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ eventId: 'evt_paid', outcome: 'paid' });
    expect((await order(orderId))?.status).toBe('paid');
    const again = await webhook(completed(sessionId, 'evt_paid'));
    expect(again.json()).toEqual({ eventId: 'evt_paid', outcome: 'duplicate' });
    // The shopper coming back late finds the paid order.
    expect((await post('stripeReturn', cookie, { sessionId })).json().data).toMatchObject({ paid: true, orderId });
  });

  it('the shopper’s return and the webhook at once confirm the order once: one move to paid', async () => {
    const cookie = await addToCart();
    const { url, orderId } = (await start(cookie)).json().data;
    stripe.pay(sessionIdOf(url));
    const [back, hook] = await Promise.all([
      post('stripeReturn', cookie, { sessionId: sessionIdOf(url) }),
      webhook(completed(sessionIdOf(url), 'evt_at_once')),
    ]);
    expect(back.json().data).toMatchObject({ paid: true, orderId });
    expect(hook.json().outcome).toBe('paid');
    const moves = await t.database.db
      .select()
      .from(schema.orderStatusHistory)
      .where(and(eq(schema.orderStatusHistory.orderId, orderId), eq(schema.orderStatusHistory.status, 'paid')));
    expect(moves).toHaveLength(1);
  });

  it('payment_intent.succeeded confirms the order its metadata names', async () => {
    const cookie = await addToCart();
    const { url, orderId } = (await start(cookie)).json().data;
    stripe.pay(sessionIdOf(url));
    const pi = stripe.session(sessionIdOf(url))?.payment_intent;
    const res = await webhook({
      id: 'evt_pi_1',
      type: 'payment_intent.succeeded',
      data: { object: { id: pi, object: 'payment_intent', metadata: { order_id: orderId } } },
    });
    expect(res.json().outcome).toBe('paid');
    expect((await order(orderId))?.status).toBe('paid');
  });

  it('refuses a forged signature, a changed body and a stale timestamp (400), and applies none of them', async () => {
    const cookie = await addToCart();
    const { url, orderId } = (await start(cookie)).json().data;
    stripe.pay(sessionIdOf(url));
    const event = completed(sessionIdOf(url), 'evt_forged');
    expect((await webhook(event, { secret: 'whsec_attacker' })).statusCode).toBe(400);
    expect((await webhook(event, { signature: 'nonsense' })).statusCode).toBe(400);
    const body = JSON.stringify(event);
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: {
        host: LIGHTING,
        'content-type': 'application/json',
        'stripe-signature': signStripePayload(body, WHSEC),
      },
      payload: body.replace('evt_forged', 'evt_forge2'),
    });
    expect(changed.statusCode).toBe(400);
    const stale = await webhook(event, { at: Math.floor(Date.now() / 1000) - 6 * 60 });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().message).toContain('tolerance');
    expect((await order(orderId))?.status).toBe('placed');
    expect(
      await t.database.db
        .select()
        .from(schema.stripeWebhookEvents)
        .where(eq(schema.stripeWebhookEvents.eventId, 'evt_forged')),
    ).toEqual([]);
  });
});

describe('the sweep of stuck orders, for an order paid through Stripe', () => {
  /** Time passes: the order was placed an hour ago, and the lighting store's sweep runs. */
  async function sweepAfterAnHour(orderId: string) {
    await t.database.db
      .update(schema.orders)
      .set({ placedAt: new Date(Date.now() - 60 * 60_000) })
      .where(eq(schema.orders.orderId, orderId));
    const ctx = systemContext(
      {
        tenantId: 'lighting',
        productStoreId: '9000',
        hostName: LIGHTING,
        viaDevAlias: false,
        origin: `http://${LIGHTING}`,
      },
      'test',
    );
    const job = await t.services.jobs.enqueue(ctx, { type: STUCK_ORDER_SWEEP, payload: {} });
    await t.services.jobs.drain();
    const done = await t.services.jobs.get(ctx, job.id);
    expect(done?.status).toBe('succeeded');
    return done?.result as SweepResult;
  }

  it('an order paid at Stripe whose shopper and webhook never came back is confirmed, not cancelled', async () => {
    const cookie = await addToCart();
    const { url, orderId } = (await start(cookie)).json().data;
    stripe.pay(sessionIdOf(url));
    expect(await sweepAfterAnHour(orderId)).toEqual({ cancelled: [], paid: [orderId], left: [] });
    expect(await order(orderId)).toMatchObject({ status: 'paid', paymentLabel: 'Card (Stripe)' });
    expect(await stock()).toBe(18);
  });

  it('an abandoned session is expired at Stripe before its order is cancelled and its stock goes back', async () => {
    const cookie = await addToCart();
    const { url, orderId } = (await start(cookie)).json().data;
    expect(await sweepAfterAnHour(orderId)).toEqual({ cancelled: [orderId], paid: [], left: [] });
    expect(stripe.session(sessionIdOf(url))?.status).toBe('expired');
    expect((await order(orderId))?.status).toBe('cancelled');
    expect(await stock()).toBe(20);
  });
});

describe('refunds through Stripe', () => {
  it('the order page’s refund goes to Stripe with our refund id as the key; partial refunds add up, no further', async () => {
    const cookie = await addToCart();
    const { url, orderId } = (await start(cookie)).json().data;
    stripe.pay(sessionIdOf(url));
    await post('stripeReturn', cookie, { sessionId: sessionIdOf(url) });
    const total = (await order(orderId))?.grandTotal as number;
    const refund = (amount: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/orders/${orderId}/refund`,
        headers: { host: LIGHTING, origin: `http://${LIGHTING}`, ...owner },
        payload: { amount, notify: false },
      });
    const first = await refund(1_000);
    expect(first.statusCode).toBe(200);
    const sent = stripe.requests.filter((r) => r.path === '/v1/refunds');
    expect(sent[0]?.body).toMatchObject({
      amount: '1000',
      payment_intent: stripe.session(sessionIdOf(url))?.payment_intent,
    });
    expect(sent[0]?.idempotencyKey).toMatch(/^lighting:refund:/);
    expect((await refund(total - 1_000)).statusCode).toBe(200);
    expect(stripe.intent(stripe.session(sessionIdOf(url))?.payment_intent as string)?.refunded).toBe(total);
    // Nothing is left to give back: the order is refunded, and Stripe is not asked again.
    expect((await refund(1)).statusCode).toBe(409);
    expect(stripe.requests.filter((r) => r.path === '/v1/refunds')).toHaveLength(2);
    expect((await order(orderId))?.status).toBe('refunded');
  });
});
