import type { ReturnStatus } from '@app/contracts';
import { RETURN_STATUSES } from '@app/contracts';
import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { placeGuestOrder, stockedProductId } from '../../../test/guest-order';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../test/harness';
import type { MailMessage } from '../../mail/index';
import { createOrdersService } from '../orders.service';
import { canTransitionReturn, HOLDING_RETURN_STATUSES, RETURN_TRANSITIONS } from './return-state';
import { createReturnsService, orderReturns, type ReturnsService } from './returns.service';

const LIGHTING = 'lighting.localhost';
const GARDEN = 'garden.localhost';
const B = '/skulocity/api/v1';
/** Seeded: Sam's delivered lighting order (line 1: 2 units, line 2: 1 unit). */
const DELIVERED = 'LIG-DEMO-S1';

let t: TestApp;
let sam: BrowserSession;
let olivia: BrowserSession;
let gardenSam: BrowserSession;
let service: ReturnsService;
const mail: MailMessage[] = [];

beforeAll(async () => {
  t = await createTestApp({
    mailer: {
      async send(m) {
        mail.push(m);
      },
      close() {},
    },
  });
  sam = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
  olivia = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
  gardenSam = await signIn(t.app, 'shopper@garden.test', 'shopper-demo-1', GARDEN);
  const db = t.database.db;
  // The store's side of a return (approve, reject…) has no route yet: the service is driven directly.
  service = createReturnsService(db, {
    orders: createOrdersService(db, { secret: 'test', returnsOf: orderReturns }),
    mailer: { async send() {}, committed() {} },
    log: t.app.log,
    linkOrigin: (h) => `http://${h}`,
  });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  // Mail of the previous test is delivered first, so it cannot land in this test's list.
  await t.services.jobs.drain();
  mail.length = 0;
  await t.database.db.delete(schema.returnRequests).where(eq(schema.returnRequests.orderId, DELIVERED));
});

const ctx = {
  tenantId: 'lighting',
  productStoreId: '9000',
  hostName: LIGHTING,
  viaDevAlias: false,
  origin: `http://${LIGHTING}`,
};
const ask = (headers: Record<string, string>, payload: object, path = 'createreturns', host = LIGHTING) =>
  t.app.inject({ method: 'POST', url: `${B}/ecommerce/${path}`, headers: { host, ...headers }, payload });
const orderView = async (orderId = DELIVERED, headers: Record<string, string> = sam) =>
  t.app.inject({
    method: 'GET',
    url: `${B}/ecommerce/order/status?orderId=${orderId}`,
    headers: { host: LIGHTING, ...headers },
  });

describe('the return state machine', () => {
  it('moves requested → approved → received → refunded, with rejected and cancelled as ends', () => {
    const table: [ReturnStatus, ReturnStatus, boolean][] = [
      ['requested', 'approved', true],
      ['requested', 'rejected', true],
      ['requested', 'cancelled', true],
      ['requested', 'refunded', false],
      ['approved', 'received', true],
      ['approved', 'cancelled', true],
      ['approved', 'requested', false],
      ['received', 'refunded', true],
      ['received', 'rejected', true],
      ['received', 'cancelled', false],
      ['refunded', 'requested', false],
      ['rejected', 'approved', false],
      ['cancelled', 'requested', false],
    ];
    for (const [from, to, ok] of table) expect(canTransitionReturn(from, to), `${from} → ${to}`).toBe(ok);
    for (const s of RETURN_STATUSES) expect(RETURN_TRANSITIONS[s]).toBeDefined();
    expect([...HOLDING_RETURN_STATUSES].sort()).toEqual(['approved', 'received', 'refunded', 'requested']);
  });
});

describe('requesting a return', () => {
  it('a delivered order says what can be returned; a request of one line is listed, emailed and counted', async () => {
    const before = (await orderView()).json().data;
    expect(before.status).toBe('delivered');
    expect(before.returns).toEqual([]);
    expect(before.returnable).toEqual([
      { lineNo: 1, quantity: 2 },
      { lineNo: 2, quantity: 1 },
    ]);

    const res = await ask(sam, {
      orderId: DELIVERED,
      lines: [{ lineNo: 1, quantity: 1 }],
      reason: 'damaged',
      note: '  The shade was cracked.  ',
    });
    expect(res.statusCode).toBe(200);
    const r = res.json().data;
    expect(r).toMatchObject({
      returnId: `${DELIVERED}-R1`,
      orderId: DELIVERED,
      status: 'requested',
      statusLabel: 'Requested',
      reason: 'damaged',
      reasonLabel: 'Arrived damaged',
      note: 'The shade was cracked.',
      lines: [{ lineNo: 1, productName: before.lines[0].productName, quantity: 1 }],
    });
    expect(r.history.map((h: { status: string }) => h.status)).toEqual(['requested']);

    const after = (await orderView()).json().data;
    expect(after.returns.map((x: { returnId: string }) => x.returnId)).toEqual([`${DELIVERED}-R1`]);
    expect(after.returnable).toEqual([
      { lineNo: 1, quantity: 1 },
      { lineNo: 2, quantity: 1 },
    ]);
    await t.services.jobs.drain();
    expect(mail).toHaveLength(1);
    expect(mail[0]?.to).toBe('shopper@lighting.test');
    expect(mail[0]?.subject).toContain(`${DELIVERED}-R1`);
    expect(mail[0]?.text).toContain(`1 x ${before.lines[0].productName}`);
    expect(mail[0]?.text).toContain(`/order?orderId=${DELIVERED}`);
  });

  it('never more than was bought, across several requests; createRmaReturn takes what is left', async () => {
    const tooMany = await ask(sam, { orderId: DELIVERED, lines: [{ lineNo: 1, quantity: 3 }], reason: 'defective' });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().code).toBe('RETURN_QUANTITY_EXCEEDED');
    expect(tooMany.json().message).toMatch(/^You bought 2 × .+: 3 cannot be returned\.$/);

    expect(
      (await ask(sam, { orderId: DELIVERED, lines: [{ lineNo: 1, quantity: 1 }], reason: 'defective' })).statusCode,
    ).toBe(200);
    const over = await ask(sam, { orderId: DELIVERED, lines: [{ lineNo: 1, quantity: 2 }], reason: 'defective' });
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe('RETURN_QUANTITY_EXCEEDED');
    expect(over.json().message).toContain('Only 1 of');
    expect(over.json().message).toContain('(2 bought, 1 already in return requests)');

    // The RMA variant asks back everything not yet asked for: 1 of line 1 and line 2.
    const rma = await ask(sam, { orderId: DELIVERED, reason: 'changed-mind' }, 'createRmaReturn');
    expect(rma.statusCode).toBe(200);
    expect(rma.json().data.returnId).toBe(`${DELIVERED}-R2`);
    expect(rma.json().data.lines.map((l: { lineNo: number; quantity: number }) => [l.lineNo, l.quantity])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    const none = await ask(sam, { orderId: DELIVERED, reason: 'changed-mind' }, 'createRmaReturn');
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe(`Everything in order ${DELIVERED} is already in a return request.`);
    const full = await ask(sam, { orderId: DELIVERED, lines: [{ lineNo: 2, quantity: 1 }], reason: 'other' });
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toMatch(/^Every .+ of this order is already in a return request\.$/);
    expect((await orderView()).json().data.returnable).toEqual([]);

    // A rejected request gives its quantities back; an approved one keeps them.
    expect(await service.transition(ctx, `${DELIVERED}-R2`, 'rejected', 'Outside the return window')).toEqual({
      ok: true,
      value: undefined,
    });
    expect((await service.transition(ctx, `${DELIVERED}-R1`, 'approved')).ok).toBe(true);
    // A move its table does not allow is returned as a 409 refusal, and changes nothing.
    expect(await service.transition(ctx, `${DELIVERED}-R1`, 'refunded')).toEqual({
      ok: false,
      status: 409,
      code: 'CONFLICT',
      message: `Return ${DELIVERED}-R1 is approved; it cannot become refunded.`,
    });
    const view = (await orderView()).json().data;
    expect(view.returnable).toEqual([
      { lineNo: 1, quantity: 1 },
      { lineNo: 2, quantity: 1 },
    ]);
    const r2 = view.returns.find((x: { returnId: string }) => x.returnId === `${DELIVERED}-R2`);
    expect(r2.status).toBe('rejected');
    expect(r2.history.map((h: { status: string; note: string }) => [h.status, h.note])).toEqual([
      ['requested', 'Return requested'],
      ['rejected', 'Outside the return window'],
    ]);
    expect(
      (await ask(sam, { orderId: DELIVERED, lines: [{ lineNo: 2, quantity: 1 }], reason: 'other' })).statusCode,
    ).toBe(200);
  });

  it('10 requests at once for 1 unit each of a line of 3: exactly 3 are accepted', async () => {
    const ol = schema.orderLines;
    const where = and(eq(ol.tenantId, 'lighting'), eq(ol.orderId, DELIVERED), eq(ol.lineNo, 1));
    const [line] = await t.database.db.select().from(ol).where(where);
    if (!line) throw new Error('no seeded line');
    await t.database.db
      .update(ol)
      .set({ quantity: 3, lineTotal: line.unitPrice * 3 })
      .where(where);
    try {
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          ask(sam, { orderId: DELIVERED, lines: [{ lineNo: 1, quantity: 1 }], reason: 'defective' }),
        ),
      );
      const codes = results.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(3);
      expect(codes.filter((c) => c === 409)).toHaveLength(7);
      const ids = results.filter((r) => r.statusCode === 200).map((r) => r.json().data.returnId);
      expect(new Set(ids).size).toBe(3);
      const held = await t.database.db
        .select()
        .from(schema.returnLines)
        .where(eq(schema.returnLines.orderId, DELIVERED));
      expect(held.reduce((s, l) => s + l.quantity, 0)).toBe(3);
    } finally {
      await t.database.db.delete(schema.returnRequests).where(eq(schema.returnRequests.orderId, DELIVERED));
      await t.database.db.update(ol).set({ quantity: line.quantity, lineTotal: line.lineTotal }).where(where);
    }
  });

  it('only for delivered or completed orders', async () => {
    for (const [orderId, status] of [
      ['LIG-DEMO-S3', 'paid'],
      ['LIG-DEMO-S4', 'cancelled'],
    ]) {
      const res = await ask(sam, { orderId, lines: [{ lineNo: 1, quantity: 1 }], reason: 'damaged' });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({
        code: 'NOT_RETURNABLE',
        message: `Only delivered orders can be returned, and order ${orderId} is ${status}.`,
      });
      expect((await orderView(orderId)).json().data.returnable).toEqual([]);
    }
    // The completed order's seeded, refunded return holds 1 of its 2 units of line 1.
    const completed = (await orderView('LIG-DEMO-S2')).json().data;
    expect(completed.returns.map((r: { status: string }) => r.status)).toEqual(['refunded']);
    expect(completed.returnable).toEqual([
      { lineNo: 1, quantity: 1 },
      { lineNo: 2, quantity: 1 },
    ]);
  });
});

describe('who may ask', () => {
  it("another shopper's order, another store's order and an unknown order are all 404", async () => {
    const body = { orderId: DELIVERED, lines: [{ lineNo: 1, quantity: 1 }], reason: 'damaged' };
    const theirs = await ask(olivia, body);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({
      error: true,
      code: 'NOT_FOUND',
      message: `Order ${DELIVERED} was not found.`,
    });
    expect((await ask(olivia, { orderId: DELIVERED, reason: 'damaged' }, 'createRmaReturn')).statusCode).toBe(404);
    // Sam of the garden store, on the garden host, naming a lighting order.
    expect((await ask(gardenSam, body, 'createreturns', GARDEN)).statusCode).toBe(404);
    expect((await ask(gardenSam, { ...body, orderId: 'GAR-DEMO-S1' }, 'createreturns', GARDEN)).statusCode).toBe(200);
    expect((await ask(sam, { ...body, orderId: 'LIG-NOPE' })).statusCode).toBe(404);
    expect((await orderView(DELIVERED, olivia)).statusCode).toBe(404);
    expect(
      await t.database.db.select().from(schema.returnRequests).where(eq(schema.returnRequests.orderId, DELIVERED)),
    ).toEqual([]);
  });

  it('a guest needs the signed link: without it 401, with a wrong one 404, with it the return is made', async () => {
    const productId = await stockedProductId(t.database.db, 'lighting');
    const placed = await placeGuestOrder(t.app, { host: LIGHTING, productId, quantity: 2 });
    expect(placed.statusCode).toBe(200);
    const { orderId, accessKey } = placed.json().data;
    const body = { orderId, lines: [{ lineNo: 1, quantity: 1 }], reason: 'wrong-item' };
    // Not delivered yet.
    expect((await ask({}, { ...body, key: accessKey })).json().code).toBe('NOT_RETURNABLE');
    await t.database.db
      .update(schema.orders)
      .set({ status: 'delivered' })
      .where(and(eq(schema.orders.tenantId, 'lighting'), eq(schema.orders.orderId, orderId)));

    const anonymous = await ask({}, body);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('UNAUTHENTICATED');
    expect((await ask({}, { ...body, key: '9999999999.forged' })).statusCode).toBe(404);
    // A signed-in shopper who is not the buyer needs the link too.
    expect((await ask(sam, body)).statusCode).toBe(404);
    const ok = await ask({}, { ...body, key: accessKey });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.returnId).toBe(`${orderId}-R1`);
    await t.services.jobs.drain();
    // Found by its subject, not taken as the last mail sent: the order's own confirmation goes out
    // on a worker lane and can reach the transport after it.
    const returnMail = mail.find((m) => m.subject.startsWith(`Your return request ${orderId}-R1 `));
    expect(returnMail?.to).toBe('grace@example.com');
    // The guest's mail links to the order with its key: a guest has no other way in.
    expect(returnMail?.text).toContain(`&key=`);
    const view = await t.app.inject({
      method: 'GET',
      url: `${B}/ecommerce/order/status?orderId=${orderId}&key=${encodeURIComponent(accessKey)}`,
      headers: { host: LIGHTING },
    });
    expect(view.json().data.returns).toHaveLength(1);
    expect(view.json().data.returnable).toEqual([{ lineNo: 1, quantity: 1 }]);
  });
});

describe('validation, with the error envelope', () => {
  const cases: [string, object, number, string][] = [
    [
      'no lines',
      { orderId: DELIVERED, lines: [], reason: 'damaged' },
      400,
      'body.lines: Choose at least one item to return.',
    ],
    [
      'quantity 0',
      { orderId: DELIVERED, lines: [{ lineNo: 1, quantity: 0 }], reason: 'damaged' },
      400,
      'body.lines.0.quantity: Enter a whole number of 1 or more.',
    ],
    [
      'quantity 1.5',
      { orderId: DELIVERED, lines: [{ lineNo: 1, quantity: 1.5 }], reason: 'damaged' },
      400,
      'body.lines.0.quantity: Enter a whole number of 1 or more.',
    ],
    [
      'quantity as text',
      { orderId: DELIVERED, lines: [{ lineNo: 1, quantity: 'one' }], reason: 'damaged' },
      400,
      'body.lines.0.quantity: Enter a whole number of 1 or more.',
    ],
    [
      'an unknown reason',
      { orderId: DELIVERED, lines: [{ lineNo: 1, quantity: 1 }], reason: 'bored' },
      400,
      'body.reason: Choose a reason:',
    ],
    ['no order', { lines: [{ lineNo: 1, quantity: 1 }], reason: 'damaged' }, 400, 'body.orderId'],
    [
      'a field it does not know',
      { orderId: DELIVERED, lines: [{ lineNo: 1, quantity: 1 }], reason: 'damaged', refund: 100 },
      400,
      'unknown field(s): refund',
    ],
    [
      'line and product both',
      { orderId: DELIVERED, lines: [{ lineNo: 1, productId: 'X', quantity: 1 }], reason: 'damaged' },
      400,
      'body.lines.0.lineNo: Name the order line by lineNo or by productId',
    ],
    [
      'a long note',
      { orderId: DELIVERED, lines: [{ lineNo: 1, quantity: 1 }], reason: 'damaged', note: 'x'.repeat(1001) },
      400,
      'body.note: Use at most 1000 characters.',
    ],
    [
      'a line the order does not have',
      { orderId: DELIVERED, lines: [{ lineNo: 9, quantity: 1 }], reason: 'damaged' },
      422,
      `Order ${DELIVERED} has no line 9.`,
    ],
    [
      'a product the order does not have',
      { orderId: DELIVERED, lines: [{ productId: 'LGT-9999', quantity: 1 }], reason: 'damaged' },
      422,
      `Order ${DELIVERED} has no LGT-9999.`,
    ],
    [
      'one line twice',
      {
        orderId: DELIVERED,
        lines: [
          { lineNo: 1, quantity: 1 },
          { lineNo: 1, quantity: 1 },
        ],
        reason: 'damaged',
      },
      400,
      'is named twice.',
    ],
  ];
  it.each(cases)('%s', async (_name, payload, status, message) => {
    const res = await ask(sam, payload);
    expect(res.statusCode).toBe(status);
    const body = res.json();
    expect(body).toMatchObject({ error: true, data: { message: body.message } });
    expect(body.requestId).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(body.message).toContain(message);
  });

  it('names the line by product when the order has it once', async () => {
    const order = (await orderView()).json().data;
    const res = await ask(sam, {
      orderId: DELIVERED,
      lines: [{ productId: order.lines[1].productId, quantity: 1 }],
      reason: 'not-as-described',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.lines[0].lineNo).toBe(2);
  });
});
