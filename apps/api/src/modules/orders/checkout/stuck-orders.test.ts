import { randomUUID } from 'node:crypto';
import { schema } from '@app/db';
import { and, asc, eq, gt, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemContext, type TenantContext } from '../../../lib/context';
import { guestCardOrder } from '../../../test/guest-order';
import { createTestApp, type TestApp } from '../../../test/harness';
import { connectStoreToPayPal } from '../../../test/paypal-seller';
import { type PayPalStandIn, startPayPalStandIn } from '../../../test/paypal-stand-in';
import { makeScheduleDue } from '../../../test/schedules';
import { setTestStock } from '../../../test/stock';
import type { MailMessage } from '../../mail/index';
import { createTestPaymentProvider, type PaymentProvider, TEST_CARDS } from '../../payments/index';
import { STUCK_ORDER_SWEEP, type SweepResult } from './stuck-orders';

// Orders left in `placed` by a checkout that never finished (a crash between reserve and confirm),
// settled by the sweep job. The crash is a payment step that does not come back until the test says so.
const LIGHTING = 'lighting.localhost';
const B = '/skulocity/api/v1';
const store: TenantContext = {
  tenantId: 'lighting',
  productStoreId: '9000',
  hostName: LIGHTING,
  viaDevAlias: false,
  origin: `http://${LIGHTING}`,
};

/** The test card provider, whose next charge can be held: the process stalls after reserving. */
const cards = createTestPaymentProvider();
const refunds: string[] = [];
let heldCharge: { reached: () => void; go: Promise<void> } | null = null;
const provider: PaymentProvider = {
  id: cards.id,
  tokenizeCard: (card) => cards.tokenizeCard(card),
  async charge(req) {
    const hold = heldCharge;
    heldCharge = null;
    if (hold) {
      hold.reached();
      await hold.go;
    }
    return cards.charge(req);
  },
  async refund(req) {
    refunds.push(req.chargeId);
    return cards.refund(req);
  },
};
function holdNextCharge() {
  let reached: () => void = () => {};
  let release: () => void = () => {};
  const charged = new Promise<void>((r) => {
    reached = r;
  });
  heldCharge = {
    reached,
    go: new Promise<void>((r) => {
      release = r;
    }),
  };
  return { reached: charged, release };
}

const mail: MailMessage[] = [];
let t: TestApp;
let paypal: PayPalStandIn;
let seller: string;
let productId: string;

beforeAll(async () => {
  paypal = await startPayPalStandIn({ clientId: 'platform-client', clientSecret: 'platform-secret' });
  t = await createTestApp({
    config: {
      PAYPAL_BASE_URL: paypal.url,
      PAYPAL_CLIENT_ID: 'platform-client',
      PAYPAL_CLIENT_SECRET: 'platform-secret',
    },
    paymentProvider: provider,
    mailer: {
      async send(m) {
        mail.push(m);
      },
      close() {},
    },
  });
  // Only a store with a PayPal account of its own offers PayPal (decision 049).
  seller = await connectStoreToPayPal(t, paypal, 'lighting');
  const p = schema.products;
  const [row] = await t.database.db
    .select()
    .from(p)
    .where(and(eq(p.tenantId, 'lighting'), gt(p.stockQuantity, 5), ne(p.productType, 'CONFIGURABLE')))
    .orderBy(asc(p.productId))
    .limit(1);
  if (!row) throw new Error('no product');
  productId = row.productId;
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
  await db.delete(schema.jobs);
  await setTestStock(db, 20, { productId: productId });
  mail.length = 0;
  refunds.length = 0;
});

const shipTo = {
  toName: 'Grace Hopper',
  address1: '1 Market Street',
  city: 'San Francisco',
  postalCode: '94105',
  countryGeoId: 'USA',
  stateProvinceGeoId: 'US_CA',
};
async function guestCart(quantity = 2) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/product/addToCart`,
    headers: { host: LIGHTING },
    payload: { productId, quantity },
  });
  return String([res.headers['set-cookie']].flat()[0]).split(';')[0] as string;
}
const stock = async () =>
  (await t.database.db.select().from(schema.products).where(eq(schema.products.productId, productId)))[0]
    ?.stockQuantity;
const grace = async () =>
  (await t.database.db.select().from(schema.orders).where(eq(schema.orders.email, 'grace@example.com')))[0];
const historyOf = (orderId: string) =>
  t.database.db
    .select()
    .from(schema.orderStatusHistory)
    .where(and(eq(schema.orderStatusHistory.tenantId, 'lighting'), eq(schema.orderStatusHistory.orderId, orderId)))
    .orderBy(asc(schema.orderStatusHistory.seq));
/** Time passes: the order was placed this many minutes ago. */
const placedAgo = (orderId: string, minutes: number) =>
  t.database.db
    .update(schema.orders)
    .set({ placedAt: new Date(Date.now() - minutes * 60_000) })
    .where(eq(schema.orders.orderId, orderId));
/** Runs the lighting store's sweep as the schedule would, and returns its job as a page reads it. */
async function sweep() {
  const job = await t.services.jobs.enqueue(systemContext(store, 'test'), { type: STUCK_ORDER_SWEEP, payload: {} });
  await t.services.jobs.drain();
  const done = await t.services.jobs.get(store, job.id);
  expect(done?.status).toBe('succeeded');
  return done as NonNullable<typeof done> & { result: SweepResult };
}

/** Grace's card order, placed with its charge held: the request under way, and the hold. */
function placeHeld(cookie: string, cardNumber: string = TEST_CARDS.success) {
  const charge = holdNextCharge();
  const body = guestCardOrder('grace@example.com');
  const placing = t.app.inject({
    method: 'POST',
    url: `${B}/ecommerce/checkout/processorder`,
    headers: { host: LIGHTING, cookie, 'idempotency-key': randomUUID() },
    payload: { ...body, payment: { ...body.payment, cardNumber } },
  });
  return { placing, charge };
}

describe('the sweep of orders stuck in placed', () => {
  it('cancels a card order that never got paid and gives its stock back, once', async () => {
    const cookie = await guestCart(2);
    const { placing, charge } = placeHeld(cookie);
    await charge.reached;
    const order = await grace();
    expect(order?.status).toBe('placed');
    expect(await stock()).toBe(18);

    // A young order is left alone: its checkout may still be taking the payment.
    await placedAgo(order?.orderId as string, 5);
    expect((await sweep()).result).toEqual({ cancelled: [], paid: [], left: [] });
    expect((await grace())?.status).toBe('placed');

    await placedAgo(order?.orderId as string, 31);
    const job = await sweep();
    expect(job.result).toEqual({ cancelled: [order?.orderId], paid: [], left: [] });
    expect(job.progress).toEqual({ done: 1, total: 1 });
    expect((await grace())?.status).toBe('cancelled');
    expect(await stock()).toBe(20);
    expect((await historyOf(order?.orderId as string)).at(-1)).toMatchObject({
      fromStatus: 'placed',
      status: 'cancelled',
      reason: 'abandoned: no payment after 30 minutes',
      actorKind: 'system',
      actorId: `job:${STUCK_ORDER_SWEEP}`,
      requestId: job.id,
    });

    // The next run finds nothing to do: the stock went back once.
    expect((await sweep()).result).toEqual({ cancelled: [], paid: [], left: [] });
    expect(await stock()).toBe(20);
    // The books (modules/products/inventory): taken as SOLD and given back as RELEASED, both naming the order.
    const books = await t.database.db
      .select()
      .from(schema.stockMovements)
      .where(
        and(
          eq(schema.stockMovements.tenantId, 'lighting'),
          eq(schema.stockMovements.orderId, order?.orderId as string),
        ),
      );
    expect(books.map((m) => [m.reason, m.productId, m.delta]).sort()).toEqual([
      ['RELEASED', productId, 2],
      ['SOLD', productId, -2],
    ]);
    expect(books.find((m) => m.reason === 'RELEASED')?.actorId).toBe(`job:${STUCK_ORDER_SWEEP}`);

    // The stalled checkout gets its charge through after all: the money goes back, nothing is sold.
    charge.release();
    const res = await placing;
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('the payment has been refunded');
    expect(refunds).toHaveLength(1);
    expect((await grace())?.status).toBe('cancelled');
    expect(await stock()).toBe(20);
    // The change to paid did not happen, so nothing that goes with it did (decision 064): no history
    // row, the cart keeps its lines, and no receipt is enqueued or sent.
    expect((await historyOf(order?.orderId as string)).map((h) => h.status)).toEqual(['placed', 'cancelled']);
    const cart = await t.app.inject({
      method: 'GET',
      url: `${B}/public/ecommerce/cart/showcart`,
      headers: { host: LIGHTING, cookie },
    });
    expect(cart.json().data.cart.shoppingCartSize).toBe(2);
    await t.services.jobs.drain();
    expect(await t.database.db.select().from(schema.jobs).where(eq(schema.jobs.type, 'mail.send'))).toEqual([]);
    expect(mail.filter((m) => m.to === 'grace@example.com')).toEqual([]);
  });

  it('a checkout refused by the card after the sweep cancelled its order gives nothing back a second time', async () => {
    const cookie = await guestCart(4);
    const { placing, charge } = placeHeld(cookie, TEST_CARDS.declined);
    await charge.reached;
    const order = await grace();
    await placedAgo(order?.orderId as string, 31);
    expect((await sweep()).result.cancelled).toEqual([order?.orderId]);
    expect(await stock()).toBe(20);
    charge.release();
    expect((await placing).statusCode).toBe(422);
    // Checkout's undo finds no placed order: the cancelled one stays, its stock is not given back twice.
    expect((await grace())?.status).toBe('cancelled');
    expect(await stock()).toBe(20);
  });

  it('completes a PayPal order that PayPal has captured, instead of cancelling it, and mails the receipt', async () => {
    const cookie = await guestCart(2);
    const created = await t.app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/createPaypalOrder`,
      headers: { host: LIGHTING, cookie },
      payload: { email: 'grace@example.com', shipTo, shippingMethodId: 'STANDARD' },
    });
    const { paypalOrderId, approveUrl } = created.json().data;
    expect((await fetch(approveUrl, { redirect: 'manual' })).status).toBe(302);
    // PayPal takes the money; the shop hears nothing back.
    const held = paypal.holdNextCapture();
    const capturing = t.app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/capturePaypalOrder`,
      headers: { host: LIGHTING, cookie },
      payload: { paypalOrderId },
    });
    await held.captured;
    const order = await grace();
    expect(order?.status).toBe('placed');
    expect(paypal.orders.get(paypalOrderId)?.status).toBe('COMPLETED');
    await placedAgo(order?.orderId as string, 45);

    // PayPal cannot be reached: the order is not cancelled blind; the run says why and the next one settles it.
    paypal.failNextRequest(503);
    const outage = await sweep();
    expect(outage.result).toEqual({ cancelled: [], paid: [], left: [] });
    expect(outage.progress?.errors?.[0]).toContain(order?.orderId);
    expect((await grace())?.status).toBe('placed');

    const job = await sweep();
    expect(job.result).toEqual({ cancelled: [], paid: [order?.orderId], left: [] });
    const after = await grace();
    const captureId = paypal.orders.get(paypalOrderId)?.capture?.id;
    expect(after).toMatchObject({ status: 'paid', paymentRef: captureId, paymentLabel: 'PayPal' });
    expect(await stock()).toBe(18);
    expect((await historyOf(order?.orderId as string)).at(-1)).toMatchObject({
      fromStatus: 'placed',
      status: 'paid',
      reason: `payment found at PayPal by the sweep (capture ${captureId})`,
      actorKind: 'system',
    });
    await t.services.jobs.drain();
    expect(mail.map((m) => [m.to, m.subject])).toEqual([
      ['grace@example.com', `Your Brightside Lighting order ${order?.orderId}`],
    ]);

    // The shopper's browser finally hears back: the same paid order, one capture, one receipt.
    held.release();
    const res = await capturing;
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ orderId: order?.orderId, status: 'paid' });
    expect(paypal.requests.filter((r) => r.path.endsWith('/capture'))).toHaveLength(1);
    expect((await sweep()).result).toEqual({ cancelled: [], paid: [], left: [] });
    await t.services.jobs.drain();
    expect(mail).toHaveLength(1);
    expect(await stock()).toBe(18);
  });

  it('cancels a PayPal order that PayPal never captured; a capture that still comes through is given back', async () => {
    const cookie = await guestCart(3);
    const created = await t.app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/createPaypalOrder`,
      headers: { host: LIGHTING, cookie },
      payload: { email: 'grace@example.com', shipTo, shippingMethodId: 'STANDARD' },
    });
    const { paypalOrderId, approveUrl } = created.json().data;
    await fetch(approveUrl, { redirect: 'manual' });
    const held = paypal.holdNextCapture();
    const capturing = t.app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/capturePaypalOrder`,
      headers: { host: LIGHTING, cookie },
      payload: { paypalOrderId },
    });
    await held.captured;
    // As PayPal would report an approval that was never captured.
    const atPayPal = paypal.orders.get(paypalOrderId);
    if (!atPayPal?.capture) throw new Error('no PayPal capture');
    const taken = atPayPal.capture;
    atPayPal.status = 'APPROVED';
    delete atPayPal.capture;
    const order = await grace();
    await placedAgo(order?.orderId as string, 31);
    expect(await stock()).toBe(17);
    expect((await sweep()).result).toEqual({ cancelled: [order?.orderId], paid: [], left: [] });
    expect(await stock()).toBe(20);
    // The capture PayPal made after all arrives: the money goes back to the shopper, from the seller's account.
    atPayPal.status = 'COMPLETED';
    atPayPal.capture = taken;
    held.release();
    // The shop's late confirmation finds the order cancelled: the shopper is told, nothing is sold.
    const late = await capturing;
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toContain('the payment has been refunded');
    expect(paypal.refunds.filter((r) => r.captureId === taken.id)).toEqual([
      expect.objectContaining({ amount: taken.amount }),
    ]);
    const refundCall = paypal.requests.find((r) => r.path === `/v2/payments/captures/${taken.id}/refund`);
    const assertion = String(refundCall?.headers['paypal-auth-assertion']).split('.')[1] ?? '';
    expect(JSON.parse(Buffer.from(assertion, 'base64url').toString('utf8'))).toMatchObject({ payer_id: seller });
    expect((await grace())?.status).toBe('cancelled');
    expect(await stock()).toBe(20);
  });

  it('runs nightly for every store, once however often the schedule is checked', async () => {
    await makeScheduleDue(t, STUCK_ORDER_SWEEP);
    const [a, b] = await Promise.all([t.services.jobs.runSchedules(), t.services.jobs.runSchedules()]);
    expect((a ?? 0) + (b ?? 0)).toBe(3);
    await t.services.jobs.drain();
    const jobs = await t.database.db
      .select()
      .from(schema.jobs)
      .where(eq(schema.jobs.type, STUCK_ORDER_SWEEP))
      .orderBy(asc(schema.jobs.tenantId));
    expect(jobs.map((j) => [j.tenantId, j.status])).toEqual([
      ['garden', 'succeeded'],
      ['lighting', 'succeeded'],
      ['power', 'succeeded'],
    ]);
    expect(jobs[0]?.context.enqueuedBy).toBe(`system:schedule:${STUCK_ORDER_SWEEP}`);
  });
});

describe('a retry of a checkout left in doubt', () => {
  it('never answers success for an unpaid order, and finishes it once its checkout has died', async () => {
    const cookie = await guestCart(2);
    const key = randomUUID();
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: `${B}/ecommerce/checkout/processorder`,
        headers: { host: LIGHTING, cookie, 'idempotency-key': key },
        payload: {
          email: 'grace@example.com',
          shipTo,
          shippingMethodId: 'STANDARD',
          payment: {
            method: 'card',
            cardNumber: TEST_CARDS.success,
            cvc: '123',
            expMonth: 12,
            expYear: 2099,
            nameOnCard: 'G H',
          },
        },
      });
    const charge = holdNextCharge();
    const first = send();
    await charge.reached;
    const order = await grace();
    if (!order) throw new Error('no order');

    // The first request is still taking the payment: the retry waits, then says so, without success.
    const early = await send();
    expect(early.statusCode).toBe(409);
    expect(early.headers['retry-after']).toBe('5');
    expect(early.json().message).toContain('still being confirmed');
    expect((await grace())?.status).toBe('placed');

    // Its process died (the order is older than any live checkout): the retry charges under the same
    // provider key and confirms. The stock was taken once, by the reservation.
    await placedAgo(order.orderId, 10);
    const retry = await send();
    expect(retry.statusCode).toBe(200);
    expect(retry.json().data).toMatchObject({ orderId: order.orderId, status: 'paid' });
    expect(await stock()).toBe(18);

    // Had the first one lived on, its charge is the same charge, and it finds the order paid.
    charge.release();
    const late = await first;
    expect(late.statusCode).toBe(200);
    expect(late.json().data.orderId).toBe(order.orderId);
    expect(refunds).toEqual([]);
    const orders = await t.database.db.select().from(schema.orders).where(eq(schema.orders.email, 'grace@example.com'));
    expect(orders).toHaveLength(1);
    expect(await stock()).toBe(18);
  });
});
