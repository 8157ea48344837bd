import { schema } from '@app/db';
import { SEED_USERS } from '@app/db/seed';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import { shippingRate } from '../shipping/index';
import { quote, taxRateFor } from './checkout/index';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('seeded order history', () => {
  it.each(SEED_USERS.map((u) => [u.email, u] as const))(
    '%s has a delivered, a completed, a paid and a cancelled order, newest first',
    async (_email, u) => {
      const host = SEEDED_HOSTS[u.tenantId as keyof typeof SEEDED_HOSTS].host;
      const session = await signIn(t.app, u.email, u.password, host);
      const res = await t.app.inject({
        method: 'GET',
        url: '/skulocity/api/v1/ecommerce/order/history',
        headers: { host, ...session },
      });
      const prefix = `${u.tenantId.slice(0, 3).toUpperCase()}-DEMO-${u.role === 'admin' ? 'O' : 'S'}`;
      expect(res.json().data.orders.map((o: { orderId: string; status: string }) => [o.orderId, o.status])).toEqual([
        [`${prefix}3`, 'paid'],
        [`${prefix}1`, 'delivered'],
        [`${prefix}4`, 'cancelled'],
        [`${prefix}2`, 'completed'],
      ]);
    },
  );

  it('every seeded order is priced as the checkout prices it: Standard shipping, California tax', async () => {
    const db = t.database.db;
    const orders = await db.select().from(schema.orders).orderBy(asc(schema.orders.orderId));
    expect(orders).toHaveLength(24);
    for (const o of orders) {
      const lines = await db
        .select()
        .from(schema.orderLines)
        .where(and(eq(schema.orderLines.tenantId, o.tenantId), eq(schema.orderLines.orderId, o.orderId)));
      const products = await db.select().from(schema.products).where(eq(schema.products.tenantId, o.tenantId));
      const weightGrams = lines.reduce(
        (s, l) => s + (products.find((p) => p.productId === l.productId)?.weightGrams ?? 0) * l.quantity,
        0,
      );
      for (const l of lines) {
        const p = products.find((x) => x.productId === l.productId);
        expect(l.unitPrice).toBe(p?.salePrice ?? p?.listPrice);
      }
      const subtotal = lines.reduce((s, l) => s + l.lineTotal, 0);
      const [method] = await db
        .select()
        .from(schema.shippingMethods)
        .where(and(eq(schema.shippingMethods.tenantId, o.tenantId), eq(schema.shippingMethods.methodId, 'STANDARD')));
      const rates = await db.select().from(schema.taxRates).where(eq(schema.taxRates.tenantId, o.tenantId));
      if (!method) throw new Error('no Standard method');
      const rate = shippingRate(method, { total: subtotal, weightGrams });
      const q = quote(
        { currency: 'USD', subtotal, discount: 0, total: subtotal },
        rate.rate,
        taxRateFor(rates, 'USA', 'US_CA'),
      );
      expect(
        { subtotal: o.subtotal, shipping: o.shippingTotal, tax: o.taxTotal, total: o.grandTotal },
        o.orderId,
      ).toEqual({ subtotal: q.subtotal, shipping: q.shipping, tax: q.tax, total: q.total });
    }
  });
});
