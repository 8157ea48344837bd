import { randomUUID } from 'node:crypto';
import type { ActivityEntry, DashboardHome } from '@app/contracts';
import { schema } from '@app/db';
import { and, asc, eq, gt, ne, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { PageRequest } from '../../lib/page-request';
import { createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import { createStaff } from '../../test/staff';
import { createAuditService } from '../audit/index';
import { TEST_CARDS } from '../payments/index';
import { dashboardPages } from './dashboard.pages';
import { createDashboardService } from './dashboard.service';

let t: TestApp;
const LIGHTING = SEEDED_HOSTS.lighting.host;
const GARDEN = SEEDED_HOSTS.garden.host;
const HOME = '/api/v1/dashboard/home';

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const rows = async <T>(q: SQL) => ((await t.database.db.execute(q)) as unknown as { rows: T[] }).rows;

/**
 * The home's figures worked out straight from the tables, without the service's code: paid means
 * any status but placed and cancelled, "today" the UTC day, 30 days the 29 before it and today.
 */
async function expected(tenantId: string, productStoreId: string) {
  const day = sql`(date_trunc('day', now() at time zone 'UTC') at time zone 'UTC')`;
  const [sales] = await rows<{ total: string; orders: string; prev_total: string; prev_orders: string }>(sql`
    SELECT coalesce(sum(grand_total) FILTER (WHERE placed_at >= ${day} - interval '29 days'), 0) AS total,
           count(*) FILTER (WHERE placed_at >= ${day} - interval '29 days') AS orders,
           coalesce(sum(grand_total) FILTER (WHERE placed_at < ${day} - interval '29 days'), 0) AS prev_total,
           count(*) FILTER (WHERE placed_at < ${day} - interval '29 days') AS prev_orders
      FROM orders
     WHERE tenant_id = ${tenantId}
       AND status NOT IN ('placed', 'cancelled')
       AND placed_at >= ${day} - interval '59 days'
       AND currency = (SELECT currency_uom_id FROM product_stores
                        WHERE tenant_id = ${tenantId} AND product_store_id = ${productStoreId})`);
  const waiting = await rows<{ order_id: string; name: string | null }>(sql`
    SELECT o.order_id, u.first_name || ' ' || u.last_name AS name
      FROM orders o LEFT JOIN users u ON u.tenant_id = o.tenant_id AND u.user_id = o.user_id
     WHERE o.tenant_id = ${tenantId} AND o.status = 'paid'
     ORDER BY o.placed_at DESC, o.order_id DESC`);
  // Per variant: enabled live variants at or below the threshold (decision 112).
  const low = await rows<{ product_id: string; stock_quantity: number }>(sql`
    SELECT v.product_id, v.stock_quantity FROM product_variants v
      JOIN products p ON p.tenant_id = v.tenant_id AND p.product_id = v.product_id
     WHERE v.tenant_id = ${tenantId} AND v.stock_quantity <= 5 AND v.enabled AND v.removed_at IS NULL
     ORDER BY v.stock_quantity, p.product_name, v.position, v.variant_id LIMIT 8`);
  return {
    sales: {
      sales: { value: Number(sales?.total), previous: Number(sales?.prev_total) },
      orders: { value: Number(sales?.orders), previous: Number(sales?.prev_orders) },
    },
    toFulfilCount: waiting.length,
    toFulfilIds: waiting.slice(0, 5).map((r) => r.order_id),
    toFulfilNames: waiting.slice(0, 5).map((r) => r.name),
    lowStock: low.map((r) => ({ productId: r.product_id, stock: Number(r.stock_quantity) })),
  };
}

async function home(host: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url: HOME, headers: { host, ...headers } });
}

describe('GET /api/v1/dashboard/home', () => {
  it("shows the owner the store's own figures, as the orders and products tables have them", async () => {
    const owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
    const res = await home(LIGHTING, owner);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const data = res.json().data as DashboardHome;
    const want = await expected('lighting', '9000');
    expect(data.currency).toBe('USD');
    expect(data.range).toMatchObject({ preset: '30d', days: 30, bucket: 'day' });
    expect(data.analytics).toMatchObject(want.sales);
    expect(data.analytics?.series).toHaveLength(30);
    if (!data.toFulfil) throw new Error('the owner sees the orders to fulfil');
    expect(data.toFulfil.count).toBe(want.toFulfilCount);
    expect(data.toFulfil.orders.map((o) => o.orderId)).toEqual(want.toFulfilIds);
    // The seed's paid orders are the demo accounts': each shows its account's name.
    expect(data.toFulfil.orders.map((o) => o.customerName)).toEqual(want.toFulfilNames);
    expect(data.toFulfil.orders.every((o) => o.currency === 'USD' && o.total > 0)).toBe(true);
    expect(data.lowStock.threshold).toBe(5);
    expect(data.lowStock.products.map((p) => ({ productId: p.productId, stock: p.stock }))).toEqual(want.lowStock);
    // The seed has products out of stock: they lead the list.
    expect(data.lowStock.products[0]?.stock).toBe(0);
    // The owner may read the audit log; nothing has been changed through the dashboard yet.
    expect(data.activity).toEqual({ available: true, entries: [] });
  });

  it('lists an audited change as activity, and hides the log from staff without the settings permission', async () => {
    const ctx = {
      tenantId: 'lighting',
      productStoreId: '9000',
      hostName: LIGHTING,
      viaDevAlias: false,
      origin: `http://${LIGHTING}`,
      requestId: 'dashboard-test',
      ip: null,
      actor: {
        kind: 'staff',
        role: 'admin',
        permissions: new Set(),
        userId: 'owner',
        firstName: 'Olive',
        userLoginId: 'owner@lighting.test',
        session: { token: 'x', via: 'bearer' },
      },
    } as const satisfies RequestContext;
    await t.database.db.transaction((tx) =>
      createAuditService(t.database.db).record(tx, ctx, {
        entity: 'theme',
        entityId: '9000',
        action: 'update',
        before: { primary: '1, 2, 3' },
        after: { primary: '4, 5, 6' },
      }),
    );
    const owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
    const shown = (await home(LIGHTING, owner)).json().data as DashboardHome;
    expect(shown.activity.entries[0]).toMatchObject({ entity: 'theme', action: 'update', changedFields: ['primary'] });

    await createStaff(t.database, 'lighting', 'catalog.only@lighting.test', ['catalog']);
    const staff = await signIn(t.app, 'catalog.only@lighting.test', 'owner-demo-1', LIGHTING);
    const hidden = (await home(LIGHTING, staff)).json().data as DashboardHome;
    expect(hidden.activity).toEqual({ available: false, entries: [] });
    // Sales and orders are the orders permission's: this staff member sees the home without them.
    expect(shown.analytics).not.toBeNull();
    expect(hidden.analytics).toBeNull();
    expect(hidden.toFulfil).toBeNull();
    expect(hidden.cleanup).toBeNull();
    expect(hidden.lowStock).toEqual(shown.lowStock);
  });

  it('refuses a visitor with 401 and a shopper with 403, with no figures', async () => {
    const visitor = await home(LIGHTING);
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json()).toMatchObject({ error: true, code: 'UNAUTHENTICATED' });
    const shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
    const refused = await home(LIGHTING, shopper);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().data).toEqual({ message: refused.json().message });
  });

  it("does not take lighting's owner session on garden's host, and never shows garden's figures", async () => {
    const owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
    const res = await home(GARDEN, owner);
    expect(res.statusCode).toBe(401);
    expect(res.json()).not.toHaveProperty('data.sales');
    // The same cookie on its own store still works: the refusal was the host's, not the session's.
    expect((await home(LIGHTING, owner)).statusCode).toBe(200);
    // And garden's own owner sees garden's figures, not lighting's.
    const gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
    const garden = (await home(GARDEN, gardenOwner)).json().data as DashboardHome;
    const want = await expected('garden', '9001');
    expect(garden.analytics).toMatchObject(want.sales);
    expect(garden.toFulfil?.orders.map((o) => o.orderId)).toEqual(want.toFulfilIds);
    expect(garden.toFulfil?.orders.every((o) => o.orderId.startsWith('GAR-'))).toBe(true);
  });

  it("a newly placed order moves today's sales and joins the orders to fulfil, newest first", async () => {
    const owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
    const before = (await home(LIGHTING, owner)).json().data as DashboardHome;

    const p = schema.products;
    const [product] = await t.database.db
      .select()
      .from(p)
      .where(and(eq(p.tenantId, 'lighting'), gt(p.stockQuantity, 5), ne(p.productType, 'CONFIGURABLE')))
      .orderBy(asc(p.productId))
      .limit(1);
    if (!product) throw new Error('no product to buy');
    const shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
    const added = await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/public/ecommerce/product/addToCart',
      headers: { host: LIGHTING, ...shopper },
      payload: { productId: product.productId, quantity: 1 },
    });
    expect(added.statusCode).toBe(200);
    const placed = await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/ecommerce/checkout/processorder',
      headers: { host: LIGHTING, 'idempotency-key': randomUUID(), ...shopper },
      payload: {
        shipTo: {
          toName: 'Sam Shopper',
          address1: '1 Market Street',
          city: 'San Francisco',
          postalCode: '94105',
          countryGeoId: 'USA',
          stateProvinceGeoId: 'US_CA',
        },
        shippingMethodId: 'STANDARD',
        payment: {
          method: 'card',
          cardNumber: TEST_CARDS.success,
          cvc: '123',
          expMonth: 12,
          expYear: 2099,
          nameOnCard: 'S S',
        },
      },
    });
    expect(placed.statusCode, placed.body).toBe(200);
    const order = placed.json().data as { orderId: string; total: number; status: string };
    expect(order.status).toBe('paid');

    const after = (await home(LIGHTING, owner)).json().data as DashboardHome;
    expect(after.analytics?.sales.value).toBe((before.analytics?.sales.value ?? 0) + order.total);
    expect(after.analytics?.orders.value).toBe((before.analytics?.orders.value ?? 0) + 1);
    // Today's bucket, the last of the chart, has it too.
    expect(after.analytics?.series.at(-1)?.orders).toBe((before.analytics?.series.at(-1)?.orders ?? 0) + 1);
    if (!after.toFulfil || !before.toFulfil) throw new Error('the owner sees the orders to fulfil');
    expect(after.toFulfil.count).toBe(before.toFulfil.count + 1);
    expect(after.toFulfil.orders[0]).toMatchObject({ orderId: order.orderId, total: order.total, currency: 'USD' });
    expect(after.toFulfil.orders[0]?.email).toBe('shopper@lighting.test');
  });
});

/** A page request as the page server builds it, for the page function alone. */
function pageRequestAs(actor: RequestContext['actor']): PageRequest {
  const ctx: RequestContext = {
    tenantId: 'lighting',
    productStoreId: '9000',
    hostName: LIGHTING,
    viaDevAlias: false,
    origin: `http://${LIGHTING}`,
    actor,
    requestId: 'test',
    ip: null,
  };
  return {
    ctx,
    headers: {},
    secure: false,
    assertFormFromStore() {},
    cached: (_key, compute) => compute(),
  };
}
const signedIn = {
  firstName: 'Ada',
  userLoginId: 'ada@lighting.test',
  session: { token: 't', via: 'cookie' as const },
};

describe('dashboardPermissions page function (the menu)', () => {
  it('gives staff what they were granted, and refuses visitors and shoppers', async () => {
    const pages = dashboardPages({ dashboard: createDashboardService(t.database.db) });
    const staff = pages(
      pageRequestAs({ kind: 'staff', role: 'staff', permissions: new Set(['orders']), userId: 'u2', ...signedIn }),
    );
    expect(await staff.dashboardPermissions()).toEqual(['orders']);
    await expect(pages(pageRequestAs({ kind: 'guest', cartToken: null })).dashboardPermissions()).rejects.toMatchObject(
      { statusCode: 401 },
    );
    await expect(
      pages(pageRequestAs({ kind: 'shopper', userId: 'u1', ...signedIn })).dashboardPermissions(),
    ).rejects.toMatchObject({ statusCode: 403 });
  });
});

describe('dashboardHome page function', () => {
  const dashboard = () => createDashboardService(t.database.db);

  it('refuses a visitor (401) and a shopper (403) before reading anything', async () => {
    const pages = dashboardPages({ dashboard: dashboard() });
    const visitor = pages(pageRequestAs({ kind: 'guest', cartToken: null })).dashboardHome();
    await expect(visitor).rejects.toMatchObject({ statusCode: 401 });
    const shopper = pages(pageRequestAs({ kind: 'shopper', userId: 'u1', ...signedIn })).dashboardHome();
    await expect(shopper).rejects.toBeInstanceOf(AppError);
    await expect(shopper).rejects.toMatchObject({ statusCode: 403 });
  });

  it('lets staff of the store in, whatever their permissions, and shows sales only with the orders permission', async () => {
    const pages = dashboardPages({ dashboard: dashboard() });
    const staff = pages(
      pageRequestAs({ kind: 'staff', role: 'staff', permissions: new Set(), userId: 'u2', ...signedIn }),
    );
    const data = await staff.dashboardHome();
    expect(data.analytics).toBeNull();
    expect(data.lowStock.products.length).toBeGreaterThan(0);
    const seller = pages(
      pageRequestAs({ kind: 'staff', role: 'staff', permissions: new Set(['orders']), userId: 'u3', ...signedIn }),
    );
    expect((await seller.dashboardHome()).analytics).toMatchObject((await expected('lighting', '9000')).sales);
  });

  it('keeps a refused custom range as typed, with the error beside its field and the default figures', async () => {
    const pages = dashboardPages({ dashboard: dashboard() });
    const owner = pages(
      pageRequestAs({ kind: 'staff', role: 'admin', permissions: new Set(), userId: 'u1', ...signedIn }),
    );
    const refused = await owner.dashboardHome({ range: 'custom', from: '2026-03-10', to: '2026-03-01' });
    expect(refused.rangeError).toEqual({ field: 'to', message: 'Must be on or after the start date' });
    expect(refused.query).toEqual({ range: 'custom', from: '2026-03-10', to: '2026-03-01' });
    expect(refused.range.preset).toBe('30d');
    const fine = await owner.dashboardHome({ range: '7d' });
    expect(fine.rangeError).toBeNull();
    expect(fine.range).toMatchObject({ preset: '7d', days: 7 });
  });

  it('lets only the orders permission read the clean-up runs', async () => {
    const pages = dashboardPages({ dashboard: dashboard() });
    const catalog = pages(
      pageRequestAs({ kind: 'staff', role: 'staff', permissions: new Set(['catalog']), userId: 'u4', ...signedIn }),
    );
    await expect(catalog.ordersCleanup()).rejects.toMatchObject({ statusCode: 403 });
    await expect(pages(pageRequestAs({ kind: 'guest', cartToken: null })).ordersCleanup()).rejects.toMatchObject({
      statusCode: 401,
    });
    const seller = pages(
      pageRequestAs({ kind: 'staff', role: 'staff', permissions: new Set(['orders']), userId: 'u5', ...signedIn }),
    );
    expect((await seller.ordersCleanup()).afterMinutes).toBe(30);
  });

  it('shows the latest audit entries when the audit log is wired in, with the changed fields only', async () => {
    const entry = (n: number): ActivityEntry => ({
      id: `a${n}`,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
      actor: { userId: 'u1', name: 'Olive Owner' },
      entity: 'theme',
      entityId: '9000',
      action: 'update',
      changes: { primary: { before: '1, 2, 3', after: '4, 5, 6' }, secondary: { before: null, after: 'x' } },
    });
    const asked: number[] = [];
    const service = createDashboardService(t.database.db, {
      recentActivity: async (ctx, limit) => {
        expect(ctx.tenantId).toBe('lighting');
        asked.push(limit);
        return Array.from({ length: 10 }, (_, i) => entry(i));
      },
    });
    const pages = dashboardPages({ dashboard: service });
    const owner = pages(
      pageRequestAs({ kind: 'staff', role: 'admin', permissions: new Set(), userId: 'u1', ...signedIn }),
    );
    const { activity } = await owner.dashboardHome();
    expect(asked).toEqual([8]);
    expect(activity.available).toBe(true);
    expect(activity.entries).toHaveLength(8);
    expect(activity.entries[0]).toEqual({
      id: 'a0',
      createdAt: entry(0).createdAt,
      actor: { userId: 'u1', name: 'Olive Owner' },
      entity: 'theme',
      entityId: '9000',
      action: 'update',
      changedFields: ['primary', 'secondary'],
    });
    // An empty log is an honest empty list, not "not available".
    const empty = createDashboardService(t.database.db, { recentActivity: async () => [] });
    const none = await dashboardPages({ dashboard: empty })(
      pageRequestAs({ kind: 'staff', role: 'admin', permissions: new Set(), userId: 'u1', ...signedIn }),
    ).dashboardHome();
    expect(none.activity).toEqual({ available: true, entries: [] });
  });
});
