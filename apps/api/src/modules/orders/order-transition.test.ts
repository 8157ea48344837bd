import type { OrderStatus } from '@app/contracts';
import { schema } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS, type RequestContext, systemContext, type TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { placeGuestOrder, stockedProductId } from '../../test/guest-order';
import { createTestApp, type TestApp } from '../../test/harness';
import { ORDER_TRANSITIONS } from './order-state';
import { transitionOrder, transitionRefused } from './order-transition';

const LIGHTING = 'lighting.localhost';
const B = '/skulocity/api/v1';
const store: TenantContext = {
  tenantId: 'lighting',
  productStoreId: '9000',
  hostName: LIGHTING,
  viaDevAlias: false,
  origin: `http://${LIGHTING}`,
};
/** The lighting store's owner, as the request context of an owner route will name them. */
const owner: RequestContext = {
  ...store,
  requestId: 'req0000000000001',
  ip: '10.0.0.9',
  actor: {
    kind: 'staff',
    role: 'admin',
    permissions: new Set(PERMISSIONS),
    userId: 'LIG-U-OWNER',
    firstName: 'Olivia',
    userLoginId: 'owner@lighting.test',
    session: { token: 'not-used-here', via: 'cookie' },
  },
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const o = schema.orders;
const oh = schema.orderStatusHistory;
const statusOf = async (orderId: string, tenantId = 'lighting') =>
  (
    await t.database.db
      .select({ status: o.status })
      .from(o)
      .where(and(eq(o.tenantId, tenantId), eq(o.orderId, orderId)))
  )[0]?.status;
const historyOf = (orderId: string) =>
  t.database.db
    .select()
    .from(oh)
    .where(and(eq(oh.tenantId, 'lighting'), eq(oh.orderId, orderId)))
    .orderBy(asc(oh.seq));
const move = (ctx: RequestContext, orderId: string, to: OrderStatus, options = {}) =>
  t.database.db.transaction((tx) => transitionOrder(tx, ctx, orderId, to, options));

const accessKeys = new Map<string, string>();
/** A new paid order of a guest, placed through checkout. */
async function paidOrder(): Promise<string> {
  const productId = await stockedProductId(t.database.db, 'lighting');
  const res = await placeGuestOrder(t.app, { host: LIGHTING, productId });
  expect(res.statusCode).toBe(200);
  const { orderId, accessKey } = res.json().data;
  accessKeys.set(orderId, accessKey);
  return orderId as string;
}

describe('transitionOrder', () => {
  it('checkout moves an order placed → paid through it, and the history says from what and by whom', async () => {
    const orderId = await paidOrder();
    expect(await statusOf(orderId)).toBe('paid');
    const history = await historyOf(orderId);
    expect(history.map((h) => [h.seq, h.fromStatus, h.status])).toEqual([
      [1, null, 'placed'],
      [2, 'placed', 'paid'],
    ]);
    // A guest placed it: the history names the guest (no account) and the request that did it.
    expect(history[1]).toMatchObject({ actorKind: 'guest', actorId: null, note: 'Payment received (Visa)' });
    expect(history[1]?.requestId).toMatch(/^[A-Za-z0-9]{16}$/);
  });

  it('writes the status and a history row naming the staff member, the request and the reason', async () => {
    const orderId = await paidOrder();
    const moved = await move(owner, orderId, 'fulfilled', {
      note: 'Shipped with Standard',
      reason: 'packed by Olivia',
    });
    expect(moved).toMatchObject({ ok: true, from: 'paid', order: { orderId, status: 'fulfilled' } });
    expect(await statusOf(orderId)).toBe('fulfilled');
    const last = (await historyOf(orderId)).at(-1);
    expect(last).toMatchObject({
      seq: 3,
      fromStatus: 'paid',
      status: 'fulfilled',
      note: 'Shipped with Standard',
      reason: 'packed by Olivia',
      actorKind: 'staff',
      actorId: 'LIG-U-OWNER',
      requestId: 'req0000000000001',
    });
    // The shopper's view of the order shows the new step, with its note and not the store's reason.
    const view = await t.app.inject({
      url: `${B}/ecommerce/order/status?orderId=${orderId}&key=${encodeURIComponent(accessKeys.get(orderId) ?? '')}`,
      headers: { host: LIGHTING },
    });
    expect(view.json().data).toMatchObject({ status: 'fulfilled', statusLabel: 'Shipped' });
    expect(view.json().data.history.at(-1)).toEqual({
      status: 'fulfilled',
      note: 'Shipped with Standard',
      at: expect.any(String),
    });
  });

  it('refuses a transition that is not in the table, and changes nothing', async () => {
    // Seeded: the shopper's first order was delivered.
    const before = await historyOf('LIG-DEMO-S1');
    const refused = await move(owner, 'LIG-DEMO-S1', 'paid');
    expect(refused).toEqual({
      ok: false,
      code: 'INVALID_TRANSITION',
      from: 'delivered',
      to: 'paid',
      message: 'Order LIG-DEMO-S1 is delivered; it cannot become paid.',
    });
    expect(await statusOf('LIG-DEMO-S1')).toBe('delivered');
    expect(await historyOf('LIG-DEMO-S1')).toEqual(before);
    // A cancelled order is an end: nothing leaves it.
    expect(ORDER_TRANSITIONS.cancelled).toEqual([]);
    expect((await move(owner, 'LIG-DEMO-S4', 'paid')).ok).toBe(false);
    // Operations return it as a 409 refusal with a stable code and the same words.
    const refusal = transitionRefused(refused as Extract<typeof refused, { ok: false }>);
    expect(refusal).toEqual({
      ok: false,
      status: 409,
      code: 'INVALID_TRANSITION',
      message: 'Order LIG-DEMO-S1 is delivered; it cannot become paid.',
    });
  });

  it('refuses when the order is no longer in the status the caller decided from', async () => {
    const orderId = await paidOrder();
    await move(owner, orderId, 'fulfilled');
    // paid → cancelled is in the table, but this caller saw a paid order and it has shipped since.
    const stale = await move(owner, orderId, 'cancelled', { from: 'paid' });
    expect(stale).toMatchObject({ ok: false, from: 'fulfilled', to: 'cancelled' });
    expect(await statusOf(orderId)).toBe('fulfilled');
  });

  it('two transitions of one order at once from the same state: one wins, the other is refused', async () => {
    const first = await paidOrder();
    const sweep = systemContext(store, 'job:test');
    const both = await Promise.all([
      move(owner, first, 'fulfilled', { from: 'paid' }),
      move(sweep, first, 'cancelled', { from: 'paid' }),
    ]);
    expect(both.filter((r) => r.ok)).toHaveLength(1);
    expect(both.filter((r) => !r.ok)).toHaveLength(1);
    const winner = both.find((r) => r.ok);
    const history = await historyOf(first);
    expect(history).toHaveLength(3);
    expect(await statusOf(first)).toBe(winner?.ok ? winner.order.status : 'none');

    // The same target twice (a double-clicked "refund"): refunded once.
    const second = await paidOrder();
    const twice = await Promise.all([move(owner, second, 'refunded'), move(owner, second, 'refunded')]);
    expect(twice.map((r) => r.ok).sort()).toEqual([false, true]);
    expect((await historyOf(second)).filter((h) => h.status === 'refunded')).toHaveLength(1);
  });

  it("an unknown order, or another store's, is not found", async () => {
    await expect(move(owner, 'LIG-NOPE', 'paid')).rejects.toMatchObject({ statusCode: 404 });
    // The garden store's seeded paid order, asked for from the lighting store.
    await expect(move(owner, 'GAR-DEMO-S3', 'fulfilled')).rejects.toBeInstanceOf(AppError);
    expect(await statusOf('GAR-DEMO-S3', 'garden')).toBe('paid');
  });
});
