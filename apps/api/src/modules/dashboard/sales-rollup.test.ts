import { type Db, schema } from '@app/db';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RequestContext, systemContext } from '../../lib/context';
import { placeGuestOrder, stockedProductId } from '../../test/guest-order';
import { createTestApp, type TestApp } from '../../test/harness';
import { transitionOrder } from '../orders/index';
import { createAnalytics, resolveRange } from './analytics';
import { refreshSalesRollup } from './sales-rollup';

// The daily rollups follow every change between two reads of the home: a new paid order, a refund,
// a cancel; and a rebuild from nothing gives the same figures (decision 048).
let t: TestApp;
let db: Db;
let ctx: RequestContext;
const HOST = 'garden.localhost';

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.db;
  ctx = systemContext(
    { tenantId: 'garden', productStoreId: '9001', hostName: HOST, viaDevAlias: false, origin: `http://${HOST}` },
    'rollup-test',
  );
});
afterAll(async () => t?.close());

const figures = async () => {
  const r = resolveRange({ range: '30d' }, new Date());
  const f = await createAnalytics(db).figures('garden', 'USD', r);
  return {
    sales: f.sales.value,
    orders: f.orders.value,
    refunded: f.refunded,
    today: f.series.at(-1),
    top: f.topProducts,
  };
};

describe('sales rollups', () => {
  it('follow a new order, a refund and a cancel between reads, and rebuild to the same figures', async () => {
    const before = await figures();
    const productId = await stockedProductId(db, 'garden');
    const placed = await placeGuestOrder(t.app, { host: HOST, productId, quantity: 2, email: 'rollup@example.com' });
    expect(placed.statusCode).toBe(200);
    const orderId = placed.json().data.orderId as string;
    const [order] = await db
      .select()
      .from(schema.orders)
      .where(and(eq(schema.orders.tenantId, 'garden'), eq(schema.orders.orderId, orderId)));
    if (!order) throw new Error('no order');

    const paid = await figures();
    expect(paid.orders).toBe(before.orders + 1);
    expect(paid.sales).toBe(before.sales + order.grandTotal);
    expect(paid.today?.orders).toBe((before.today?.orders ?? 0) + 1);
    expect(paid.top.map((p) => p.productId)).toContain(productId);

    const refund = await t.services.refunds.refund(ctx, orderId, { amount: 100, lines: [], shipping: 0, reason: '' });
    expect(refund.ok).toBe(true);
    expect((await figures()).refunded).toBe(before.refunded + 100);

    // A cancel takes the order out of the sales (the state machine allows paid -> cancelled).
    await db.transaction(async (tx) => {
      const moved = await transitionOrder(tx, ctx, orderId, 'cancelled', { reason: 'rollup test' });
      expect(moved.ok).toBe(true);
    });
    const cancelled = await figures();
    expect(cancelled.orders).toBe(before.orders);
    expect(cancelled.sales).toBe(before.sales);

    // Dropped and rebuilt from the orders: the same figures.
    for (const table of [
      schema.salesDaily,
      schema.productSalesDaily,
      schema.customerSalesDaily,
      schema.customerFirstOrders,
      schema.salesRollupState,
    ]) {
      await db.delete(table);
    }
    expect(await refreshSalesRollup(db, 'garden')).toEqual({ days: -1 });
    expect(await figures()).toEqual(cancelled);
  });

  it('counts a customer who bought before the period as returning, once, whatever the case of the email', async () => {
    const productId = await stockedProductId(db, 'garden');
    const r = resolveRange({ range: 'today' }, new Date());
    const rate = async () => (await createAnalytics(db).figures('garden', 'USD', r)).returningCustomerRate;
    const email = `returning-${Date.now()}@example.com`;
    // Their first order, ten days ago (moved back before any read of the rollups saw it today).
    const old = await placeGuestOrder(t.app, { host: HOST, productId, email });
    await db
      .update(schema.orders)
      .set({ placedAt: new Date(Date.now() - 10 * 86_400_000) })
      .where(and(eq(schema.orders.tenantId, 'garden'), eq(schema.orders.orderId, old.json().data.orderId)));
    const before = await rate();
    await placeGuestOrder(t.app, { host: HOST, productId, email: email.toUpperCase() });
    await placeGuestOrder(t.app, { host: HOST, productId, email });
    const after = await rate();
    expect(after.value).toBeGreaterThan(before.value);
    // Today's customers: those before, plus this one (twice today, counted once), who is returning.
    const customersToday = await db.execute(
      sql`SELECT count(DISTINCT customer_key) AS n FROM customer_sales_daily
           WHERE tenant_id = 'garden' AND day = (now() AT TIME ZONE 'UTC')::date`,
    );
    const n = Number((customersToday as unknown as { rows: { n: string }[] }).rows[0]?.n);
    expect(after.value).toBeCloseTo(Math.round(((before.value * (n - 1) + 1) / n) * 1000) / 1000, 3);
  });
});
