import { productFieldsSchema } from '@app/contracts';
import { schema } from '@app/db';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../../lib/context';
import { guestCardOrder, placeGuestOrder } from '../../../test/guest-order';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../test/harness';
import { createStaff } from '../../../test/staff';
import { createAuditService } from '../../audit/index';
import { TEST_CARDS } from '../../payments/index';
import { writeProduct } from '../admin/index';

let t: TestApp;
let owner: BrowserSession;
let gardenOwner: BrowserSession;
let shopper: BrowserSession;
let catalogStaff: BrowserSession;
let ordersStaff: BrowserSession;
const HOST = 'lighting.localhost';
const GARDEN = 'garden.localhost';
const B = '/skulocity/api/v1';
const I = '/api/v1/inventory';
const stockEvents: { tenantId: string; productIds: string[] }[] = [];
/** Products this file made (stock 0, no books), so their books must add up to their stock exactly. */
const made: string[] = [];

function call(
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  opts: { body?: unknown; session?: BrowserSession | null; host?: string } = {},
) {
  const host = opts.host ?? HOST;
  return t.app.inject({
    method,
    url,
    headers: { host, origin: `http://${host}`, ...(opts.session === null ? {} : (opts.session ?? owner)) },
    ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
  });
}

const p = schema.products;
const sm = schema.stockMovements;

async function stockOf(productId: string, tenantId = 'lighting') {
  const [row] = await t.database.db
    .select({ n: p.stockQuantity })
    .from(p)
    .where(and(eq(p.tenantId, tenantId), eq(p.productId, productId)));
  return row?.n;
}

/** A new, active product of the lighting store with no stock (as the editor makes one). */
async function newProduct(name: string): Promise<string> {
  const audit = createAuditService(t.database.db);
  const fields = productFieldsSchema.parse({
    productName: name,
    sku: `INV-${name.replace(/[^A-Za-z0-9]+/g, '-')}`,
    listPrice: 1999,
    status: 'ACTIVE',
  });
  const result = await t.database.db.transaction((tx) => writeProduct(tx, ownerCtx, { audit }, { fields }));
  if (!result.ok) throw new Error(result.message);
  made.push(result.productId);
  return result.productId;
}

const ownerCtx: RequestContext = {
  tenantId: 'lighting',
  productStoreId: '9000',
  hostName: HOST,
  viaDevAlias: false,
  origin: `http://${HOST}`,
  requestId: 'inventory-test',
  ip: null,
  actor: {
    kind: 'staff',
    role: 'admin',
    permissions: new Set(),
    userId: 'owner-1',
    firstName: 'Olivia',
    userLoginId: 'owner@lighting.test',
    session: { token: 'x', via: 'cookie' },
  },
};

const adjust = (productId: string, body: object, session: BrowserSession | null = owner, host = HOST) =>
  call('POST', `${I}/products/${encodeURIComponent(productId)}/adjust`, { body, session, host });

beforeAll(async () => {
  t = await createTestApp();
  t.services.events.on('stock.changed', (e) => {
    stockEvents.push(e);
  });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', HOST);
  gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
  shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', HOST);
  await createStaff(t.database, 'lighting', 'inv-catalog@lighting.test', ['catalog']);
  await createStaff(t.database, 'lighting', 'inv-orders@lighting.test', ['orders']);
  catalogStaff = await signIn(t.app, 'inv-catalog@lighting.test', 'owner-demo-1', HOST);
  ordersStaff = await signIn(t.app, 'inv-orders@lighting.test', 'owner-demo-1', HOST);
});
afterAll(() => t?.close());

describe('who may use the inventory routes', () => {
  it('a visitor gets 401, a shopper 403, staff without catalog 403; staff with catalog may', async () => {
    const productId = await newProduct('Permission Lamp');
    const routes: [method: 'GET' | 'POST' | 'PUT', url: string, body?: object][] = [
      ['GET', `${I}/products`],
      ['GET', `${I}/products/${productId}/movements`],
      ['POST', `${I}/products/${productId}/adjust`, { reason: 'RECEIVED', delta: 1 }],
      ['GET', `${I}/settings`],
      ['PUT', `${I}/settings`, { lowStockThreshold: 5 }],
    ];
    for (const [method, url, body] of routes) {
      const visitor = await call(method, url, { body, session: null });
      expect(visitor.statusCode, `${method} ${url}`).toBe(401);
      expect(visitor.json()).toMatchObject({ error: true, code: 'UNAUTHENTICATED' });
      expect((await call(method, url, { body, session: shopper })).statusCode, `${method} ${url}`).toBe(403);
      const noCatalog = await call(method, url, { body, session: ordersStaff });
      expect(noCatalog.statusCode, `${method} ${url}`).toBe(403);
      expect(noCatalog.json().message).toContain('catalog');
      expect((await call(method, url, { body, session: catalogStaff })).statusCode, `${method} ${url}`).toBe(200);
    }
    // Only the catalog staff's one adjustment went through.
    expect(await stockOf(productId)).toBe(1);
  });
});

describe('adjusting stock', () => {
  it('by a delta and to a count, with a reason and a note: the books, an audit entry and stock.changed', async () => {
    const productId = await newProduct('Adjusted Lamp');
    stockEvents.length = 0;
    const received = await adjust(productId, { reason: 'RECEIVED', delta: 12, note: 'Pallet 7' });
    expect(received.statusCode).toBe(200);
    expect(received.json()).toEqual({
      data: { productId, variantId: productId, variantTitle: '', before: 0, after: 12, delta: 12 },
    });
    const counted = await adjust(productId, { reason: 'CORRECTION', set: 9 });
    expect(counted.json().data).toEqual({
      productId,
      variantId: productId,
      variantTitle: '',
      before: 12,
      after: 9,
      delta: -3,
    });
    const damaged = await adjust(productId, { reason: 'DAMAGED', delta: -2, note: 'Cracked shade' });
    expect(damaged.json().data.after).toBe(7);
    expect(await stockOf(productId)).toBe(7);
    expect(stockEvents.filter((e) => e.productIds.includes(productId))).toHaveLength(3);

    const audit = await t.database.db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.tenantId, 'lighting'), eq(schema.auditLog.entityId, productId)))
      .orderBy(asc(schema.auditLog.id));
    const adjustments = audit.filter((a) => a.action === 'adjust_stock');
    expect(adjustments).toHaveLength(3);
    expect(adjustments[0]).toMatchObject({ entity: 'product', actorId: expect.any(String), actorKind: 'staff' });
    expect(adjustments[0]?.changes).toMatchObject({
      stock: { before: 0, after: 12 },
      reason: { after: 'RECEIVED' },
      note: { after: 'Pallet 7' },
    });

    const history = await call('GET', `${I}/products/${productId}/movements`);
    expect(history.statusCode).toBe(200);
    const h = history.json().data;
    expect(h.product).toMatchObject({ productId, productName: 'Adjusted Lamp', stock: 7, status: 'ACTIVE' });
    expect(h.lowStockThreshold).toBe(5);
    // Newest first: who, when, before, after, why.
    expect(
      h.movements.map((m: { reason: string; before: number; after: number; delta: number; note: string | null }) => [
        m.reason,
        m.before,
        m.after,
        m.delta,
        m.note,
      ]),
    ).toEqual([
      ['DAMAGED', 9, 7, -2, 'Cracked shade'],
      ['CORRECTION', 12, 9, -3, null],
      ['RECEIVED', 0, 12, 12, 'Pallet 7'],
    ]);
    expect(h.movements[0].actor.name).toBeTruthy();
    expect(Date.parse(h.movements[0].createdAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('a count equal to the stock changes nothing and records nothing', async () => {
    const productId = await newProduct('Unchanged Lamp');
    await adjust(productId, { reason: 'RECEIVED', delta: 4 });
    stockEvents.length = 0;
    const same = await adjust(productId, { reason: 'CORRECTION', set: 4 });
    expect(same.json().data).toEqual({
      productId,
      variantId: productId,
      variantTitle: '',
      before: 4,
      after: 4,
      delta: 0,
    });
    expect(stockEvents).toEqual([]);
    const books = await t.database.db.select().from(sm).where(eq(sm.productId, productId));
    expect(books).toHaveLength(1);
  });

  it('refuses going below zero with 422 naming the field, and changes nothing', async () => {
    const productId = await newProduct('Scarce Lamp');
    await adjust(productId, { reason: 'RECEIVED', delta: 3 });
    const res = await adjust(productId, { reason: 'DAMAGED', delta: -4 });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: true, code: 'UNPROCESSABLE' });
    expect(res.json().message).toMatch(/^delta: only 3 in stock/);
    expect(await stockOf(productId)).toBe(3);
    const books = await t.database.db.select().from(sm).where(eq(sm.productId, productId));
    expect(books).toHaveLength(1);
  });

  it('validates every field and names it', async () => {
    const productId = await newProduct('Validated Lamp');
    const cases: [object, string][] = [
      [{ reason: 'SOLD', delta: 1 }, 'reason'],
      [{ reason: 'stolen', delta: 1 }, 'reason'],
      [{ delta: 1 }, 'reason'],
      [{ reason: 'RECEIVED' }, 'delta'],
      [{ reason: 'RECEIVED', delta: 1, set: 2 }, 'delta'],
      [{ reason: 'RECEIVED', delta: 0 }, 'delta'],
      [{ reason: 'RECEIVED', delta: 1.5 }, 'delta'],
      [{ reason: 'RECEIVED', delta: '3' }, 'delta'],
      [{ reason: 'RECEIVED', delta: 10_000_001 }, 'delta'],
      [{ reason: 'CORRECTION', set: -1 }, 'set'],
      [{ reason: 'RECEIVED', delta: 1, note: 'x'.repeat(501) }, 'note'],
      [{ reason: 'RECEIVED', delta: 1, extra: true }, ''],
    ];
    for (const [body, field] of cases) {
      const res = await adjust(productId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe(true);
      expect(res.json().message, JSON.stringify(body)).toContain(field ? `body.${field}` : 'body');
    }
    expect(await stockOf(productId)).toBe(0);
  });

  it("another store's product is not found, and stays untouched", async () => {
    const productId = await newProduct('Lighting Only Lamp');
    await adjust(productId, { reason: 'RECEIVED', delta: 2 });
    // The garden owner, on the garden host, naming a lighting product.
    const res = await adjust(productId, { reason: 'RECEIVED', delta: 50 }, gardenOwner, GARDEN);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: true, code: 'NOT_FOUND' });
    expect(
      (await call('GET', `${I}/products/${productId}/movements`, { session: gardenOwner, host: GARDEN })).statusCode,
    ).toBe(404);
    // The lighting session does not work on the garden host either.
    expect((await adjust(productId, { reason: 'RECEIVED', delta: 50 }, owner, GARDEN)).statusCode).toBe(401);
    expect(await stockOf(productId)).toBe(2);
    const list = await call('GET', `${I}/products?q=${encodeURIComponent('Lighting Only')}`, {
      session: gardenOwner,
      host: GARDEN,
    });
    expect(list.json().data.items).toEqual([]);
    expect((await call('GET', `${I}/products/NOPE/movements`)).statusCode).toBe(404);
  });
});

describe('the stock list', () => {
  it('searches by name or SKU, filters in/low/out, sorts by stock and pages by keyset', async () => {
    const ids = {
      out: await newProduct('Listed Zeta Out'),
      low: await newProduct('Listed Zeta Low'),
      plenty: await newProduct('Listed Zeta Plenty'),
    };
    await adjust(ids.low, { reason: 'RECEIVED', delta: 2 });
    await adjust(ids.plenty, { reason: 'RECEIVED', delta: 40 });
    const list = async (qs: string) => {
      const res = await call('GET', `${I}/products?${qs}`);
      expect(res.statusCode, qs).toBe(200);
      return res.json().data as {
        items: { productId: string; stock: number; sku: string }[];
        nextCursor: string | null;
        lowStockThreshold: number;
      };
    };
    const all = await list('q=listed%20zeta');
    expect(all.items.map((i) => i.productId)).toEqual([ids.out, ids.low, ids.plenty]);
    expect(all.items[0]).toMatchObject({ productName: 'Listed Zeta Out', stock: 0, sku: 'INV-Listed-Zeta-Out' });
    expect((await list('q=listed%20zeta&sort=stock-desc')).items.map((i) => i.productId)).toEqual([
      ids.plenty,
      ids.low,
      ids.out,
    ]);
    expect((await list('q=listed%20zeta&stock=out')).items.map((i) => i.productId)).toEqual([ids.out]);
    expect((await list('q=listed%20zeta&stock=low')).items.map((i) => i.productId)).toEqual([ids.low]);
    expect((await list('q=listed%20zeta&stock=in')).items.map((i) => i.productId)).toEqual([ids.low, ids.plenty]);
    // A SKU by its start, whatever the case.
    expect((await list('q=inv-listed-zeta-p')).items.map((i) => i.productId)).toEqual([ids.plenty]);
    // A LIKE wildcard is taken literally.
    expect((await list('q=%25')).items).toEqual([]);

    // Keyset pages: one at a time, every product once, in order.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(`q=listed%20zeta&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.items.map((i) => i.productId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([ids.out, ids.low, ids.plenty]);

    // The whole store, fewest first.
    const store = await list('limit=100');
    const stocks = store.items.map((i) => i.stock);
    expect(stocks).toEqual([...stocks].sort((a, b) => a - b));

    const bad = await call('GET', `${I}/products?cursor=not-a-cursor`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^cursor:/);
    const badFilter = await call('GET', `${I}/products?stock=some`);
    expect(badFilter.statusCode).toBe(400);
    expect(badFilter.json().message).toContain('stock');
  });

  it("pages a product's history, newest first", async () => {
    const productId = await newProduct('Paged History Lamp');
    for (let i = 1; i <= 5; i++) await adjust(productId, { reason: 'RECEIVED', delta: i });
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const res = await call(
        'GET',
        `${I}/products/${productId}/movements?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.statusCode).toBe(200);
      seen.push(...res.json().data.movements.map((m: { delta: number }) => m.delta));
      cursor = res.json().data.nextCursor;
    } while (cursor);
    expect(seen).toEqual([5, 4, 3, 2, 1]);
  });
});

describe("the store's low-stock threshold", () => {
  it('is read and set (0..100000, audited), and the dashboard and the storefront follow it', async () => {
    const productId = await newProduct('Threshold Lamp');
    await adjust(productId, { reason: 'RECEIVED', delta: 8 });
    expect((await call('GET', `${I}/settings`)).json()).toEqual({ data: { lowStockThreshold: 5 } });
    const details = async () =>
      (
        await t.app.inject({
          url: `${B}/public/ecommerce/getproductdetails?productId=${productId}`,
          headers: { host: HOST },
        })
      ).json().data.lowStock;
    expect(await details()).toBeNull();

    for (const [value, field] of [
      [-1, 'lowStockThreshold'],
      [100_001, 'lowStockThreshold'],
      [2.5, 'lowStockThreshold'],
      ['5', 'lowStockThreshold'],
    ] as const) {
      const res = await call('PUT', `${I}/settings`, { body: { lowStockThreshold: value } });
      expect(res.statusCode, String(value)).toBe(400);
      expect(res.json().message).toContain(`body.${field}`);
    }

    const set = await call('PUT', `${I}/settings`, { body: { lowStockThreshold: 10 } });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ data: { lowStockThreshold: 10 } });
    const [entry] = await t.database.db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.tenantId, 'lighting'), eq(schema.auditLog.entity, 'store.settings')))
      .orderBy(sql`${schema.auditLog.id} DESC`)
      .limit(1);
    expect(entry?.changes).toMatchObject({ lowStockThreshold: { before: 5, after: 10 } });

    // The storefront's "only N left" and the dashboard's low-stock card use it at once.
    expect(await details()).toBe(8);
    const home = await call('GET', '/api/v1/dashboard/home');
    expect(home.json().data.lowStock.threshold).toBe(10);
    const low = await call('GET', `${I}/products?stock=low&q=threshold%20lamp`);
    expect(low.json().data.items.map((i: { productId: string }) => i.productId)).toEqual([productId]);
    // Another store keeps its own.
    expect((await call('GET', `${I}/settings`, { session: gardenOwner, host: GARDEN })).json().data).toEqual({
      lowStockThreshold: 5,
    });

    expect((await call('PUT', `${I}/settings`, { body: { lowStockThreshold: 5 } })).statusCode).toBe(200);
    expect(await details()).toBeNull();
  });
});

async function declinedOrder(productId: string, quantity: number) {
  const added = await t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/product/addToCart`,
    headers: { host: HOST },
    payload: { productId, quantity },
  });
  const cookie = String([added.headers['set-cookie']].flat()[0]).split(';')[0] as string;
  const body = guestCardOrder();
  return t.app.inject({
    method: 'POST',
    url: `${B}/ecommerce/checkout/processorder`,
    headers: { host: HOST, cookie, 'idempotency-key': crypto.randomUUID() },
    payload: { ...body, payment: { ...body.payment, cardNumber: TEST_CARDS.declined } },
  });
}

describe('the books add up', () => {
  it('after orders, a declined (given back) order, a return and adjustments, concurrently: sum of deltas == stock', async () => {
    const a = await newProduct('Books Lamp A');
    const b = await newProduct('Books Lamp B');
    await adjust(a, { reason: 'RECEIVED', delta: 6 });
    await adjust(b, { reason: 'RECEIVED', delta: 20 });

    const order = await placeGuestOrder(t.app, { host: HOST, productId: b, quantity: 3 });
    expect(order.statusCode).toBe(200);
    const orderId = order.json().data.orderId as string;
    const declined = await declinedOrder(b, 2);
    expect(declined.statusCode).toBe(422);
    // The return came back to the shelf: the owner books it.
    await adjust(b, { reason: 'RETURNED', delta: 1, note: `Return of ${orderId}` });

    // Ten shoppers at once for the last 6 of A, while the owner takes 2 as damaged: never oversold.
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () => placeGuestOrder(t.app, { host: HOST, productId: a, quantity: 1 })),
      adjust(a, { reason: 'DAMAGED', delta: -2 }),
    ]);
    const sold = results.slice(0, 10).filter((r) => r.statusCode === 200).length;
    const refused = results.slice(0, 10).filter((r) => r.statusCode !== 200);
    const damagedOk = results[10]?.statusCode === 200;
    expect(sold + (damagedOk ? 2 : 0)).toBeLessThanOrEqual(6);
    expect(await stockOf(a)).toBe(6 - sold - (damagedOk ? 2 : 0));
    for (const r of refused) {
      expect(r.statusCode).toBe(409);
      expect(r.json()).toMatchObject({ code: 'OUT_OF_STOCK', message: expect.stringContaining('Books Lamp A') });
    }
    expect(await stockOf(b)).toBe(20 - 3 + 1);

    // B's books: the order's SOLD (linked), the declined order's SOLD and RELEASED, the return.
    const bBooks = await t.database.db
      .select()
      .from(sm)
      .where(and(eq(sm.tenantId, 'lighting'), eq(sm.productId, b)));
    expect(bBooks.map((m) => m.reason).sort()).toEqual(['RECEIVED', 'RELEASED', 'RETURNED', 'SOLD', 'SOLD']);
    expect(bBooks.find((m) => m.reason === 'SOLD' && m.orderId === orderId)?.delta).toBe(-3);

    // Every product this file made: the books start at 0, so their sum is the stock.
    for (const productId of made) {
      const [sum] = await t.database.db
        .select({ n: sql<number>`coalesce(sum(${sm.delta}), 0)::int` })
        .from(sm)
        .where(and(eq(sm.tenantId, 'lighting'), eq(sm.productId, productId)));
      expect(sum?.n, productId).toBe(await stockOf(productId));
    }
  });
});
