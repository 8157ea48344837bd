import type { DashboardHome, OrdersCleanup } from '@app/contracts';
import { schema } from '@app/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RequestContext, systemContext } from '../../lib/context';
import { stockedProductId } from '../../test/guest-order';
import { createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import { createStaff } from '../../test/staff';
import { STUCK_ORDER_SWEEP } from '../orders/index';
import { createDashboardService } from './dashboard.service';

// The home's figures against sums worked out by hand on orders this test writes into stores of its
// own, with the clock pinned (decision 048).
let t: TestApp;
const LIGHTING = SEEDED_HOSTS.lighting.host;
const NOW = new Date('2026-03-15T12:00:00Z');

const ctxOf = (tenantId: string): RequestContext => ({
  tenantId,
  productStoreId: 'none',
  hostName: `${tenantId}.test`,
  viaDevAlias: false,
  origin: `http://${tenantId}.test`,
  requestId: 'analytics-test',
  ip: null,
  actor: {
    kind: 'staff',
    role: 'admin',
    permissions: new Set(),
    userId: 'owner',
    firstName: 'Olive',
    userLoginId: `owner@${tenantId}.test`,
    session: { token: 'x', via: 'bearer' },
  },
});

interface Fixture {
  id: string;
  email: string;
  userId?: string;
  status: string;
  at: string;
  lines: [productId: string, quantity: number, unitPrice: number][];
  currency?: string;
  refunded?: number;
}

async function insertOrders(tenantId: string, fixtures: Fixture[]) {
  for (const f of fixtures) {
    const total = f.lines.reduce((sum, [, q, u]) => sum + q * u, 0);
    const paid = f.status !== 'placed' && f.status !== 'cancelled';
    await t.database.db.insert(schema.orders).values({
      tenantId,
      orderId: f.id,
      userId: f.userId ?? null,
      email: f.email,
      status: f.status,
      currency: f.currency ?? 'USD',
      subtotal: total,
      shippingTotal: 0,
      taxTotal: 0,
      grandTotal: total,
      shippingMethodId: 'STANDARD',
      shippingMethodName: 'Standard',
      shipTo: {
        toName: 'A B',
        address1: '1 Main St',
        address2: null,
        city: 'Town',
        postalCode: '94105',
        countryGeoId: 'USA',
        stateProvinceGeoId: 'US_CA',
        phone: null,
      },
      paymentProvider: 'test',
      paymentLabel: 'Visa',
      idempotencyKey: `fixture:${f.id}`,
      requestHash: 'fixture',
      capturedAmount: paid ? total : 0,
      refundedAmount: f.refunded ?? 0,
      placedAt: new Date(f.at),
    });
    await t.database.db.insert(schema.orderLines).values(
      f.lines.map(([productId, quantity, unitPrice], i) => ({
        tenantId,
        orderId: f.id,
        lineNo: i + 1,
        productId,
        productName: `Product ${productId}`,
        quantity,
        unitPrice,
        lineTotal: quantity * unitPrice,
      })),
    );
  }
}

beforeAll(async () => {
  t = await createTestApp();
  await t.database.db.insert(schema.tenants).values([
    { tenantId: 'ana-a', name: 'Analytics A' },
    { tenantId: 'ana-b', name: 'Analytics B' },
  ]);
  await insertOrders('ana-a', [
    // Before both periods: makes Ann a returning customer.
    { id: 'A1', email: 'Ann@x.test', status: 'completed', at: '2026-02-01T10:00:00Z', lines: [['P1', 1, 1000]] },
    // The previous 7 days (Mar 2-8).
    { id: 'A7', email: 'ann@x.test', status: 'completed', at: '2026-03-05T10:00:00Z', lines: [['P1', 1, 1500]] },
    // The last 7 days (Mar 9-15).
    {
      id: 'A2',
      email: 'ANN@x.test',
      status: 'paid',
      at: '2026-03-10T09:00:00Z',
      lines: [
        ['P1', 1, 1000],
        ['P2', 2, 1000],
      ],
    },
    {
      id: 'A3',
      email: 'u1@x.test',
      userId: 'U1',
      status: 'delivered',
      at: '2026-03-15T08:30:00Z',
      lines: [['P2', 5, 1000]],
    },
    // Refunded whole: still a sale (gross), its refund reported apart.
    {
      id: 'A6',
      email: 'bob@x.test',
      status: 'refunded',
      at: '2026-03-11T23:59:59Z',
      lines: [['P3', 1, 2000]],
      refunded: 2000,
    },
    // Never paid, or in another currency: not counted.
    { id: 'A4', email: 'new@x.test', status: 'placed', at: '2026-03-12T10:00:00Z', lines: [['P4', 1, 9999]] },
    { id: 'A5', email: 'new@x.test', status: 'cancelled', at: '2026-03-12T11:00:00Z', lines: [['P4', 1, 7777]] },
    {
      id: 'A8',
      email: 'eur@x.test',
      status: 'completed',
      at: '2026-03-10T10:00:00Z',
      lines: [['P5', 1, 4000]],
      currency: 'EUR',
    },
  ]);
  // Another store's order on the same days, by the same email: never counted in ana-a's figures.
  await insertOrders('ana-b', [
    { id: 'B1', email: 'ann@x.test', status: 'completed', at: '2026-03-10T10:00:00Z', lines: [['P1', 10, 10000]] },
  ]);
});
afterAll(async () => {
  await t.close();
});

const service = () => createDashboardService(t.database.db, { now: () => NOW });

describe('the home figures over a range, against hand-computed sums', () => {
  it('last 7 days: sales, orders, average order value and returning customers beside the 7 days before', async () => {
    const home = await service().home(ctxOf('ana-a'), { range: '7d' });
    expect(home.range).toEqual({
      preset: '7d',
      label: 'Last 7 days',
      from: '2026-03-09T00:00:00.000Z',
      to: '2026-03-16T00:00:00.000Z',
      days: 7,
      previousFrom: '2026-03-02T00:00:00.000Z',
      previousTo: '2026-03-09T00:00:00.000Z',
      bucket: 'day',
    });
    const a = home.analytics;
    if (!a) throw new Error('the owner sees sales');
    // A2 3000 + A3 5000 + A6 2000; before: A7 1500.
    expect(a.sales).toEqual({ value: 10000, previous: 1500, change: 566.7 });
    expect(a.orders).toEqual({ value: 3, previous: 1, change: 200 });
    expect(a.averageOrderValue).toEqual({ value: 3333, previous: 1500, change: 122.2 });
    // Ann (any case of her email) had ordered before; U1 and Bob had not. Before: Ann alone, returning.
    expect(a.returningCustomerRate).toEqual({ value: 0.333, previous: 1, change: -66.7 });
    expect(a.refunded).toBe(2000);
    expect(a.series).toEqual([
      { start: '2026-03-09T00:00:00.000Z', orders: 0, sales: 0 },
      { start: '2026-03-10T00:00:00.000Z', orders: 1, sales: 3000 },
      { start: '2026-03-11T00:00:00.000Z', orders: 1, sales: 2000 },
      { start: '2026-03-12T00:00:00.000Z', orders: 0, sales: 0 },
      { start: '2026-03-13T00:00:00.000Z', orders: 0, sales: 0 },
      { start: '2026-03-14T00:00:00.000Z', orders: 0, sales: 0 },
      { start: '2026-03-15T00:00:00.000Z', orders: 1, sales: 5000 },
    ]);
    expect(a.topProducts).toEqual([
      { productId: 'P2', productName: 'Product P2', units: 7, revenue: 7000 },
      { productId: 'P3', productName: 'Product P3', units: 1, revenue: 2000 },
      { productId: 'P1', productName: 'Product P1', units: 1, revenue: 1000 },
    ]);
  });

  it('today: hourly buckets, compared with yesterday, which had nothing ("no previous data")', async () => {
    const home = await service().home(ctxOf('ana-a'), { range: 'today' });
    expect(home.range).toMatchObject({ days: 1, bucket: 'hour', previousFrom: '2026-03-14T00:00:00.000Z' });
    const a = home.analytics;
    expect(a?.sales).toEqual({ value: 5000, previous: 0, change: null });
    expect(a?.series).toHaveLength(24);
    expect(a?.series[8]).toEqual({ start: '2026-03-15T08:00:00.000Z', orders: 1, sales: 5000 });
    expect(a?.series.reduce((n, p) => n + p.orders, 0)).toBe(1);
    // U1's first order: nobody returning.
    expect(a?.returningCustomerRate).toEqual({ value: 0, previous: 0, change: null });
  });

  it('a custom range counts its whole first and last days; this month runs from the 1st', async () => {
    const custom = await service().home(ctxOf('ana-a'), { range: 'custom', from: '2026-02-01', to: '2026-03-11' });
    expect(custom.range).toMatchObject({ days: 39, bucket: 'day', to: '2026-03-12T00:00:00.000Z' });
    expect(custom.range.label).toBe('Feb 1, 2026 – Mar 11, 2026');
    // A1 1000, A7 1500, A2 3000, A6 2000 (at 23:59:59 on the last day).
    expect(custom.analytics?.sales.value).toBe(7500);
    expect(custom.analytics?.orders.value).toBe(4);
    const month = await service().home(ctxOf('ana-a'), { range: 'month' });
    expect(month.range).toMatchObject({ from: '2026-03-01T00:00:00.000Z', days: 15 });
    // Compared with Feb 14-28 (as many days before the 1st), which had nothing.
    expect(month.analytics?.sales).toEqual({ value: 11500, previous: 0, change: null });
    const year = await service().home(ctxOf('ana-a'), { range: 'custom', from: '2025-03-16', to: '2026-03-15' });
    expect(year.range).toMatchObject({ days: 365, bucket: 'week' });
    expect(year.analytics?.series).toHaveLength(53);
    expect(year.analytics?.series.reduce((n, p) => n + p.sales, 0)).toBe(12500);
  });

  it("never counts another store's orders", async () => {
    const b = await service().home(ctxOf('ana-b'), { range: '7d' });
    expect(b.analytics?.sales.value).toBe(100000);
    expect(b.analytics?.orders.value).toBe(1);
    // Ann bought at ana-a before, but not at ana-b: new here.
    expect(b.analytics?.returningCustomerRate.value).toBe(0);
    expect(b.analytics?.topProducts).toEqual([
      { productId: 'P1', productName: 'Product P1', units: 10, revenue: 100000 },
    ]);
  });
});

describe('GET /api/v1/dashboard/home?range=', () => {
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { host: LIGHTING, ...headers } });

  it('answers each preset, and refuses a bad range with 400 naming the field', async () => {
    const owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
    for (const range of ['today', '7d', '30d', '90d', 'month']) {
      const res = await get(`/api/v1/dashboard/home?range=${range}`, owner);
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json().data as DashboardHome).range.preset).toBe(range);
    }
    const custom = await get('/api/v1/dashboard/home?range=custom&from=2026-01-01&to=2026-01-31', owner);
    expect((custom.json().data as DashboardHome).range).toMatchObject({ days: 31, bucket: 'day' });
    const cases: [string, string][] = [
      ['range=yesterday', 'range'],
      ['range=custom&to=2026-01-31', 'from'],
      ['range=custom&from=2026-01-01', 'to'],
      ['range=custom&from=2026-02-30&to=2026-03-01', 'from'],
      ['range=custom&from=2026-03-02&to=2026-03-01', 'to'],
      ['range=custom&from=2025-01-01&to=2026-01-02', 'to'],
    ];
    for (const [query, field] of cases) {
      const res = await get(`/api/v1/dashboard/home?${query}`, owner);
      expect(res.statusCode, query).toBe(400);
      expect(JSON.stringify(res.json().errors ?? res.json()), query).toContain(field);
    }
  });

  it('refuses a visitor (401) and a shopper (403) whatever the range', async () => {
    expect((await get('/api/v1/dashboard/home?range=7d')).statusCode).toBe(401);
    const shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
    expect((await get('/api/v1/dashboard/home?range=7d', shopper)).statusCode).toBe(403);
  });
});

describe('the unpaid-order clean-up, as the dashboard shows it', () => {
  it('lists a swept order with its reason, counts it on the home, and is for the orders permission', async () => {
    const lighting = {
      tenantId: 'lighting',
      productStoreId: '9000',
      hostName: LIGHTING,
      viaDevAlias: false,
      origin: `http://${LIGHTING}`,
    };
    // An order whose payment never came back, placed two hours ago.
    await insertOrders('lighting', [
      {
        id: 'ANA-STUCK-1',
        email: 'stuck@x.test',
        status: 'placed',
        at: new Date(Date.now() - 2 * 3600_000).toISOString(),
        lines: [[await stockedProductId(t.database.db, 'lighting'), 1, 1234]],
      },
    ]);
    await t.database.db.insert(schema.orderStatusHistory).values({
      tenantId: 'lighting',
      orderId: 'ANA-STUCK-1',
      seq: 1,
      status: 'placed',
      note: 'Order placed',
    });
    const job = await t.services.jobs.enqueue(systemContext(lighting, 'test'), {
      type: STUCK_ORDER_SWEEP,
      payload: {},
    });
    await t.services.jobs.drain();
    const done = await t.services.jobs.get(lighting, job.id);
    expect(done?.result, JSON.stringify(done)).toMatchObject({ cancelled: expect.arrayContaining(['ANA-STUCK-1']) });

    const owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/dashboard/orders-cleanup',
      headers: { host: LIGHTING, ...owner },
    });
    expect(res.statusCode).toBe(200);
    const cleanup = res.json().data as OrdersCleanup;
    expect(cleanup.afterMinutes).toBe(30);
    const run = cleanup.runs.find((r) => r.jobId === job.id);
    expect(run?.status).toBe('succeeded');
    expect(run?.orders).toContainEqual({
      orderId: 'ANA-STUCK-1',
      action: 'cancelled',
      why: 'abandoned: no payment after 30 minutes',
    });

    const home = (
      await t.app.inject({ method: 'GET', url: '/api/v1/dashboard/home', headers: { host: LIGHTING, ...owner } })
    ).json().data as DashboardHome;
    expect(home.cleanup?.released).toBeGreaterThanOrEqual(1);

    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/dashboard/orders-cleanup', headers: { host: LIGHTING } }))
        .statusCode,
    ).toBe(401);
    const shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/v1/dashboard/orders-cleanup',
          headers: { host: LIGHTING, ...shopper },
        })
      ).statusCode,
    ).toBe(403);
    await createStaff(t.database, 'lighting', 'catalog.cleanup@lighting.test', ['catalog']);
    const staff = await signIn(t.app, 'catalog.cleanup@lighting.test', 'owner-demo-1', LIGHTING);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/v1/dashboard/orders-cleanup',
          headers: { host: LIGHTING, ...staff },
        })
      ).statusCode,
    ).toBe(403);
  });
});
