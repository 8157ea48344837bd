import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestApp } from '../../test/harness';
import { setTestStock } from '../../test/stock';

// "Buy again" on the seeded order history: LIG-DEMO-S1 is shopper@lighting.test's delivered order.
let t: TestApp;
const LIGHTING = 'lighting.localhost';
const GARDEN = 'garden.localhost';
const URL = '/skulocity/api/v1/ecommerce/order/reorder';
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.database.db.delete(schema.carts);
});

const reorder = (headers: Record<string, string>, orderId: string, host = LIGHTING) =>
  t.app.inject({ method: 'POST', url: URL, headers: { host, ...headers }, payload: { orderId } });

describe('buy again', () => {
  it("puts the order's lines in the shopper's cart at today's prices", async () => {
    const sam = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
    const lines = await t.database.db
      .select()
      .from(schema.orderLines)
      .where(and(eq(schema.orderLines.tenantId, 'lighting'), eq(schema.orderLines.orderId, 'LIG-DEMO-S1')));
    expect(lines.length).toBeGreaterThan(0);
    const res = await reorder(sam, 'LIG-DEMO-S1');
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d.added + d.skipped.length).toBe(lines.length);
    const cart = await t.app.inject({
      method: 'GET',
      url: '/skulocity/api/v1/public/ecommerce/cart/showcart',
      headers: { host: LIGHTING, ...sam },
    });
    const inCart = cart.json().data.cart;
    expect(inCart.shoppingCartSize).toBe(d.shoppingCartSize);
    for (const l of lines.filter((x) => !x.optionsText)) {
      expect(inCart.lines.map((c: { productId: string }) => c.productId)).toContain(l.productId);
    }
  });

  it('names a line that sold out since, and adds the rest', async () => {
    const sam = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
    const [line] = await t.database.db
      .select()
      .from(schema.orderLines)
      .where(and(eq(schema.orderLines.tenantId, 'lighting'), eq(schema.orderLines.orderId, 'LIG-DEMO-S1')));
    if (!line) throw new Error('seeded order has no lines');
    const p = schema.products;
    const [before] = await t.database.db
      .select({ stock: p.stockQuantity })
      .from(p)
      .where(and(eq(p.tenantId, 'lighting'), eq(p.productId, line.productId)));
    await setTestStock(t.database.db, 0, { tenantId: 'lighting', productId: line.productId });
    try {
      const d = (await reorder(sam, 'LIG-DEMO-S1')).json().data;
      expect(d.skipped.map((s: { productName: string }) => s.productName)).toContain(line.productName);
    } finally {
      await setTestStock(t.database.db, before?.stock ?? 10, { tenantId: 'lighting', productId: line.productId });
    }
  });

  it("another shopper's order, another store's order and a guest get nothing", async () => {
    const owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
    expect((await reorder(owner, 'LIG-DEMO-S1')).statusCode).toBe(404);
    const gardener = await signIn(t.app, 'shopper@garden.test', 'shopper-demo-1', GARDEN);
    expect((await reorder(gardener, 'LIG-DEMO-S1', GARDEN)).statusCode).toBe(404);
    expect((await reorder({}, 'LIG-DEMO-S1')).statusCode).toBe(401);
    const sam = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
    expect((await reorder({ cookie: sam.cookie }, 'LIG-DEMO-S1')).statusCode).toBe(403);
    const bad = await t.app.inject({ method: 'POST', url: URL, headers: { host: LIGHTING, ...sam }, payload: {} });
    expect(bad.statusCode).toBe(400);
    expect(await t.database.db.select().from(schema.cartLines)).toHaveLength(0);
  });
});
