import { randomUUID } from 'node:crypto';
import { schema } from '@app/db';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeGuestOrder, stockedProductId } from '../../test/guest-order';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import { createTestSmtp } from '../../test/smtp';
import { createStaff } from '../../test/staff';
import { createMailer } from '../mail/index';

/**
 * The dashboard's customers (decision 045): who is a customer (shopper accounts,
 * guests by email, a guest who registered later is the account), the list's filters, sorts and keyset
 * pages, lifetime value with refunds, notes and the password reset (audited, the mail through a real
 * SMTP server), the export, and who may see any of it.
 */
const POWER = SEEDED_HOSTS.power;
const LIGHTING = SEEDED_HOSTS.lighting;
const T = 'power';
const run = randomUUID().slice(0, 8);
const mail = (name: string) => `${name}-${run}@cust.test`;

const smtp = createTestSmtp();
const received = smtp.received;

let t: TestApp;
let owner: BrowserSession;
let shopper: BrowserSession;
let ordersOnly: BrowserSession;
let customersStaff: BrowserSession;
let lightingOwner: BrowserSession;

const get = (url: string, session: BrowserSession | null = owner, host: string = POWER.host) =>
  t.app.inject({ method: 'GET', url, headers: { host, ...(session ?? {}) } });
const send = (
  method: 'POST' | 'DELETE',
  url: string,
  payload: Record<string, unknown> | undefined,
  session: BrowserSession | null = owner,
  host: string = POWER.host,
) =>
  t.app.inject({
    method,
    url,
    headers: { host, origin: `http://${host}`, ...(session ?? {}) },
    ...(payload ? { payload } : {}),
  });

let seq = 0;
/** An order written as checkout would leave it: captured when paid, refunded within the capture. */
async function addOrder(o: {
  email: string;
  userId?: string;
  grand?: number;
  captured?: number;
  refunded?: number;
  status?: string;
  placedAt?: Date;
  toName?: string;
  address1?: string;
  tenantId?: string;
}) {
  const orderId = `CUS-${run}-${++seq}`;
  const grand = o.grand ?? 1000;
  await t.database.db.insert(schema.orders).values({
    tenantId: o.tenantId ?? T,
    orderId,
    userId: o.userId ?? null,
    email: o.email,
    status: o.status ?? 'paid',
    currency: 'USD',
    subtotal: grand,
    discount: 0,
    shippingTotal: 0,
    taxTotal: 0,
    grandTotal: grand,
    shippingMethodId: 'STANDARD',
    shippingMethodName: 'Standard',
    shipTo: {
      toName: o.toName ?? 'Guest Person',
      address1: o.address1 ?? '1 Market Street',
      address2: null,
      city: 'San Francisco',
      postalCode: '94105',
      countryGeoId: 'USA',
      stateProvinceGeoId: 'US_CA',
      phone: null,
    },
    paymentProvider: 'test',
    paymentRef: null,
    paymentLabel: 'Visa •••• 4242',
    idempotencyKey: orderId,
    requestHash: 'test',
    capturedAmount: o.captured ?? (o.status === 'placed' ? 0 : grand),
    refundedAmount: o.refunded ?? 0,
    placedAt: o.placedAt ?? new Date(),
    updatedAt: o.placedAt ?? new Date(),
  });
  return orderId;
}

async function addShopper(email: string, first: string, last: string, tenantId = T, createdAt?: Date) {
  const userId = `CU-${run}-${++seq}`;
  await t.database.db.insert(schema.users).values({
    tenantId,
    userId,
    email,
    passwordHash: 'x',
    firstName: first,
    lastName: last,
    role: 'shopper',
    ...(createdAt ? { createdAt } : {}),
  });
  return userId;
}

const list = async (query: string, session: BrowserSession | null = owner, host: string = POWER.host) => {
  const res = await get(`/api/v1/customers?${query}`, session, host);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    rows: {
      userId: string | null;
      email: string;
      name: string;
      type: string;
      orderCount: number;
      amountSpent: number;
      lastOrderAt: string | null;
      since: string;
    }[];
    nextCursor: string | null;
    currency: string;
  };
};

beforeAll(async () => {
  const smtpUrl = await smtp.listen();
  t = await createTestApp({
    mailer: createMailer({ smtpUrl, from: 'Shop <no-reply@shop.test>', outboxDir: '' }),
  });
  owner = await signIn(t.app, 'owner@power.test', 'owner-demo-1', POWER.host);
  shopper = await signIn(t.app, 'shopper@power.test', 'shopper-demo-1', POWER.host);
  await createStaff(t.database, T, `orders-${run}@power.test`, ['orders']);
  ordersOnly = await signIn(t.app, `orders-${run}@power.test`, 'owner-demo-1', POWER.host);
  await createStaff(t.database, T, `people-${run}@power.test`, ['customers']);
  customersStaff = await signIn(t.app, `people-${run}@power.test`, 'owner-demo-1', POWER.host);
  lightingOwner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING.host);
});
afterAll(async () => {
  await t?.close();
  await smtp.close();
});

describe('who is a customer', () => {
  it('lists shopper accounts and guests by email, never staff or the owner', async () => {
    const rows = (await list('limit=50&sort=name')).rows;
    const all: typeof rows = [...rows];
    let cursor = (await list('limit=50&sort=name')).nextCursor;
    while (cursor) {
      const page = await list(`limit=50&sort=name&cursor=${cursor}`);
      all.push(...page.rows);
      cursor = page.nextCursor;
    }
    const emails = all.map((r) => r.email);
    expect(emails).toContain('shopper@power.test');
    expect(emails).not.toContain('owner@power.test');
    expect(emails).not.toContain(`orders-${run}@power.test`);
    expect(emails.some((e) => e.endsWith('@lighting.test'))).toBe(false);
  });

  it('a guest ordering through checkout appears by email with what was captured', async () => {
    const email = mail('Checkout.Guest');
    const productId = await stockedProductId(t.database.db, T);
    const placed = await placeGuestOrder(t.app, { host: POWER.host, productId, email });
    expect(placed.statusCode, placed.body).toBeLessThan(300);
    const { rows } = await list(`q=${encodeURIComponent(email)}`);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row?.type).toBe('guest');
    expect(row?.userId).toBeNull();
    expect(row?.email).toBe(email.toLowerCase());
    expect(row?.orderCount).toBe(1);
    const [order] = await t.database.db
      .select()
      .from(schema.orders)
      .where(and(eq(schema.orders.tenantId, T), eq(sql`lower(${schema.orders.email})`, email.toLowerCase())));
    expect(row?.amountSpent).toBe(order?.capturedAmount);
    expect(row?.amountSpent).toBeGreaterThan(0);
  });

  it('guest orders with one email in any case are one guest; registering with it makes them the account', async () => {
    const email = mail('later');
    await addOrder({ email, grand: 1500, toName: 'Later Buyer' });
    await addOrder({ email: email.toUpperCase(), grand: 2500, toName: 'Later Buyer' });
    let rows = (await list(`q=${encodeURIComponent(email)}`)).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: 'guest', orderCount: 2, amountSpent: 4000, name: 'Later Buyer' });
    const guestPage = await get(`/api/v1/customers/guest/${encodeURIComponent(email)}`);
    expect(guestPage.statusCode).toBe(200);

    const userId = await addShopper(email, 'Lena', 'Later');
    await addOrder({ email, userId, grand: 1000 });
    rows = (await list(`q=${encodeURIComponent(email)}`)).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: 'account', userId, orderCount: 3, amountSpent: 5000, name: 'Lena Later' });
    // The guest's page is gone (it is the account's now); the account's page shows all three orders.
    expect((await get(`/api/v1/customers/guest/${encodeURIComponent(email)}`)).statusCode).toBe(404);
    const detail = (await get(`/api/v1/customers/${userId}`)).json().data;
    expect(detail.orders).toHaveLength(3);
  });

  it('a shopper account without orders is listed with zero', async () => {
    const email = mail('noorders');
    const userId = await addShopper(email, 'Nora', 'None');
    const { rows } = await list(`q=${encodeURIComponent(email)}`);
    expect(rows).toEqual([
      expect.objectContaining({ userId, type: 'account', orderCount: 0, amountSpent: 0, lastOrderAt: null }),
    ]);
  });
});

describe('lifetime value', () => {
  it('is captured minus refunded; unpaid and cancelled orders count as orders but add nothing', async () => {
    const email = mail('ltv');
    const userId = await addShopper(email, 'Val', 'Ue');
    const first = new Date('2026-01-05T10:00:00Z');
    const last = new Date('2026-03-07T10:00:00Z');
    await addOrder({ email, userId, grand: 10000, placedAt: first });
    const refunded = await addOrder({
      email,
      userId,
      grand: 6000,
      refunded: 0,
      placedAt: new Date('2026-02-01T10:00:00Z'),
    });
    await addOrder({ email, userId, grand: 3000, status: 'placed', placedAt: new Date('2026-02-02T10:00:00Z') });
    await addOrder({ email, userId, grand: 2000, captured: 0, status: 'cancelled', placedAt: last });
    // A partial refund later: the summary follows the order's refunded amount.
    await t.database.db
      .update(schema.orders)
      .set({ refundedAmount: 1500 })
      .where(and(eq(schema.orders.tenantId, T), eq(schema.orders.orderId, refunded)));
    const detail = (await get(`/api/v1/customers/${userId}`)).json().data;
    expect(detail).toMatchObject({
      type: 'account',
      email,
      name: 'Val Ue',
      orderCount: 4,
      lifetimeValue: 10000 + 6000 - 1500,
      averageOrder: Math.round((10000 + 6000 - 1500) / 2),
      firstOrderAt: first.toISOString(),
      lastOrderAt: last.toISOString(),
      currency: 'USD',
    });
    expect(detail.orders.map((o: { paymentStatus: string }) => o.paymentStatus)).toEqual([
      'voided',
      'pending',
      'partially_refunded',
      'paid',
    ]);
    const { rows } = await list(`q=${encodeURIComponent(email)}`);
    expect(rows[0]?.amountSpent).toBe(14500);
  });

  it('shows the address book and the ship-to addresses of the orders, each once', async () => {
    const email = mail('addr');
    const userId = await addShopper(email, 'Ada', 'Dress');
    await t.database.db.insert(schema.postalAddresses).values({
      tenantId: T,
      contactMechId: `CM-${run}`,
      userId,
      toName: 'Ada Dress',
      address1: '9 Book Road',
      city: 'San Francisco',
      postalCode: '94105',
      countryGeoId: 'USA',
      stateProvinceGeoId: 'US_CA',
    });
    await addOrder({ email, userId, address1: '9 Book Road', toName: 'Ada Dress' });
    await addOrder({ email, userId, address1: '5 Ship Lane', toName: 'Ada Dress' });
    await addOrder({ email, userId, address1: '5 ship lane', toName: 'Ada Dress' });
    const detail = (await get(`/api/v1/customers/${userId}`)).json().data;
    const shown = detail.addresses.map(
      (a: { source: string; address1: string }) => `${a.source}:${a.address1.toLowerCase()}`,
    );
    // The book's address is not repeated by the order shipped to it; two spellings of one street are one.
    expect(shown.sort()).toEqual(['address_book:9 book road', 'order:5 ship lane']);
  });
});

describe('the list', () => {
  it('filters by orders, type and customer-since range, and searches name or email', async () => {
    const tag = `flt${run}`;
    const acc = await addShopper(`${tag}-acc@cust.test`, 'Filter', 'Account', T, new Date('2024-02-10T12:00:00Z'));
    await addOrder({ email: `${tag}-acc@cust.test`, userId: acc, placedAt: new Date('2025-01-01T00:00:00Z') });
    await addShopper(`${tag}-idle@cust.test`, 'Filter', 'Idle', T, new Date('2024-03-15T12:00:00Z'));
    await addOrder({
      email: `${tag}-guest@cust.test`,
      toName: 'Filter Guest',
      placedAt: new Date('2024-04-20T12:00:00Z'),
    });
    const emails = async (q: string) => (await list(`q=${tag}&${q}`)).rows.map((r) => r.email.split('@')[0]).sort();
    expect(await emails('')).toEqual([`${tag}-acc`, `${tag}-guest`, `${tag}-idle`]);
    expect(await emails('orders=yes')).toEqual([`${tag}-acc`, `${tag}-guest`]);
    expect(await emails('orders=no')).toEqual([`${tag}-idle`]);
    expect(await emails('type=guest')).toEqual([`${tag}-guest`]);
    expect(await emails('type=account')).toEqual([`${tag}-acc`, `${tag}-idle`]);
    expect(await emails('since_from=2024-03-15&since_to=2024-04-20')).toEqual([`${tag}-guest`, `${tag}-idle`]);
    expect(await emails('since_to=2024-02-10')).toEqual([`${tag}-acc`]);
    // Search by part of a name, any case.
    const byName = (await list(`q=${encodeURIComponent('ILTER GUE')}`)).rows.map((r) => r.email);
    expect(byName).toContain(`${tag}-guest@cust.test`);
  });

  it('sorts by last order, amount spent and name, and pages by keyset with no duplicate or gap', async () => {
    const tag = `srt${run}`;
    for (let i = 0; i < 7; i++) {
      // Ties on amount (two values) and on names (one value): the key breaks them.
      await addOrder({
        email: `${tag}-${i}@cust.test`,
        grand: 1000 + (i % 2) * 500,
        toName: 'Same Name',
        placedAt: new Date(Date.UTC(2026, 0, 1 + (i % 3))),
      });
    }
    for (const sort of ['last_order', 'amount_spent', 'name']) {
      const seen: { email: string; amountSpent: number; lastOrderAt: string | null }[] = [];
      let cursor: string | null = null;
      for (let p = 0; p < 10; p++) {
        const page: Awaited<ReturnType<typeof list>> = await list(
          `q=${tag}&sort=${sort}&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
        );
        seen.push(...page.rows);
        cursor = page.nextCursor;
        if (!cursor) break;
      }
      expect(seen).toHaveLength(7);
      expect(new Set(seen.map((r) => r.email)).size).toBe(7);
      if (sort === 'amount_spent') {
        const amounts = seen.map((r) => r.amountSpent);
        expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
      }
      if (sort === 'last_order') {
        const times = seen.map((r) => r.lastOrderAt ?? '');
        expect(times).toEqual([...times].sort().reverse());
      }
    }
  });

  it('refuses a bad filter with 400 naming the field', async () => {
    for (const [q, field] of [
      ['orders=maybe', 'orders'],
      ['type=staff', 'type'],
      ['since_from=2024-13-45', 'since_from'],
      ['since_from=2025-02-01&since_to=2025-01-01', 'since_to'],
      ['sort=email', 'sort'],
      ['limit=500', 'limit'],
      ['cursor=bm90LWEtY3Vyc29y', 'cursor'],
    ] as const) {
      const res = await get(`/api/v1/customers?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.body, q).toContain(field);
    }
  });

  it('exports the filtered list as CSV with amounts as decimals', async () => {
    const tag = `csv${run}`;
    await addOrder({ email: `${tag}-a@cust.test`, grand: 12345, toName: 'Csv, "Quoted"' });
    await addOrder({ email: `${tag}-b@cust.test`, grand: 99 });
    const res = await get(`/api/v1/customers/export.csv?q=${tag}&sort=amount_spent`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="customers-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe('name,email,type,orders,amount_spent,currency,last_order_at,customer_since');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(new RegExp(`^"Csv, ""Quoted""",${tag}-a@cust.test,guest,1,123.45,USD,`));
    expect(lines[2]).toMatch(new RegExp(`^Guest Person,${tag}-b@cust.test,guest,1,0.99,USD,`));
  });
});

describe('notes and password reset', () => {
  it('adds and deletes a note on an account and on a guest, each audited', async () => {
    const email = mail('noted');
    const userId = await addShopper(email, 'Noted', 'Person');
    const added = await send('POST', `/api/v1/customers/${userId}/notes`, { note: '  Prefers morning delivery  ' });
    expect(added.statusCode, added.body).toBe(201);
    const note = added.json().data;
    expect(note).toMatchObject({ note: 'Prefers morning delivery', authorName: expect.any(String) });
    expect((await get(`/api/v1/customers/${userId}`)).json().data.notes).toEqual([note]);

    const guest = mail('guest-noted');
    await addOrder({ email: guest });
    const gAdded = await send('POST', `/api/v1/customers/guest/${encodeURIComponent(guest)}/notes`, {
      note: 'Called about parcel',
    });
    expect(gAdded.statusCode).toBe(201);

    const del = await send('DELETE', `/api/v1/customers/${userId}/notes/${note.noteId}`, undefined);
    expect(del.statusCode).toBe(204);
    expect((await get(`/api/v1/customers/${userId}`)).json().data.notes).toEqual([]);
    // Deleting it again, or through another customer, is not found.
    expect((await send('DELETE', `/api/v1/customers/${userId}/notes/${note.noteId}`, undefined)).statusCode).toBe(404);
    const gNote = gAdded.json().data.noteId;
    expect((await send('DELETE', `/api/v1/customers/${userId}/notes/${gNote}`, undefined)).statusCode).toBe(404);

    const entries = await t.database.db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.tenantId, T), eq(schema.auditLog.entity, 'customer.note')));
    const mine = entries.filter((e) => e.entityId === note.noteId || e.entityId === gNote);
    expect(mine.map((e) => `${e.entityId === gNote ? 'guest' : 'account'}:${e.action}`).sort()).toEqual([
      'account:create',
      'account:delete',
      'guest:create',
    ]);
    expect(mine.every((e) => e.actorEmail === 'owner@power.test')).toBe(true);
  });

  it('refuses an empty or too long note with 400 naming the field', async () => {
    const userId = await addShopper(mail('empty-note'), 'Empty', 'Note');
    for (const note of ['   ', 'x'.repeat(2001)]) {
      const res = await send('POST', `/api/v1/customers/${userId}/notes`, { note });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('note');
    }
  });

  it("sends the account a password-reset mail through the auth flow, audited, within the auth module's limits", async () => {
    const email = mail('reset');
    const userId = await addShopper(email, 'Reset', 'Me');
    const before = received.length;
    const res = await send('POST', `/api/v1/customers/${userId}/password-reset`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ email });
    await t.services.jobs.drain();
    const got = received.slice(before).filter((m) => m.to.includes(email));
    expect(got).toHaveLength(1);
    const raw = (got[0]?.raw ?? '').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(raw).toMatch(/Subject: Reset your .+ password/);
    expect(raw).toMatch(/http:\/\/power\.localhost\/auth\/reset-password\?token=[A-Za-z0-9_-]+/);
    const [entry] = await t.database.db
      .select()
      .from(schema.auditLog)
      .where(
        and(
          eq(schema.auditLog.tenantId, T),
          eq(schema.auditLog.entity, 'customer'),
          eq(schema.auditLog.entityId, `u:${userId}`),
          eq(schema.auditLog.action, 'password-reset'),
        ),
      );
    expect(entry?.actorEmail).toBe('owner@power.test');
    // The auth module's per-account limit holds for the owner too.
    let last = 200;
    for (let i = 0; i < 10 && last === 200; i++) {
      last = (await send('POST', `/api/v1/customers/${userId}/password-reset`, {})).statusCode;
    }
    expect(last).toBe(429);
  });

  it('a guest has no account to reset', async () => {
    const res = await send('POST', `/api/v1/customers/guest/${encodeURIComponent(mail('g'))}/password-reset`, {});
    expect(res.statusCode).toBe(404);
  });
});

describe('who may', () => {
  it('401 visitor, 403 shopper, 403 staff without customers; staff with customers may', async () => {
    const userId = await addShopper(mail('perm'), 'Perm', 'Check');
    const paths: ['GET' | 'POST' | 'DELETE', string, Record<string, unknown> | undefined][] = [
      ['GET', '/api/v1/customers', undefined],
      ['GET', '/api/v1/customers/export.csv', undefined],
      ['GET', `/api/v1/customers/${userId}`, undefined],
      ['POST', `/api/v1/customers/${userId}/notes`, { note: 'x' }],
      ['DELETE', `/api/v1/customers/${userId}/notes/none`, undefined],
      ['POST', `/api/v1/customers/${userId}/password-reset`, {}],
    ];
    for (const [method, url, body] of paths) {
      const as = (s: BrowserSession | null) => (method === 'GET' ? get(url, s) : send(method, url, body, s));
      expect((await as(null)).statusCode, `${method} ${url} visitor`).toBe(401);
      expect((await as(shopper)).statusCode, `${method} ${url} shopper`).toBe(403);
      expect((await as(ordersOnly)).statusCode, `${method} ${url} orders staff`).toBe(403);
    }
    expect((await get('/api/v1/customers', customersStaff)).statusCode).toBe(200);
    expect((await get(`/api/v1/customers/${userId}`, customersStaff)).statusCode).toBe(200);
  });

  it("another store's customer is 404 and never listed", async () => {
    const email = mail('lighting');
    const theirs = await addShopper(email, 'Other', 'Store', 'lighting');
    await addOrder({ email: mail('lighting-guest'), tenantId: 'lighting' });
    expect((await get(`/api/v1/customers/${theirs}`)).statusCode).toBe(404);
    expect((await get(`/api/v1/customers/guest/${encodeURIComponent(mail('lighting-guest'))}`)).statusCode).toBe(404);
    expect((await send('POST', `/api/v1/customers/${theirs}/notes`, { note: 'x' })).statusCode).toBe(404);
    expect((await send('POST', `/api/v1/customers/${theirs}/password-reset`, {})).statusCode).toBe(404);
    expect((await list(`q=${run}`)).rows.some((r) => r.email.includes('lighting'))).toBe(false);
    // The other store's owner sees them, and not ours.
    const theirList = (await list(`q=${run}`, lightingOwner, LIGHTING.host)).rows;
    expect(theirList.map((r) => r.email).sort()).toEqual([email, mail('lighting-guest')].sort());
  });
});
