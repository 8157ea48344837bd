import { schema } from '@app/db';
import { parse } from 'csv-parse/sync';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeGuestOrder, stockedProductId } from '../../../test/guest-order';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../../test/harness';
import { createStaff } from '../../../test/staff';
import { LINE_SEPARATOR, splitLineEntries } from './order-list.service';

/**
 * The dashboard's orders list (decision 042): keyset pages in every sort without
 * gaps or repeats (ties included), search by order id, email and name, each filter, validation naming
 * the field, who may see it, saved views per staff member (audited), and the streamed CSV export.
 */
const POWER = SEEDED_HOSTS.power;
const LIGHTING = SEEDED_HOSTS.lighting;
const T = 'power';
let t: TestApp;
let owner: BrowserSession;
let shopper: BrowserSession;
let ordersStaff: BrowserSession;
let catalogStaff: BrowserSession;
let lightingOwner: BrowserSession;
let shopperUserId: string;

const get = (url: string, session: BrowserSession | null = owner, host: string = POWER.host) =>
  t.app.inject({ method: 'GET', url, headers: { host, ...(session ?? {}) } });
const send = (
  method: 'POST' | 'DELETE',
  url: string,
  payload: Record<string, unknown> | undefined,
  session: BrowserSession | null = owner,
  host: string = POWER.host,
) => t.app.inject({ method, url, headers: { host, origin: `http://${host}`, ...(session ?? {}) }, payload });

type Row = {
  orderId: string;
  placedAt: string;
  status: string;
  paymentStatus: string;
  customerName: string;
  email: string;
  items: number;
  grandTotal: number;
};

/**
 * Test orders `OLT-<prefix>-<i>` straight into the table (the list reads; how orders are placed is
 * checkout's business). `over` sets a row's fields; totals always add up.
 */
async function addOrders(
  prefix: string,
  n: number,
  over: (i: number) => Partial<typeof schema.orders.$inferInsert> & { qty?: number } = () => ({}),
) {
  const ids: string[] = [];
  const orders: (typeof schema.orders.$inferInsert)[] = [];
  const lines: (typeof schema.orderLines.$inferInsert)[] = [];
  for (let i = 0; i < n; i++) {
    const { qty, ...o } = over(i);
    const subtotal = o.subtotal ?? 1000 + i * 100;
    const orderId = `OLT-${prefix}-${String(i).padStart(3, '0')}`;
    const status = o.status ?? 'paid';
    const captured = o.capturedAmount ?? (status === 'placed' || status === 'cancelled' ? 0 : subtotal);
    orders.push({
      tenantId: T,
      orderId,
      userId: null,
      email: `${prefix.toLowerCase()}${i}@orders-list.test`,
      currency: 'USD',
      discount: 0,
      shippingTotal: 0,
      taxTotal: 0,
      shippingMethodId: 'STANDARD',
      shippingMethodName: 'Standard',
      shipTo: {
        toName: `Buyer ${prefix} ${i}`,
        address1: '1 Main St',
        address2: null,
        city: 'Springfield',
        postalCode: '12345',
        countryGeoId: 'USA',
        stateProvinceGeoId: null,
        phone: null,
      },
      paymentProvider: 'test',
      paymentLabel: 'Visa •••• 4242',
      idempotencyKey: `olt:${orderId}`,
      requestHash: 'x',
      placedAt: new Date('2026-03-01T12:00:00Z'),
      ...o,
      status,
      subtotal,
      grandTotal: subtotal,
      capturedAmount: captured,
      refundedAmount: o.refundedAmount ?? 0,
    });
    lines.push({
      tenantId: T,
      orderId,
      lineNo: 1,
      productId: 'X',
      productName: 'Thing',
      quantity: qty ?? 1,
      unitPrice: Math.floor(subtotal / (qty ?? 1)),
      lineTotal: Math.floor(subtotal / (qty ?? 1)) * (qty ?? 1),
    });
    ids.push(orderId);
  }
  for (let i = 0; i < n; i += 200) await t.database.db.insert(schema.orders).values(orders.slice(i, i + 200));
  for (let i = 0; i < n; i += 200) await t.database.db.insert(schema.orderLines).values(lines.slice(i, i + 200));
  return ids;
}

const list = async (query: string, session: BrowserSession | null = owner) => {
  const res = await get(`/api/v1/orders?${query}`, session);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { rows: Row[]; nextCursor: string | null; prevCursor: string | null };
};
const idsOf = async (query: string) => (await list(query)).rows.map((r) => r.orderId);

async function allPages(query: string, limit: number) {
  const pages: Row[][] = [];
  const cursors: (string | null)[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 50; i++) {
    const data = await list(`${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    pages.push(data.rows);
    cursors.push(data.prevCursor);
    cursor = data.nextCursor;
    if (!cursor) break;
  }
  return { pages, prevCursors: cursors };
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await signIn(t.app, 'owner@power.test', 'owner-demo-1', POWER.host);
  shopper = await signIn(t.app, 'shopper@power.test', 'shopper-demo-1', POWER.host);
  await createStaff(t.database, T, 'orders-staff@power.test', ['orders']);
  await createStaff(t.database, T, 'catalog-staff@power.test', ['catalog']);
  ordersStaff = await signIn(t.app, 'orders-staff@power.test', 'owner-demo-1', POWER.host);
  catalogStaff = await signIn(t.app, 'catalog-staff@power.test', 'owner-demo-1', POWER.host);
  lightingOwner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING.host);
  const [u] = await t.database.db
    .select({ id: schema.users.userId })
    .from(schema.users)
    .where(and(eq(schema.users.tenantId, T), eq(schema.users.email, 'shopper@power.test')));
  shopperUserId = u?.id as string;
});
afterAll(async () => {
  await t?.close();
});

describe('the list', () => {
  it('answers a placed order with its payment status, customer, items and total', async () => {
    const productId = await stockedProductId(t.database.db, T);
    const placed = await placeGuestOrder(t.app, {
      host: POWER.host,
      productId,
      quantity: 2,
      email: 'Shape.Check@Orders-List.test',
    });
    expect(placed.statusCode, placed.body).toBe(200);
    const { rows } = await list('q=shape.check@orders-list.test');
    expect(rows).toHaveLength(1);
    const row = rows[0] as Row & Record<string, unknown>;
    expect(row).toMatchObject({
      status: 'paid',
      paymentStatus: 'paid',
      customerName: 'Grace Hopper',
      items: 2,
      currency: 'USD',
      userId: null,
      refundedAmount: 0,
    });
    expect(row.email.toLowerCase()).toBe('shape.check@orders-list.test');
    expect(row.grandTotal).toBeGreaterThan(0);
    expect(Date.parse(row.placedAt)).not.toBeNaN();
    // The newest order of the store comes first without any filter.
    const first = await list('');
    expect(first.rows[0]?.orderId).toBe(row.orderId);
    expect(first.prevCursor).toBeNull();
  });

  it('pages every sort with no duplicate and no gap, ties broken by order id, and goes back', async () => {
    // Eleven orders, placed in three instants and with three totals: ties everywhere.
    const ids = await addOrders('KEY', 11, (i) => ({
      placedAt: new Date(Date.UTC(2026, 2, 1, 12, 0, i % 3)),
      subtotal: 1000 + (i % 3) * 500,
    }));
    for (const sort of ['newest', 'oldest', 'total-high', 'total-low']) {
      const { pages, prevCursors } = await allPages(`q=OLT-KEY&sort=${sort}`, 4);
      const seen = pages.flat().map((r) => r.orderId);
      expect(seen, sort).toHaveLength(11);
      expect(new Set(seen).size).toBe(11);
      expect([...seen].sort()).toEqual([...ids].sort());
      expect(pages.map((p) => p.length)).toEqual([4, 4, 3]);
      const keys = pages.flat().map((r) => (sort.startsWith('total') ? r.grandTotal : Date.parse(r.placedAt)));
      const desc = sort === 'newest' || sort === 'total-high';
      for (let i = 1; i < keys.length; i++) {
        const a = keys[i - 1] as number;
        const b = keys[i] as number;
        expect(desc ? a >= b : a <= b, `${sort} at ${i}`).toBe(true);
      }
      // Previous from the third page is the second page, and from the second the first.
      const back = await list(`q=OLT-KEY&sort=${sort}&limit=4&cursor=${prevCursors[2]}`);
      expect(back.rows.map((r) => r.orderId)).toEqual(pages[1]?.map((r) => r.orderId));
      const backAgain = await list(`q=OLT-KEY&sort=${sort}&limit=4&cursor=${back.prevCursor}`);
      expect(backAgain.rows.map((r) => r.orderId)).toEqual(pages[0]?.map((r) => r.orderId));
      expect(backAgain.prevCursor).toBeNull();
      expect(backAgain.nextCursor).not.toBeNull();
    }
  });

  it('searches by order id (exact or beginning, any case), email, ship-to name and account name', async () => {
    await addOrders('SRC', 3, (i) => ({
      email: ['ida.quill@example.test', 'Bo.Ramsey@Example.test', 'zed@example.test'][i],
      shipTo: {
        toName: ['Ida Quill', 'Bo Ramsey', 'Parcel Desk'][i] as string,
        address1: '1 Main St',
        address2: null,
        city: 'Springfield',
        postalCode: '12345',
        countryGeoId: 'USA',
        stateProvinceGeoId: null,
        phone: null,
      },
      userId: i === 2 ? shopperUserId : null,
    }));
    expect(await idsOf('q=OLT-SRC-001')).toEqual(['OLT-SRC-001']);
    expect(await idsOf('q=olt-src-001')).toEqual(['OLT-SRC-001']);
    expect((await idsOf('q=olt-src-')).sort()).toEqual(['OLT-SRC-000', 'OLT-SRC-001', 'OLT-SRC-002']);
    expect(await idsOf('q=bo.ramsey@example.test')).toEqual(['OLT-SRC-001']);
    expect(await idsOf('q=IDA.Q')).toEqual(['OLT-SRC-000']);
    expect(await idsOf('q=ramsey')).toEqual(['OLT-SRC-001']);
    expect(await idsOf('q=ida')).toContain('OLT-SRC-000');
    // The account's name (Sam Shopper) finds its order though the parcel went to someone else.
    const byAccount = await list('q=sam shop');
    expect(byAccount.rows.map((r) => r.orderId)).toContain('OLT-SRC-002');
    expect(byAccount.rows.find((r) => r.orderId === 'OLT-SRC-002')?.customerName).toBe('Sam Shopper');
    // LIKE's wildcards are plain characters in a search.
    expect(await idsOf('q=OLT_SRC')).toEqual([]);
    expect(await idsOf('q=%25')).toEqual([]);
    expect(await idsOf('q=no-such-order-anywhere')).toEqual([]);
  });

  it('filters by status (several), payment status, fulfilment, placed dates and total', async () => {
    const spec: [string, number, number][] = [
      // status, captured, refunded
      ['placed', 0, 0],
      ['paid', 2000, 0],
      ['fulfilled', 2000, 500],
      ['delivered', 2000, 0],
      ['completed', 2000, 2000],
      ['cancelled', 0, 0],
      ['refunded', 2000, 2000],
      ['cancelled', 2000, 2000],
    ];
    await addOrders('FLT', spec.length, (i) => {
      const [status, captured, refunded] = spec[i] as [string, number, number];
      return {
        status,
        subtotal: 2000 + i * 1000,
        capturedAmount: captured ? 2000 + i * 1000 : 0,
        refundedAmount: refunded ? (refunded === 2000 ? 2000 + i * 1000 : refunded) : 0,
        placedAt: new Date(Date.UTC(2026, 0, 1 + i, 10)),
      };
    });
    const f = async (q: string) => (await idsOf(`q=OLT-FLT&${q}`)).map((id) => Number(id.slice(-3))).sort();
    expect(await f('status=paid')).toEqual([1]);
    expect(await f('status=paid,fulfilled')).toEqual([1, 2]);
    expect(await f('status=paid&status=delivered')).toEqual([1, 3]);
    expect(await f('payment=pending')).toEqual([0]);
    expect(await f('payment=paid')).toEqual([1, 3]);
    expect(await f('payment=partially_refunded')).toEqual([2]);
    expect(await f('payment=refunded')).toEqual([4, 6, 7]);
    expect(await f('payment=voided')).toEqual([5]);
    expect(await f('fulfilment=unfulfilled')).toEqual([1]);
    expect(await f('fulfilment=shipped')).toEqual([2]);
    expect(await f('fulfilment=delivered')).toEqual([3, 4]);
    expect(await f('fulfilment=delivered&status=delivered')).toEqual([3]);
    expect(await f('fulfilment=shipped&status=paid')).toEqual([]);
    expect(await f('from=2026-01-03&to=2026-01-04')).toEqual([2, 3]);
    expect(await f('from=2026-01-07')).toEqual([6, 7]);
    expect(await f('to=2026-01-01')).toEqual([0]);
    // Totals are typed as decimals in the store's currency: 30.00 to 50 -> 3000..5000 minor units.
    expect(await f('totalMin=30.00&totalMax=50')).toEqual([1, 2, 3]);
    expect(await f('totalMin=80')).toEqual([6, 7]);
    expect(await f('totalMin=1,000.00')).toEqual([]);
    // Each row's payment status is the one of contracts' paymentStatusOf.
    const rows = (await list('q=OLT-FLT&sort=oldest')).rows;
    expect(rows.map((r) => r.paymentStatus)).toEqual([
      'pending',
      'paid',
      'partially_refunded',
      'paid',
      'refunded',
      'voided',
      'refunded',
      'refunded',
    ]);
  });

  it('refuses a bad query with a 400 that names the field', async () => {
    const cases: [string, string][] = [
      ['status=shipped-ish', 'status'],
      ['payment=free', 'payment'],
      ['fulfilment=maybe', 'fulfilment'],
      ['from=2026-13-45', 'from'],
      ['from=yesterday', 'from'],
      ['totalMin=abc', 'totalMin'],
      ['totalMin=12.345', 'totalMin'],
      ['totalMin=50&totalMax=10', 'totalMax'],
      ['from=2026-02-02&to=2026-02-01', 'to'],
      ['sort=cheapest', 'sort'],
      ['limit=500', 'limit'],
      ['cursor=not-a-cursor', 'cursor'],
      [`q=${'x'.repeat(201)}`, 'q'],
    ];
    for (const [q, field] of cases) {
      const res = await get(`/api/v1/orders?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(JSON.stringify(res.json()), q).toContain(field);
    }
    const csv = await get('/api/v1/orders/export.csv?totalMax=lots');
    expect(csv.statusCode).toBe(400);
    expect(JSON.stringify(csv.json())).toContain('totalMax');
  });

  it('is for staff with the orders permission of this store only', async () => {
    await addOrders('ACC', 1);
    expect((await get('/api/v1/orders', null)).statusCode).toBe(401);
    expect((await get('/api/v1/orders', shopper)).statusCode).toBe(403);
    expect((await get('/api/v1/orders', catalogStaff)).statusCode).toBe(403);
    expect((await get('/api/v1/orders/export.csv', null)).statusCode).toBe(401);
    expect((await get('/api/v1/orders/export.csv', shopper)).statusCode).toBe(403);
    expect((await get('/api/v1/orders/export.csv', catalogStaff)).statusCode).toBe(403);
    expect((await list('q=OLT-ACC', ordersStaff)).rows).toHaveLength(1);
    // Another store's owner never sees this store's orders, by search or in the export.
    const other = await get('/api/v1/orders?q=OLT-ACC', lightingOwner, LIGHTING.host);
    expect(other.statusCode).toBe(200);
    expect(other.json().data.rows).toEqual([]);
    const otherAll = await get('/api/v1/orders?limit=50', lightingOwner, LIGHTING.host);
    expect(otherAll.json().data.rows.some((r: Row) => r.orderId.startsWith('OLT-'))).toBe(false);
    const otherCsv = await get('/api/v1/orders/export.csv', lightingOwner, LIGHTING.host);
    expect(otherCsv.statusCode).toBe(200);
    expect(otherCsv.body).not.toContain('OLT-');
    // This store's session means nothing on the other store's host.
    expect((await get('/api/v1/orders', owner, LIGHTING.host)).statusCode).toBe(401);
  });
});

describe('the export', () => {
  it('streams the filtered list as CSV with amounts as decimals and quoted cells', async () => {
    await addOrders('CSV', 3, (i) => ({
      status: i === 2 ? 'fulfilled' : 'paid',
      subtotal: 12345 + i,
      refundedAmount: i === 1 ? 345 : 0,
      qty: i + 1,
      shipTo: {
        toName: i === 0 ? 'Quote "Q" Person, Jr.' : `Csv ${i}`,
        address1: '1 Main St',
        address2: null,
        city: 'Köln',
        postalCode: '50667',
        countryGeoId: 'DEU',
        stateProvinceGeoId: null,
        phone: null,
      },
    }));
    const res = await get('/api/v1/orders/export.csv?q=OLT-CSV&status=paid&sort=oldest');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const lines = res.body.slice(1).trim().split('\n');
    expect(lines[0]).toBe(
      'order_id,placed_at,status,payment_status,customer_name,email,items,subtotal,discount,shipping,tax,total,refunded,currency,shipping_method,ship_to_city,ship_to_country,variant_titles,skus',
    );
    expect(lines).toHaveLength(3); // the fulfilled one is filtered out
    expect(lines[1]).toBe(
      'OLT-CSV-000,2026-03-01T12:00:00.000Z,paid,Paid,"Quote ""Q"" Person, Jr.",csv0@orders-list.test,1,123.45,0.00,0.00,0.00,123.45,0.00,USD,Standard,Köln,DEU,,',
    );
    expect(lines[2]).toContain('OLT-CSV-001,2026-03-01T12:00:00.000Z,paid,Partially refunded,Csv 1,');
    expect(lines[2]).toContain(',2,123.46,0.00,0.00,0.00,123.46,3.45,USD,');
  });

  it('includes every matching order across its internal batches of 500, in the list order', async () => {
    await addOrders('BIG', 520, (i) => ({ placedAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i % 7)) }));
    const res = await get('/api/v1/orders/export.csv');
    const ids = res.body
      .slice(1)
      .trim()
      .split('\n')
      .map((l) => l.split(',')[0]);
    expect(ids[0]).toBe('order_id');
    ids.shift();
    expect(ids.length).toBeGreaterThan(520);
    expect(new Set(ids).size).toBe(ids.length);
    const listed: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 100; i++) {
      const data = await list(`limit=50${cursor ? `&cursor=${cursor}` : ''}`);
      listed.push(...data.rows.map((r) => r.orderId));
      cursor = data.nextCursor;
      if (!cursor) break;
    }
    expect(ids).toEqual(listed);
  });
});

describe('variants (decision 112)', () => {
  /** An order of four lines: two variants of one pendant, a product without variants, a fourth. */
  async function variantOrder(prefix: string) {
    const [orderId] = await addOrders(prefix, 1, () => ({ subtotal: 5000 }));
    const ol = schema.orderLines;
    await t.database.db.delete(ol).where(and(eq(ol.tenantId, T), eq(ol.orderId, orderId as string)));
    const line = (lineNo: number, productName: string, variantTitle: string, sku: string | null, quantity = 1) => ({
      tenantId: T,
      orderId: orderId as string,
      lineNo,
      productId: `VARP-${lineNo}`,
      productName,
      variantId: `VARV-${lineNo}`,
      variantTitle,
      sku,
      quantity,
      unitPrice: 1000,
      lineTotal: 1000 * quantity,
    });
    await t.database.db
      .insert(ol)
      .values([
        line(1, 'Pendant', 'Brass / Large', 'PND-BR-L', 2),
        line(2, 'Pendant', 'Black / Small', 'PND-BK-S'),
        line(3, 'Bulb', '', 'BULB-1'),
        line(4, 'Shade', 'Opal', null),
      ]);
    return orderId as string;
  }

  it("lists each order's first lines with their variants, and how many more", async () => {
    const orderId = await variantOrder('VARLIST');
    const { rows } = await list(`q=${orderId}`);
    expect(rows[0]).toMatchObject({
      orderId,
      items: 5,
      lines: [
        { productName: 'Pendant', variantTitle: 'Brass / Large', sku: 'PND-BR-L', quantity: 2 },
        { productName: 'Pendant', variantTitle: 'Black / Small', sku: 'PND-BK-S', quantity: 1 },
        { productName: 'Bulb', variantTitle: '', sku: 'BULB-1', quantity: 1 },
      ],
      moreLines: 1,
    });
  });

  it("exports each line's variant title and SKU, in line order, and they read back", async () => {
    const orderId = await variantOrder('VARCSV');
    const res = await get(`/api/v1/orders/export.csv?q=${orderId}`);
    expect(res.statusCode).toBe(200);
    const rows = parse(res.body.slice(1), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    const row = rows[0] as Record<string, string>;
    expect(row).toMatchObject({ order_id: orderId, items: '5' });
    expect(row.variant_titles).toBe('Brass / Large | Black / Small |  | Opal');
    expect(row.skus).toBe('PND-BR-L | PND-BK-S | BULB-1 | ');
    // Read back: split on the separator, the n-th title and SKU are the n-th line's, as stored.
    const ol = schema.orderLines;
    const stored = await t.database.db
      .select({ variantTitle: ol.variantTitle, sku: ol.sku })
      .from(ol)
      .where(and(eq(ol.tenantId, T), eq(ol.orderId, orderId)))
      .orderBy(ol.lineNo);
    const titles = (row.variant_titles as string).split(LINE_SEPARATOR);
    const skus = (row.skus as string).split(LINE_SEPARATOR);
    expect(titles.map((variantTitle, i) => ({ variantTitle, sku: skus[i] || null }))).toEqual(stored);
  });

  it('escapes a "|" inside a title or SKU, so each line is still one entry when read back', async () => {
    const orderId = await variantOrder('VARPIPE');
    const ol = schema.orderLines;
    const at = (lineNo: number) => and(eq(ol.tenantId, T), eq(ol.orderId, orderId), eq(ol.lineNo, lineNo));
    await t.database.db.update(ol).set({ variantTitle: 'Red | Blue', sku: 'A|B' }).where(at(1));
    await t.database.db.update(ol).set({ variantTitle: 'Back\\slash', sku: 'C | D\\' }).where(at(2));
    const res = await get(`/api/v1/orders/export.csv?q=${orderId}`);
    expect(res.statusCode).toBe(200);
    const row = (parse(res.body.slice(1), { columns: true }) as Record<string, string>[])[0] as Record<string, string>;
    expect(splitLineEntries(row.variant_titles as string)).toEqual(['Red | Blue', 'Back\\slash', '', 'Opal']);
    expect(splitLineEntries(row.skus as string)).toEqual(['A|B', 'C | D\\', 'BULB-1', '']);
  });
});

describe('saved views', () => {
  const audits = (entityId: string) =>
    t.database.db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.tenantId, T), eq(schema.auditLog.entityId, entityId)));

  it('are created from filters, listed for their staff member only, and audited', async () => {
    const res = await send('POST', '/api/v1/order-views', {
      name: 'To ship',
      filters: { fulfilment: 'unfulfilled', status: 'paid', sort: 'oldest' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const view = res.json().data;
    expect(view).toMatchObject({
      name: 'To ship',
      filters: { fulfilment: 'unfulfilled', status: ['paid'], sort: 'oldest' },
    });
    expect(view.viewId).toMatch(/^OV-/);
    const mine = (await get('/api/v1/order-views')).json().data;
    expect(mine.map((v: { viewId: string }) => v.viewId)).toContain(view.viewId);
    // Another staff member of the same store has their own (none).
    const theirs = await get('/api/v1/order-views', ordersStaff);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().data).toEqual([]);
    const [entry] = await audits(view.viewId);
    expect(entry).toMatchObject({ entity: 'order.view', action: 'create', actorKind: 'staff' });
  });

  it('refuse a missing, long or taken name and bad filters, naming the field', async () => {
    const bad = async (payload: Record<string, unknown>, status: number, field: string) => {
      const res = await send('POST', '/api/v1/order-views', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(JSON.stringify(res.json())).toContain(field);
    };
    await bad({ name: '', filters: {} }, 400, 'name');
    await bad({ name: 'x'.repeat(61), filters: {} }, 400, 'name');
    await bad({ filters: {} }, 400, 'name');
    await bad({ name: 'Bad', filters: { payment: 'free' } }, 400, 'payment');
    await bad({ name: 'Bad', filters: { totalMin: '1.234' } }, 400, 'totalMin');
    await send('POST', '/api/v1/order-views', { name: 'Refunds', filters: { payment: 'refunded' } });
    await bad({ name: 'refunds', filters: {} }, 409, 'name');
  });

  it('are deleted by their staff member only (another one is not found), audited', async () => {
    const created = await send(
      'POST',
      '/api/v1/order-views',
      { name: 'Mine only', filters: { q: 'abc' } },
      ordersStaff,
    );
    expect(created.statusCode).toBe(201);
    const { viewId } = created.json().data;
    expect((await send('DELETE', `/api/v1/order-views/${viewId}`, undefined, owner)).statusCode).toBe(404);
    const lighting = await send('DELETE', `/api/v1/order-views/${viewId}`, undefined, lightingOwner, LIGHTING.host);
    expect(lighting.statusCode).toBe(404);
    expect((await send('DELETE', `/api/v1/order-views/${viewId}`, undefined, shopper)).statusCode).toBe(403);
    expect((await send('DELETE', `/api/v1/order-views/${viewId}`, undefined, catalogStaff)).statusCode).toBe(403);
    expect((await send('DELETE', `/api/v1/order-views/${viewId}`, undefined, null)).statusCode).toBe(401);
    const gone = await send('DELETE', `/api/v1/order-views/${viewId}`, undefined, ordersStaff);
    expect(gone.statusCode).toBe(204);
    expect((await get('/api/v1/order-views', ordersStaff)).json().data).toEqual([]);
    const entries = await audits(viewId);
    expect(entries.map((e) => e.action).sort()).toEqual(['create', 'delete']);
  });

  it('are for staff with the orders permission', async () => {
    expect((await get('/api/v1/order-views', null)).statusCode).toBe(401);
    expect((await get('/api/v1/order-views', shopper)).statusCode).toBe(403);
    expect((await get('/api/v1/order-views', catalogStaff)).statusCode).toBe(403);
    expect((await send('POST', '/api/v1/order-views', { name: 'x', filters: {} }, shopper)).statusCode).toBe(403);
    expect((await send('POST', '/api/v1/order-views', { name: 'x', filters: {} }, catalogStaff)).statusCode).toBe(403);
    expect((await send('POST', '/api/v1/order-views', { name: 'x', filters: {} }, null)).statusCode).toBe(401);
  });
});
