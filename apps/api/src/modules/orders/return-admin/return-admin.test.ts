import { schema } from '@app/db';
import { and, asc, eq, gte } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../test/harness';
import { createTestSmtp } from '../../../test/smtp';
import { createStaff } from '../../../test/staff';
import { createMailer } from '../../mail/index';
import { lineRefundValue } from './return-admin.service';

/**
 * The store's side of returns through the routes, on the seeded delivered order of the lighting
 * shopper (LIG-DEMO-S1: line 1 two units, line 2 one unit), with mail through a real SMTP server.
 */
const LIGHTING = 'lighting.localhost';
const GARDEN = 'garden.localhost';
const B = '/skulocity/api/v1';
const R = '/api/v1/returns';
const ORDER = 'LIG-DEMO-S1';

const smtp = createTestSmtp();
const received = smtp.received;
/** A mail's text as written (quoted-printable soft breaks and escapes undone). */
const plain = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
    .replace(/\r\n/g, '\n');

let t: TestApp;
let owner: BrowserSession;
let shopper: BrowserSession;
let gardenOwner: BrowserSession;
let catalogStaff: BrowserSession;
let ordersStaff: BrowserSession;
let since = new Date();
const stockEvents: string[][] = [];
const returnEvents: { returnId: string; from: string; to: string }[] = [];

beforeAll(async () => {
  const smtpUrl = await smtp.listen();
  t = await createTestApp({
    mailer: createMailer({ smtpUrl, from: 'Shop <no-reply@shop.test>', outboxDir: '' }),
  });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
  shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
  gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
  await createStaff(t.database, 'lighting', 'returns-catalog@lighting.test', ['catalog']);
  await createStaff(t.database, 'lighting', 'returns-orders@lighting.test', ['orders']);
  catalogStaff = await signIn(t.app, 'returns-catalog@lighting.test', 'owner-demo-1', LIGHTING);
  ordersStaff = await signIn(t.app, 'returns-orders@lighting.test', 'owner-demo-1', LIGHTING);
  t.services.events.on('stock.changed', (e) => {
    if (e.tenantId === 'lighting') stockEvents.push(e.productIds);
  });
  t.services.events.on('return.transitioned', (e) => {
    returnEvents.push({ returnId: e.returnId, from: e.from, to: e.to });
  });
});
afterAll(async () => {
  await t?.close();
  await smtp.close();
});
beforeEach(async () => {
  await t.services.jobs.drain();
  received.length = 0;
  stockEvents.length = 0;
  returnEvents.length = 0;
  const db = t.database.db;
  await db.delete(schema.returnRequests).where(eq(schema.returnRequests.orderId, ORDER));
  // Return ids are numbered per order and audit entries are never deleted: a test reads its own.
  since = new Date();
  await db.delete(schema.orderEvents).where(eq(schema.orderEvents.orderId, ORDER));
  await db.delete(schema.stockMovements).where(eq(schema.stockMovements.orderId, ORDER));
  await db.delete(schema.orderRefunds).where(eq(schema.orderRefunds.orderId, ORDER));
  await db
    .update(schema.orders)
    .set({ refundedAmount: 0, status: 'delivered' })
    .where(and(eq(schema.orders.tenantId, 'lighting'), eq(schema.orders.orderId, ORDER)));
});

function call(
  method: 'GET' | 'POST',
  url: string,
  opts: { body?: unknown; session?: BrowserSession | null; host?: string } = {},
) {
  const host = opts.host ?? LIGHTING;
  return t.app.inject({
    method,
    url,
    headers: { host, origin: `http://${host}`, ...(opts.session === null ? {} : (opts.session ?? owner)) },
    ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
  });
}

/** The shopper asks for a return, as the storefront does. */
async function ask(lines: { lineNo: number; quantity: number }[], reason = 'damaged'): Promise<string> {
  const res = await call('POST', `${B}/ecommerce/createreturns`, {
    session: shopper,
    body: { orderId: ORDER, lines, reason, note: 'The box was crushed' },
  });
  expect(res.statusCode).toBe(200);
  return res.json().data.returnId as string;
}

const approve = (id: string, instructions = 'Send it to 1 Warehouse Road, Oakland CA 94607.') =>
  call('POST', `${R}/${encodeURIComponent(id)}/approve`, { body: { instructions } });
const receive = (id: string, lines: { lineNo: number; restock: number }[]) =>
  call('POST', `${R}/${encodeURIComponent(id)}/receive`, { body: { lines } });

async function stockOf(productId: string) {
  const [row] = await t.database.db
    .select({ n: schema.products.stockQuantity })
    .from(schema.products)
    .where(and(eq(schema.products.tenantId, 'lighting'), eq(schema.products.productId, productId)));
  return row?.n as number;
}
async function orderRow() {
  const [row] = await t.database.db
    .select()
    .from(schema.orders)
    .where(and(eq(schema.orders.tenantId, 'lighting'), eq(schema.orders.orderId, ORDER)));
  return row as typeof schema.orders.$inferSelect;
}
async function auditOf(returnId: string) {
  return t.database.db
    .select()
    .from(schema.auditLog)
    .where(
      and(
        eq(schema.auditLog.tenantId, 'lighting'),
        eq(schema.auditLog.entityId, returnId),
        gte(schema.auditLog.createdAt, since),
      ),
    )
    .orderBy(asc(schema.auditLog.createdAt));
}
async function timeline() {
  return t.database.db
    .select()
    .from(schema.orderEvents)
    .where(and(eq(schema.orderEvents.tenantId, 'lighting'), eq(schema.orderEvents.orderId, ORDER)))
    .orderBy(asc(schema.orderEvents.createdAt));
}
async function shopperView(id: string) {
  const res = await call('GET', `${B}/ecommerce/order/status?orderId=${ORDER}`, { session: shopper });
  expect(res.statusCode).toBe(200);
  return (res.json().data.returns as { returnId: string; status: string; history: Record<string, unknown>[] }[]).find(
    (r) => r.returnId === id,
  );
}
async function mailTo(email: string) {
  await t.services.jobs.drain();
  return received.filter((m) => m.to.includes(email)).map((m) => plain(m.raw));
}

describe('who may use the returns routes', () => {
  it('visitor 401, shopper 403, staff without orders 403, staff with orders 200; another store 404', async () => {
    const id = await ask([{ lineNo: 1, quantity: 1 }]);
    expect((await call('GET', R, { session: null })).statusCode).toBe(401);
    expect((await call('GET', R, { session: shopper })).statusCode).toBe(403);
    expect((await call('GET', R, { session: catalogStaff })).statusCode).toBe(403);
    const asStaff = await call('GET', `${R}/${id}`, { session: ordersStaff });
    expect(asStaff.statusCode).toBe(200);
    expect((await call('POST', `${R}/${id}/approve`, { session: null, body: { instructions: 'x' } })).statusCode).toBe(
      401,
    );
    expect(
      (await call('POST', `${R}/${id}/approve`, { session: shopper, body: { instructions: 'x' } })).statusCode,
    ).toBe(403);
    expect(
      (await call('POST', `${R}/${id}/approve`, { session: catalogStaff, body: { instructions: 'x' } })).statusCode,
    ).toBe(403);
    // The garden owner names the lighting return on their own store: as if it did not exist.
    const foreign = await call('GET', `${R}/${id}`, { session: gardenOwner, host: GARDEN });
    expect(foreign.statusCode).toBe(404);
    const foreignApprove = await call('POST', `${R}/${id}/approve`, {
      session: gardenOwner,
      host: GARDEN,
      body: { instructions: 'Send it to us' },
    });
    expect(foreignApprove.statusCode).toBe(404);
    const list = await call('GET', R, { session: gardenOwner, host: GARDEN });
    expect(list.json().data.items.map((r: { returnId: string }) => r.returnId)).not.toContain(id);
    expect((await call('GET', `${R}/${id}`)).json().data.status).toBe('requested');
  });
});

describe('the list', () => {
  it('newest first, with a tab, a search by order id or email, and keyset pages', async () => {
    const first = await ask([{ lineNo: 1, quantity: 1 }]);
    const second = await ask([{ lineNo: 2, quantity: 1 }], 'changed-mind');
    await approve(first);
    const all = (await call('GET', R)).json().data;
    const ours = all.items.filter((r: { orderId: string }) => r.orderId === ORDER);
    expect(ours.map((r: { returnId: string }) => r.returnId)).toEqual([second, first]);
    expect(ours[1]).toMatchObject({
      returnId: first,
      orderId: ORDER,
      customer: { userId: expect.any(String), email: 'shopper@lighting.test' },
      items: 1,
      reason: 'damaged',
      reasonLabel: 'Arrived damaged',
      status: 'approved',
      statusLabel: 'Approved',
    });
    const requested = (await call('GET', `${R}?status=requested`)).json().data.items;
    expect(requested.map((r: { returnId: string }) => r.returnId)).toContain(second);
    expect(requested.map((r: { returnId: string }) => r.returnId)).not.toContain(first);
    const approvedTab = (await call('GET', `${R}?status=approved`)).json().data.items;
    expect(approvedTab.map((r: { returnId: string }) => r.returnId)).toEqual([first]);
    const byOrder = (await call('GET', `${R}?q=${ORDER.toLowerCase()}`)).json().data.items;
    expect(byOrder.map((r: { returnId: string }) => r.returnId)).toEqual([second, first]);
    const byEmail = (await call('GET', `${R}?q=SHOPPER%40lighting.test`)).json().data.items;
    expect(byEmail.map((r: { returnId: string }) => r.returnId)).toEqual(expect.arrayContaining([first, second]));
    expect((await call('GET', `${R}?q=nobody%40lighting.test`)).json().data.items).toEqual([]);
    const page1 = (await call('GET', `${R}?q=${ORDER}&limit=1`)).json().data;
    expect(page1.items.map((r: { returnId: string }) => r.returnId)).toEqual([second]);
    const page2 = (await call('GET', `${R}?q=${ORDER}&limit=1&cursor=${page1.nextCursor}`)).json().data;
    expect(page2.items.map((r: { returnId: string }) => r.returnId)).toEqual([first]);
    expect(page2.nextCursor).toBeNull();
  });

  it('an unknown tab or a broken cursor is a 400 naming the field', async () => {
    const bad = await call('GET', `${R}?status=lost`);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('status');
    const cursor = await call('GET', `${R}?cursor=nonsense`);
    expect(cursor.statusCode).toBe(400);
    expect(cursor.body).toContain('cursor');
  });
});

describe('approve and reject', () => {
  it('approve: requested -> approved, the instructions mailed, audited, on the timeline and the shopper sees them', async () => {
    const id = await ask([{ lineNo: 1, quantity: 2 }]);
    await t.services.jobs.drain();
    received.length = 0;
    const res = await approve(id);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ returnId: id, status: 'approved', next: ['received'] });
    expect(data.history.at(-1)).toMatchObject({
      status: 'approved',
      note: 'Send it to 1 Warehouse Road, Oakland CA 94607.',
      actorName: expect.any(String),
    });
    expect(returnEvents).toEqual([{ returnId: id, from: 'requested', to: 'approved' }]);
    const audit = await auditOf(id);
    expect(audit.map((a) => [a.entity, a.action])).toEqual([['return', 'approve']]);
    expect(audit[0]?.changes).toMatchObject({ status: { before: 'requested', after: 'approved' } });
    const events = await timeline();
    expect(events.find((e) => e.kind === 'return')).toMatchObject({
      message: `Return ${id} approved`,
      visibleToShopper: true,
    });
    const mails = await mailTo('shopper@lighting.test');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(`Subject: Your return ${id} is approved`);
    expect(mails[0]).toContain('Send it to 1 Warehouse Road, Oakland CA 94607.');
    expect(mails[0]).toContain(`/order?orderId=${ORDER}`);
    const view = await shopperView(id);
    expect(view?.status).toBe('approved');
    expect(view?.history.at(-1)).toMatchObject({ status: 'approved', note: expect.stringContaining('Warehouse') });
  });

  it('approving twice, or receiving a requested return, is a 409 that changes nothing', async () => {
    const id = await ask([{ lineNo: 1, quantity: 1 }]);
    const early = await receive(id, [{ lineNo: 1, restock: 1 }]);
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('CONFLICT');
    expect((await approve(id)).statusCode).toBe(200);
    const again = await approve(id);
    expect(again.statusCode).toBe(409);
    const refundEarly = await call('POST', `${R}/${id}/refund`, { body: { amount: 100 } });
    expect(refundEarly.statusCode).toBe(409);
    const detail = (await call('GET', `${R}/${id}`)).json().data;
    expect(detail.history.map((h: { status: string }) => h.status)).toEqual(['requested', 'approved']);
    expect(await auditOf(id)).toHaveLength(1);
  });

  it('approve needs instructions and reject a reason: 400 naming the field', async () => {
    const id = await ask([{ lineNo: 1, quantity: 1 }]);
    const noInstructions = await call('POST', `${R}/${id}/approve`, { body: { instructions: '  ' } });
    expect(noInstructions.statusCode).toBe(400);
    expect(noInstructions.body).toContain('instructions');
    const noReason = await call('POST', `${R}/${id}/reject`, { body: {} });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.body).toContain('reason');
    expect((await call('GET', `${R}/${id}`)).json().data.status).toBe('requested');
  });

  it('reject: requested -> rejected with the reason mailed; its quantities can be asked again', async () => {
    const id = await ask([{ lineNo: 2, quantity: 1 }]);
    const res = await call('POST', `${R}/${id}/reject`, { body: { reason: 'Lamps are not returnable once used.' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'rejected', next: [] });
    const mails = await mailTo('shopper@lighting.test');
    expect(mails.some((m) => m.includes(`Subject: Your return ${id} was not accepted`))).toBe(true);
    expect(mails.some((m) => m.includes('Reason: Lamps are not returnable once used.'))).toBe(true);
    expect((await auditOf(id)).map((a) => a.action)).toEqual(['reject']);
    const view = await shopperView(id);
    expect(view?.history.at(-1)).toMatchObject({ status: 'rejected', note: 'Lamps are not returnable once used.' });
    await ask([{ lineNo: 2, quantity: 1 }]);
  });

  it('reject after receiving: received -> rejected', async () => {
    const id = await ask([{ lineNo: 1, quantity: 1 }]);
    await approve(id);
    expect((await receive(id, [])).statusCode).toBe(200);
    const res = await call('POST', `${R}/${id}/reject`, { body: { reason: 'The parcel held another product.' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('rejected');
  });
});

describe('mark received', () => {
  it('puts the chosen units back in stock exactly once, as RETURNED movements carrying the return id', async () => {
    const id = await ask([
      { lineNo: 1, quantity: 2 },
      { lineNo: 2, quantity: 1 },
    ]);
    await approve(id);
    const detail = (await call('GET', `${R}/${id}`)).json().data;
    const [l1, l2] = detail.lines as { productId: string }[];
    const before1 = await stockOf(l1?.productId as string);
    const before2 = await stockOf(l2?.productId as string);
    const res = await receive(id, [
      { lineNo: 1, restock: 1 },
      { lineNo: 2, restock: 0 },
    ]);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.status).toBe('received');
    expect(data.lines.map((l: { restockedQuantity: number }) => l.restockedQuantity)).toEqual([1, 0]);
    expect(await stockOf(l1?.productId as string)).toBe(before1 + 1);
    expect(await stockOf(l2?.productId as string)).toBe(before2);
    const moves = await t.database.db
      .select()
      .from(schema.stockMovements)
      .where(and(eq(schema.stockMovements.tenantId, 'lighting'), eq(schema.stockMovements.returnId, id)));
    expect(moves).toHaveLength(1);
    expect(moves[0]).toMatchObject({ productId: l1?.productId, delta: 1, reason: 'RETURNED', orderId: ORDER });
    expect(stockEvents).toEqual([[l1?.productId]]);
    // Received twice: refused, and the stock is not touched again.
    const again = await receive(id, [{ lineNo: 1, restock: 1 }]);
    expect(again.statusCode).toBe(409);
    expect(await stockOf(l1?.productId as string)).toBe(before1 + 1);
    const audit = await auditOf(id);
    expect(audit.map((a) => a.action)).toEqual(['approve', 'receive']);
    expect(audit[1]?.changes).toMatchObject({ status: { before: 'approved', after: 'received' } });
    expect((await shopperView(id))?.status).toBe('received');
  });

  it('more units than came back, or a line not in the return, is a 422 naming lines; nothing moves', async () => {
    const id = await ask([{ lineNo: 1, quantity: 1 }]);
    await approve(id);
    const productId = (await call('GET', `${R}/${id}`)).json().data.lines[0].productId as string;
    const before = await stockOf(productId);
    const tooMany = await receive(id, [{ lineNo: 1, restock: 2 }]);
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().message).toMatch(/^lines:/);
    const notInReturn = await receive(id, [{ lineNo: 2, restock: 1 }]);
    expect(notInReturn.statusCode).toBe(422);
    const negative = await receive(id, [{ lineNo: 1, restock: -1 }]);
    expect(negative.statusCode).toBe(400);
    expect(negative.body).toContain('restock');
    expect(await stockOf(productId)).toBe(before);
    expect((await call('GET', `${R}/${id}`)).json().data.status).toBe('approved');
  });
});

describe('refund', () => {
  async function receivedReturn() {
    const id = await ask([{ lineNo: 1, quantity: 2 }]);
    await approve(id);
    await receive(id, [{ lineNo: 1, restock: 2 }]);
    await t.services.jobs.drain();
    received.length = 0;
    return id;
  }

  it('proposes the lines with their tax share, refunds through the provider linked to the return, and mails', async () => {
    const id = await receivedReturn();
    const order = await orderRow();
    const detail = (await call('GET', `${R}/${id}`)).json().data;
    const line = detail.lines[0];
    const expected = lineRefundValue(order, line.unitPrice, 2);
    expect(expected).toBeGreaterThan(line.unitPrice * 2);
    expect(detail.proposedRefund).toBe(expected);
    expect(detail.refundable).toBe(order.capturedAmount);
    const res = await call('POST', `${R}/${id}/refund`, { body: { amount: expected, reason: 'Arrived damaged' } });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.status).toBe('refunded');
    expect(data.refunds).toHaveLength(1);
    expect(data.refunds[0]).toMatchObject({ amount: expected, status: 'succeeded', returnId: id });
    expect(data.history.at(-1)).toMatchObject({ status: 'refunded', amount: expected });
    expect((await orderRow()).refundedAmount).toBe(expected);
    const audit = await auditOf(id);
    expect(audit.map((a) => a.action)).toEqual(['approve', 'receive', 'refund']);
    const mails = await mailTo('shopper@lighting.test');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(`Subject: Your refund of $`);
    expect(mails[0]).toContain(`for return ${id}`);
    const view = await shopperView(id);
    expect(view?.status).toBe('refunded');
    expect(view?.history.at(-1)).toMatchObject({ status: 'refunded', amount: expected });
    // Refunded is an end: a second refund of the same return is refused.
    const again = await call('POST', `${R}/${id}/refund`, { body: { amount: 100 } });
    expect(again.statusCode).toBe(409);
    expect((await orderRow()).refundedAmount).toBe(expected);
  });

  it('never above what was captured: 422 naming amount, and the return stays received', async () => {
    const id = await receivedReturn();
    const order = await orderRow();
    const res = await call('POST', `${R}/${id}/refund`, { body: { amount: order.capturedAmount + 1 } });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('REFUND_EXCEEDS_CAPTURED');
    expect(res.json().message).toMatch(/^amount:/);
    const detail = (await call('GET', `${R}/${id}`)).json().data;
    expect(detail.status).toBe('received');
    expect((await orderRow()).refundedAmount).toBe(0);
    expect(await mailTo('shopper@lighting.test')).toHaveLength(0);
    // The refusal released the return: a right amount goes through.
    const ok = await call('POST', `${R}/${id}/refund`, { body: { amount: 500 } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.status).toBe('refunded');
  });

  it('a refund the provider cannot make (no payment to refund) leaves the return received and says why', async () => {
    const id = await receivedReturn();
    await t.database.db
      .update(schema.orders)
      .set({ paymentRef: null })
      .where(and(eq(schema.orders.tenantId, 'lighting'), eq(schema.orders.orderId, ORDER)));
    try {
      const res = await call('POST', `${R}/${id}/refund`, { body: { amount: 500 } });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toContain('no payment to refund');
      expect((await call('GET', `${R}/${id}`)).json().data.status).toBe('received');
    } finally {
      await t.database.db
        .update(schema.orders)
        .set({ paymentRef: `seed-${ORDER}` })
        .where(and(eq(schema.orders.tenantId, 'lighting'), eq(schema.orders.orderId, ORDER)));
    }
  });

  it('a zero or missing amount is a 400 naming amount', async () => {
    const id = await receivedReturn();
    const res = await call('POST', `${R}/${id}/refund`, { body: { amount: 0 } });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('amount');
  });
});

describe('a refund under way', () => {
  it('blocks a second refund and a rejection of the same return until it settles', async () => {
    const id = await ask([{ lineNo: 1, quantity: 1 }]);
    await approve(id);
    await receive(id, [{ lineNo: 1, restock: 0 }]);
    // As if another request's refund were with the provider right now.
    await t.database.db
      .update(schema.returnRequests)
      .set({ refundClaim: 'another-request' })
      .where(and(eq(schema.returnRequests.tenantId, 'lighting'), eq(schema.returnRequests.returnId, id)));
    const refund = await call('POST', `${R}/${id}/refund`, { body: { amount: 100 } });
    expect(refund.statusCode).toBe(409);
    expect(refund.json().message).toContain('already under way');
    const reject = await call('POST', `${R}/${id}/reject`, { body: { reason: 'Not ours' } });
    expect(reject.statusCode).toBe(409);
    expect((await call('GET', `${R}/${id}`)).json().data.status).toBe('received');
    expect((await orderRow()).refundedAmount).toBe(0);
  });
});
