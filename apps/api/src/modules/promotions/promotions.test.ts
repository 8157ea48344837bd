import { PROMO_STATUSES, promoStatusOf } from '@app/contracts';
import { schema } from '@app/db';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api-client';
import { guestCardOrder, stockedProductId } from '../../test/guest-order';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';
import { createStaff } from '../../test/staff';

let t: TestApp;
let owner: BrowserSession;
let gardenOwner: BrowserSession;
let shopper: BrowserSession;
let catalogStaff: BrowserSession;
let ordersStaff: BrowserSession;
let productId: string;
const HOST = 'lighting.localhost';
const GARDEN = 'garden.localhost';
const B = '/skulocity/api/v1';
const P = '/api/v1/promo-codes';
const DAY = 86_400_000;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

function call(
  method: Method,
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

/** The owner's promo code routes as a client generated from the OpenAPI document calls them (decision 076). */
const api = (session: BrowserSession = owner) =>
  apiClient(t.app, { host: HOST, headers: { origin: `http://${HOST}`, ...session } });

let seq = 0;
/** A code name no other test of this file uses. */
const fresh = (stem = 'T') => `${stem}-${Date.now().toString(36).toUpperCase()}-${++seq}`;

async function create(body: Record<string, unknown>, session: BrowserSession = owner, host = HOST) {
  const res = await call('POST', P, { body: { code: fresh(), kind: 'percent', value: 10, ...body }, session, host });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { code: string } & Record<string, unknown>;
}

async function auditOf(code: string, tenantId = 'lighting') {
  const al = schema.auditLog;
  return t.database.db
    .select()
    .from(al)
    .where(and(eq(al.tenantId, tenantId), eq(al.entity, 'promo_code'), eq(al.entityId, code)))
    .orderBy(desc(al.id));
}

/** A guest's cart (its cookie) with one product and the code applied; answers the cookie. */
async function cartWithCode(code: string, quantity = 1): Promise<string> {
  const added = await t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/product/addToCart`,
    headers: { host: HOST, origin: `http://${HOST}` },
    payload: { productId, quantity },
  });
  expect(added.statusCode, added.body).toBe(200);
  const cookie = String([added.headers['set-cookie']].flat()[0]).split(';')[0] as string;
  const applied = await t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/cart/addpromocode`,
    headers: { host: HOST, origin: `http://${HOST}`, cookie },
    payload: { promoCode: code.toLowerCase() },
  });
  expect(applied.statusCode, applied.body).toBe(200);
  return cookie;
}

function placeOrder(cookie: string, email = 'promo-buyer@example.com') {
  return t.app.inject({
    method: 'POST',
    url: `${B}/ecommerce/checkout/processorder`,
    headers: { host: HOST, origin: `http://${HOST}`, cookie, 'idempotency-key': crypto.randomUUID() },
    payload: guestCardOrder(email),
  });
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', HOST);
  gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
  shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', HOST);
  await createStaff(t.database, 'lighting', 'promo-catalog@lighting.test', ['catalog']);
  await createStaff(t.database, 'lighting', 'promo-orders@lighting.test', ['orders']);
  catalogStaff = await signIn(t.app, 'promo-catalog@lighting.test', 'owner-demo-1', HOST);
  ordersStaff = await signIn(t.app, 'promo-orders@lighting.test', 'owner-demo-1', HOST);
  productId = await stockedProductId(t.database.db, 'lighting');
});
afterAll(() => t?.close());

describe('who may use the promo code routes', () => {
  it('a visitor gets 401, a shopper 403, staff without orders 403; staff with orders may', async () => {
    const code = (await create({})).code;
    const routes: [Method, string, object?][] = [
      ['GET', P],
      ['GET', `${P}/${code}`],
      ['POST', P, { code: fresh('PERM'), kind: 'percent', value: 5 }],
      ['PUT', `${P}/${code}`, { kind: 'percent', value: 12 }],
      ['POST', `${P}/${code}/deactivate`],
      ['POST', `${P}/${code}/activate`],
      ['DELETE', `${P}/${code}`],
    ];
    for (const [method, url, body] of routes) {
      expect((await call(method, url, { body, session: null })).statusCode, `${method} ${url}`).toBe(401);
      expect((await call(method, url, { body, session: shopper })).statusCode, `${method} ${url}`).toBe(403);
      const staff = await call(method, url, { body, session: catalogStaff });
      expect(staff.statusCode, `${method} ${url}`).toBe(403);
      expect(staff.json().message).toContain('orders');
    }
    // Nothing changed by the refused calls: the code is still there with its first rules.
    const [row] = await t.database.db
      .select()
      .from(schema.promoCodes)
      .where(and(eq(schema.promoCodes.tenantId, 'lighting'), eq(schema.promoCodes.code, code)));
    expect(row?.value).toBe(10);
    for (const [method, url, body] of routes) {
      const res = await call(method, url, { body, session: ordersStaff });
      expect([200, 201], `${method} ${url}: ${res.body}`).toContain(res.statusCode);
    }
  });
});

describe('creating and editing codes', () => {
  it('creates a code stored upper-cased, with its summary, status and an audit entry', async () => {
    const name = fresh('spring').toLowerCase();
    const res = await api().POST('/api/v1/promo-codes', {
      body: {
        code: `  ${name} `,
        kind: 'amount',
        value: 1000,
        description: 'Spring sale',
        minSubtotal: 5000,
        usageLimit: 100,
        perCustomerLimit: 1,
      },
    });
    expect(res.response.status, JSON.stringify(res.error)).toBe(201);
    const created = res.data?.data;
    expect(created).toMatchObject({
      code: name.toUpperCase(),
      kind: 'amount',
      value: 1000,
      description: 'Spring sale',
      minSubtotal: 5000,
      startsAt: null,
      endsAt: null,
      usageLimit: 100,
      perCustomerLimit: 1,
      timesUsed: 0,
      active: true,
      status: 'active',
      summary: '$10.00 off orders over $50.00',
      currency: 'USD',
    });
    const [entry] = await auditOf(name.toUpperCase());
    expect(entry).toMatchObject({ action: 'create', actorKind: 'staff', entity: 'promo_code' });
    expect(entry?.changes.value).toEqual({ after: 1000 });

    const percent = await create({ code: fresh('PCT'), kind: 'percent', value: 20 });
    expect(percent.summary).toBe('20% off');
  });

  it('refuses bad fields with 400 naming the field, and creates nothing', async () => {
    const name = fresh('BAD');
    const bad: [object, string][] = [
      [{ code: 'ab', kind: 'percent', value: 10 }, 'code'],
      [{ code: 'has space', kind: 'percent', value: 10 }, 'code'],
      [{ code: `${'X'.repeat(33)}`, kind: 'percent', value: 10 }, 'code'],
      [{ code: name, kind: 'percent', value: 101 }, 'value'],
      [{ code: name, kind: 'percent', value: 0 }, 'value'],
      [{ code: name, kind: 'amount', value: 0 }, 'value'],
      [{ code: name, kind: 'amount', value: 9.5 }, 'value'],
      [{ code: name, kind: 'free', value: 10 }, 'kind'],
      [{ code: name, kind: 'percent', value: 10, minSubtotal: -1 }, 'minSubtotal'],
      [{ code: name, kind: 'percent', value: 10, usageLimit: 0 }, 'usageLimit'],
      [{ code: name, kind: 'percent', value: 10, perCustomerLimit: 1.5 }, 'perCustomerLimit'],
      [{ code: name, kind: 'percent', value: 10, startsAt: 'tomorrow' }, 'startsAt'],
      [
        { code: name, kind: 'percent', value: 10, startsAt: '2026-06-01T00:00:00Z', endsAt: '2026-05-01T00:00:00Z' },
        'endsAt',
      ],
      [{ code: name, kind: 'percent', value: 10, description: 'd'.repeat(201) }, 'description'],
      [{ code: name, kind: 'percent', value: 10, timesUsed: 5 }, ''],
    ];
    for (const [body, field] of bad) {
      const res = await call('POST', P, { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message, JSON.stringify(body)).toContain(field ? `body.${field}` : 'body');
    }
    expect((await call('GET', `${P}/${name}`)).statusCode).toBe(404);
  });

  it('refuses a code the store has already, in any case, with 409 naming code', async () => {
    const name = fresh('DUP');
    await create({ code: name });
    const again = await call('POST', P, { body: { code: name.toLowerCase(), kind: 'percent', value: 50 } });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/^code: /);
    // The seeded WELCOME10 too; another store's code of the same name is no clash.
    expect((await call('POST', P, { body: { code: 'welcome10', kind: 'percent', value: 5 } })).statusCode).toBe(409);
    await create({ code: name }, gardenOwner, GARDEN);
  });

  it('replaces the rules with PUT, keeps the code, audits before and after; 400 names the field', async () => {
    const code = (await create({ code: fresh('EDIT'), value: 10 })).code;
    const starts = new Date(Date.now() + DAY).toISOString();
    const ends = new Date(Date.now() + 10 * DAY).toISOString();
    const res = await call('PUT', `${P}/${code.toLowerCase()}`, {
      body: { kind: 'amount', value: 250, startsAt: starts, endsAt: ends, usageLimit: 3 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      code,
      kind: 'amount',
      value: 250,
      startsAt: starts,
      endsAt: ends,
      usageLimit: 3,
      status: 'scheduled',
    });
    const [entry] = await auditOf(code);
    expect(entry?.action).toBe('update');
    expect(entry?.changes.kind).toEqual({ before: 'percent', after: 'amount' });

    const bad = await call('PUT', `${P}/${code}`, {
      body: { kind: 'percent', value: 10, endsAt: starts, startsAt: ends },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('body.endsAt');
    const renamed = await call('PUT', `${P}/${code}`, { body: { code: 'OTHER', kind: 'percent', value: 10 } });
    expect(renamed.statusCode).toBe(400);
    expect((await call('PUT', `${P}/NOPE-${code}`, { body: { kind: 'percent', value: 10 } })).statusCode).toBe(404);
  });

  it('deactivates and activates, each audited; doing it twice changes nothing more', async () => {
    const code = (await create({ code: fresh('ONOFF') })).code;
    const params = { path: { code } };
    const off = await api().POST('/api/v1/promo-codes/{code}/deactivate', { params });
    expect(off.response.status).toBe(200);
    expect(off.data?.data).toMatchObject({ active: false, status: 'inactive' });
    expect((await api().POST('/api/v1/promo-codes/{code}/deactivate', { params })).response.status).toBe(200);
    const on = await api().POST('/api/v1/promo-codes/{code}/activate', { params });
    expect(on.data?.data).toMatchObject({ active: true, status: 'active' });
    // A shopper is refused by the owner route before anything changes.
    const refused = await api(shopper).POST('/api/v1/promo-codes/{code}/deactivate', { params });
    expect(refused.response.status).toBe(403);
    expect(refused.error?.code).toBe('FORBIDDEN');
    const actions = (await auditOf(code)).map((e) => e.action);
    expect(actions).toEqual(['activate', 'deactivate', 'create']);
  });
});

describe('another store', () => {
  it('cannot read, change or delete a code of another store: 404, and the code is untouched', async () => {
    const code = (await create({ code: fresh('MINE') })).code;
    const routes: [Method, string, object?][] = [
      ['GET', `${P}/${code}`],
      ['PUT', `${P}/${code}`, { kind: 'percent', value: 99 }],
      ['POST', `${P}/${code}/deactivate`],
      ['DELETE', `${P}/${code}`],
    ];
    for (const [method, url, body] of routes) {
      const res = await call(method, url, { body, session: gardenOwner, host: GARDEN });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const list = await call('GET', P, { session: gardenOwner, host: GARDEN });
    expect(list.json().data.items.map((c: { code: string }) => c.code)).not.toContain(code);
    const mine = await call('GET', `${P}/${code}`);
    expect(mine.json().data.code).toMatchObject({ value: 10, active: true });
    expect(await auditOf(code, 'garden')).toEqual([]);
  });
});

describe('the list', () => {
  it('shows the newest first, pages with a cursor, and filters by each status as the cart sees it', async () => {
    const now = Date.now();
    const made = {
      active: await create({ code: fresh('ST-ACT') }),
      scheduled: await create({ code: fresh('ST-SCH'), startsAt: new Date(now + DAY).toISOString() }),
      expired: await create({ code: fresh('ST-EXP'), endsAt: new Date(now - DAY).toISOString() }),
      used_up: await create({ code: fresh('ST-USED'), usageLimit: 1 }),
      inactive: await create({ code: fresh('ST-OFF'), active: false }),
    };
    await t.database.db
      .update(schema.promoCodes)
      .set({ timesUsed: 1 })
      .where(and(eq(schema.promoCodes.tenantId, 'lighting'), eq(schema.promoCodes.code, made.used_up.code)));

    const all = await call('GET', `${P}?limit=100`);
    expect(all.statusCode).toBe(200);
    const items = all.json().data.items as { code: string; status: string; createdAt: string }[];
    // Newest first: the five just made lead, in the reverse of their making.
    expect(items.slice(0, 5).map((c) => c.code)).toEqual(
      [made.inactive, made.used_up, made.expired, made.scheduled, made.active].map((c) => c.code),
    );
    for (const status of PROMO_STATUSES) {
      const res = await call('GET', `${P}?status=${status}&limit=100`);
      expect(res.statusCode).toBe(200);
      const codes = (res.json().data.items as { code: string; status: string }[]).map((c) => {
        expect(c.status).toBe(status);
        return c.code;
      });
      expect(codes, status).toContain(made[status].code);
      // The SQL filter and promoStatusOf agree on every code of the store.
      expect(codes.sort()).toEqual(
        items
          .filter((c) => c.status === status)
          .map((c) => c.code)
          .sort(),
      );
    }
    // The seeded EXPIRED5 ended in 2024.
    const rows = await t.database.db.select().from(schema.promoCodes).where(eq(schema.promoCodes.tenantId, 'lighting'));
    const expired5 = rows.find((r) => r.code === 'EXPIRED5');
    expect(expired5 && promoStatusOf(expired5, new Date())).toBe('expired');

    // Two at a time, the pages together are the whole list, each code once.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await call('GET', `${P}?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode).toBe(200);
      const page = res.json().data as { items: { code: string }[]; nextCursor: string | null };
      seen.push(...page.items.map((c) => c.code));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(items.map((c) => c.code));

    const badCursor = await call('GET', `${P}?cursor=nonsense`);
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.json().message).toMatch(/^cursor:/);
    const badStatus = await call('GET', `${P}?status=paused`);
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.json().message).toContain('status');
  });
});

describe('usage, and the rules re-checked when the order is placed', () => {
  it("lists the orders that used a code, newest first, with the discount and the order's link", async () => {
    const code = (await create({ code: fresh('USE'), kind: 'percent', value: 20 })).code;
    const first = await placeOrder(await cartWithCode(code), 'first-user@example.com');
    expect(first.statusCode, first.body).toBe(200);
    const second = await placeOrder(await cartWithCode(code), 'second-user@example.com');
    expect(second.statusCode, second.body).toBe(200);
    const orders = await t.database.db
      .select()
      .from(schema.orders)
      .where(and(eq(schema.orders.tenantId, 'lighting'), eq(schema.orders.promoCode, code)));
    expect(orders).toHaveLength(2);

    const res = await call('GET', `${P}/${code}`);
    expect(res.statusCode).toBe(200);
    const detail = res.json().data;
    expect(detail.code).toMatchObject({ code, timesUsed: 2 });
    expect(detail.redemptions.map((r: { email: string }) => r.email)).toEqual([
      'second-user@example.com',
      'first-user@example.com',
    ]);
    for (const r of detail.redemptions) {
      const order = orders.find((o) => o.orderId === r.orderId);
      expect(order).toBeDefined();
      expect(r.discount).toBe(order?.discount);
      expect(r.discount).toBeGreaterThan(0);
      expect(r.orderHref).toBe(`/manage-store/orders/${encodeURIComponent(r.orderId)}`);
    }
  });

  it('refuses to delete a used code (409: deactivate it instead); deletes an unused one, audited', async () => {
    const used = (await create({ code: fresh('KEEP') })).code;
    expect((await placeOrder(await cartWithCode(used))).statusCode).toBe(200);
    const refused = await call('DELETE', `${P}/${used}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('deactivate it instead');
    expect((await call('GET', `${P}/${used}`)).statusCode).toBe(200);

    const unused = (await create({ code: fresh('GONE') })).code;
    const deleted = await call('DELETE', `${P}/${unused.toLowerCase()}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().data).toEqual({ code: unused, deleted: true });
    expect((await call('GET', `${P}/${unused}`)).statusCode).toBe(404);
    const [entry] = await auditOf(unused);
    expect(entry?.action).toBe('delete');
    expect((await call('DELETE', `${P}/${unused}`)).statusCode).toBe(404);
  });

  it('refuses at placement a code deactivated after it went in the cart, with the cart’s message', async () => {
    const code = (await create({ code: fresh('LATE-OFF') })).code;
    const cookie = await cartWithCode(code);
    expect((await call('POST', `${P}/${code}/deactivate`)).statusCode).toBe(200);
    const res = await placeOrder(cookie);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'PROMO_INVALID', message: 'That promo code is not valid.' });
    expect((await call('GET', `${P}/${code}`)).json().data.code.timesUsed).toBe(0);
  });

  it('refuses at placement a code that ended after it went in the cart', async () => {
    const code = (await create({ code: fresh('LATE-END') })).code;
    const cookie = await cartWithCode(code);
    const ended = await call('PUT', `${P}/${code}`, {
      body: { kind: 'percent', value: 10, endsAt: new Date(Date.now() - 1000).toISOString() },
    });
    expect(ended.statusCode).toBe(200);
    const res = await placeOrder(cookie);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'PROMO_INVALID', message: `${code} has expired.` });
  });

  it('refuses at placement a code used up after it went in the cart', async () => {
    const code = (await create({ code: fresh('LATE-LIM'), usageLimit: 1 })).code;
    const a = await cartWithCode(code);
    const b = await cartWithCode(code);
    expect((await placeOrder(a, 'a-buyer@example.com')).statusCode).toBe(200);
    const res = await placeOrder(b, 'b-buyer@example.com');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'PROMO_INVALID', message: `${code} has been used up.` });
    expect((await call('GET', `${P}/${code}`)).json().data.code).toMatchObject({ timesUsed: 1, status: 'used_up' });
  });

  it('refuses at placement a second use by one customer past the per-customer limit set in the dashboard', async () => {
    const code = (await create({ code: fresh('LATE-ONE') })).code;
    expect((await placeOrder(await cartWithCode(code), 'repeat@example.com')).statusCode).toBe(200);
    const cookie = await cartWithCode(code);
    expect(
      (await call('PUT', `${P}/${code}`, { body: { kind: 'percent', value: 10, perCustomerLimit: 1 } })).statusCode,
    ).toBe(200);
    const res = await placeOrder(cookie, 'repeat@example.com');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'PROMO_INVALID', message: `${code} can be used only once per customer.` });
  });
});

describe('OpenAPI', () => {
  it('documents the promo code routes', async () => {
    const res = await t.app.inject({ url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc.paths[P] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths[`${P}/{code}`] ?? {}).sort()).toEqual(['delete', 'get', 'put']);
    expect(doc.paths[`${P}/{code}/deactivate`]?.post).toBeDefined();
    expect(doc.paths[`${P}/{code}/activate`]?.post).toBeDefined();
  });
});
