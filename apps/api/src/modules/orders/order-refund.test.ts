import { type Db, schema } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RequestContext, systemContext } from '../../lib/context';
import { placeGuestOrder, stockedProductId } from '../../test/guest-order';
import { createTestApp, type TestApp } from '../../test/harness';
import { startPayPalStandIn } from '../../test/paypal-stand-in';
import { createPayPalClient, createTestPaymentProvider, type PaymentProvider } from '../payments/index';
import { createOrderRefunds } from './order-refund';

// The one way money goes back (refundOrder): never more than captured, by line, once per key,
// through the provider that took it, and the order's books follow.
let t: TestApp;
let db: Db;
let ctx: RequestContext;
const HOST = 'lighting.localhost';

const tenant = (tenantId: string) => ({
  tenantId,
  productStoreId: '9000',
  hostName: `${tenantId}.localhost`,
  viaDevAlias: false,
  origin: `http://${tenantId}.localhost`,
});

/** The test provider, counting the refunds it was asked for (and by which key). */
const asked: string[] = [];
let refuseNext = false;
function countingProvider(): PaymentProvider {
  const inner = createTestPaymentProvider();
  return {
    id: inner.id,
    tokenizeCard: (c) => inner.tokenizeCard(c),
    charge: (r) => inner.charge(r),
    async refund(req) {
      asked.push(req.idempotencyKey);
      if (refuseNext) {
        refuseNext = false;
        return { ok: false, reason: 'declined', message: 'The bank refused the refund' };
      }
      return inner.refund(req);
    },
  };
}

async function paidOrder(quantity = 2) {
  const productId = await stockedProductId(db, 'lighting');
  const res = await placeGuestOrder(t.app, { host: HOST, productId, quantity });
  expect(res.statusCode).toBe(200);
  const orderId = res.json().data.orderId as string;
  const [order] = await db
    .select()
    .from(schema.orders)
    .where(and(eq(schema.orders.tenantId, 'lighting'), eq(schema.orders.orderId, orderId)));
  if (!order) throw new Error('no order');
  return order;
}

const orderRow = async (orderId: string) =>
  (
    await db
      .select()
      .from(schema.orders)
      .where(and(eq(schema.orders.tenantId, 'lighting'), eq(schema.orders.orderId, orderId)))
  )[0];

beforeAll(async () => {
  t = await createTestApp({ paymentProvider: countingProvider() });
  db = t.database.db;
  ctx = systemContext(tenant('lighting'), 'refund-test');
});
afterAll(async () => t?.close());

describe('refundOrder', () => {
  it('records the capture at payment, refunds a line partially, then the rest, and the order becomes refunded', async () => {
    const order = await paidOrder(2);
    expect(order.status).toBe('paid');
    expect(order.capturedAmount).toBe(order.grandTotal);
    const [line] = await db
      .select()
      .from(schema.orderLines)
      .where(and(eq(schema.orderLines.tenantId, 'lighting'), eq(schema.orderLines.orderId, order.orderId)));
    if (!line) throw new Error('no line');

    const first = await t.services.refunds.refund(ctx, order.orderId, {
      amount: line.unitPrice,
      lines: [{ lineNo: 1, quantity: 1 }],
      shipping: 0,
      reason: 'One arrived scratched',
    });
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.fullyRefunded).toBe(false);
    expect(first.order.status).toBe('paid');
    expect((await orderRow(order.orderId))?.refundedAmount).toBe(line.unitPrice);

    // The line has one unit left to refund: two is refused, naming the product.
    const tooMany = await t.services.refunds.refund(ctx, order.orderId, {
      amount: 1,
      lines: [{ lineNo: 1, quantity: 2 }],
      shipping: 0,
      reason: '',
    });
    expect(tooMany).toMatchObject({ ok: false, code: 'LINE_EXCEEDS', field: 'lines' });

    // More than is left of the capture is refused, and nothing is written.
    const left = order.grandTotal - line.unitPrice;
    const over = await t.services.refunds.refund(ctx, order.orderId, {
      amount: left + 1,
      lines: [],
      shipping: 0,
      reason: '',
    });
    expect(over).toMatchObject({ ok: false, code: 'REFUND_EXCEEDS_CAPTURED', field: 'amount' });
    expect((await orderRow(order.orderId))?.refundedAmount).toBe(line.unitPrice);

    const rest = await t.services.refunds.refund(ctx, order.orderId, {
      amount: left,
      lines: [],
      shipping: 0,
      reason: '',
    });
    expect(rest).toMatchObject({
      ok: true,
      fullyRefunded: true,
      order: { status: 'refunded', refundedAmount: order.grandTotal },
    });

    const history = await db
      .select({ status: schema.orderStatusHistory.status })
      .from(schema.orderStatusHistory)
      .where(
        and(eq(schema.orderStatusHistory.tenantId, 'lighting'), eq(schema.orderStatusHistory.orderId, order.orderId)),
      )
      .orderBy(asc(schema.orderStatusHistory.seq));
    expect(history.map((h) => h.status)).toEqual(['placed', 'paid', 'refunded']);
    const events = await db
      .select({ kind: schema.orderEvents.kind, visible: schema.orderEvents.visibleToShopper })
      .from(schema.orderEvents)
      .where(and(eq(schema.orderEvents.tenantId, 'lighting'), eq(schema.orderEvents.orderId, order.orderId)));
    expect(events.filter((e) => e.kind === 'refund' && e.visible)).toHaveLength(2);
    const audits = await db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.tenantId, 'lighting'), eq(schema.auditLog.entityId, order.orderId)));
    expect(audits.filter((a) => a.action === 'refund')).toHaveLength(2);
  });

  it('concurrent refunds never together exceed the capture', async () => {
    const order = await paidOrder(1);
    const half = Math.ceil(order.grandTotal / 2) + 1;
    const results = await Promise.all(
      [0, 1, 2].map(() =>
        t.services.refunds.refund(ctx, order.orderId, { amount: half, lines: [], shipping: 0, reason: '' }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const row = await orderRow(order.orderId);
    expect(row?.refundedAmount).toBe(half);
  });

  it('a refund the provider refuses is recorded failed and refunds nothing', async () => {
    const order = await paidOrder(1);
    refuseNext = true;
    const refused = await t.services.refunds.refund(ctx, order.orderId, {
      amount: 100,
      lines: [],
      shipping: 0,
      reason: '',
    });
    expect(refused).toMatchObject({ ok: false, code: 'REFUND_DECLINED' });
    if (refused.ok) return;
    expect(refused.message).toContain('The bank refused the refund');
    expect((await orderRow(order.orderId))?.refundedAmount).toBe(0);
    const refunds = await t.services.refunds.list(ctx, order.orderId);
    expect(refunds.map((r) => r.status)).toEqual(['failed']);
    // The failed one holds nothing back: the whole amount can still be refunded.
    const all = await t.services.refunds.refund(ctx, order.orderId, {
      amount: order.grandTotal,
      lines: [],
      shipping: 0,
      reason: '',
    });
    expect(all.ok).toBe(true);
  });

  it('an order of another store is not found, and an unpaid one is not refundable', async () => {
    const order = await paidOrder(1);
    const garden = systemContext(tenant('garden'), 'refund-test');
    await expect(
      t.services.refunds.refund(garden, order.orderId, { amount: 1, lines: [], shipping: 0, reason: '' }),
    ).rejects.toMatchObject({ statusCode: 404 });
    expect((await orderRow(order.orderId))?.refundedAmount).toBe(0);
    const [cancelled] = await db
      .select({ orderId: schema.orders.orderId })
      .from(schema.orders)
      .where(and(eq(schema.orders.tenantId, 'lighting'), eq(schema.orders.status, 'cancelled')))
      .limit(1);
    if (!cancelled) throw new Error('the seed has a cancelled order');
    const none = await t.services.refunds.refund(ctx, cancelled.orderId, {
      amount: 1,
      lines: [],
      shipping: 0,
      reason: '',
    });
    expect(none).toMatchObject({ ok: false, code: 'NOT_REFUNDABLE' });
  });

  it('asks with the refund id as the idempotency key, once per refund', async () => {
    asked.length = 0;
    const order = await paidOrder(1);
    const r = await t.services.refunds.refund(ctx, order.orderId, { amount: 50, lines: [], shipping: 0, reason: '' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(asked).toEqual([`lighting:refund:${r.refund.refundId}`]);
  });
});

describe('refunds through PayPal (the stand-in)', () => {
  it('refunds part of a capture at PayPal, refuses more than is left, and keeps the request id', async () => {
    const standIn = await startPayPalStandIn({ clientId: 'cid', clientSecret: 'secret' });
    try {
      const paypal = createPayPalClient({ baseUrl: standIn.url, clientId: 'cid', clientSecret: 'secret' });
      const created = await paypal.createOrder({
        amountMinor: 5000,
        currency: 'USD',
        referenceId: 'LIG-TEST',
        requestId: 'create-1',
        returnUrl: 'http://lighting.localhost/return',
        cancelUrl: 'http://lighting.localhost/cancel',
      });
      await fetch(created.approveUrl, { redirect: 'manual' });
      const capture = await paypal.captureOrder(created.id, 'capture-1');
      if (!capture.ok) throw new Error('capture failed');
      const order = await paidOrder(1);
      // The order as PayPal's checkout would have written it.
      await db
        .update(schema.orders)
        .set({
          paymentProvider: 'paypal',
          paymentRef: capture.captureId,
          capturedAmount: 5000,
          grandTotal: 5000,
          subtotal: 5000,
          shippingTotal: 0,
          taxTotal: 0,
          discount: 0,
        })
        .where(and(eq(schema.orders.tenantId, 'lighting'), eq(schema.orders.orderId, order.orderId)));
      const refunds = createOrderRefunds(db, {
        provider: createTestPaymentProvider(),
        // An order from before stores had their own PayPal accounts: paid into the platform's.
        paymentAccounts: {
          forOrder: async (_tenantId, account) => (account === null ? { client: paypal, account } : null),
        },
        audit: { record: async () => null },
        events: t.services.events,
      });
      const part = await refunds.refund(ctx, order.orderId, {
        amount: 1250,
        lines: [],
        shipping: 0,
        reason: 'Scratched',
      });
      expect(part.ok).toBe(true);
      expect(standIn.refunds.map((r) => [r.captureId, r.amount.value, r.noteToPayer])).toEqual([
        [capture.captureId, '12.50', 'Scratched'],
      ]);
      const refundCall = standIn.requests.find((r) => r.path.endsWith('/refund'));
      expect(refundCall?.headers['paypal-request-id']).toMatch(/^lighting:refund:RF-/);

      standIn.refuseNextRefund('TRANSACTION_REFUSED');
      const refused = await refunds.refund(ctx, order.orderId, { amount: 100, lines: [], shipping: 0, reason: '' });
      expect(refused).toMatchObject({ ok: false, code: 'REFUND_DECLINED' });

      const rest = await refunds.refund(ctx, order.orderId, { amount: 3750, lines: [], shipping: 0, reason: '' });
      expect(rest).toMatchObject({ ok: true, fullyRefunded: true });
      expect(standIn.refunds).toHaveLength(2);
    } finally {
      await standIn.close();
    }
  });
});
