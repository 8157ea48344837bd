/**
 * The dashboard home's figures at 100,000 orders in one store (decision 048):
 * p50/p95 of the whole home (sales, orders, average order value, returning customers with the
 * previous period, sales over time, top products, orders to fulfil, low stock, clean-up) for each
 * range preset, on PGlite and (BENCH_DATABASE_URL or TEST_DATABASE_URL, a database of its own) on
 * PostgreSQL. Targets: p95 <= 100 ms on PGlite, <= 50 ms on PostgreSQL. `npm run bench:analytics`.
 * Prints figures and the plan of each query path (EXPLAIN); asserts nothing.
 */
import { pathToFileURL } from 'node:url';
import type { AnalyticsQuery } from '@app/contracts';
import { type Database, openDatabase, schema } from '@app/db';
import { sql } from 'drizzle-orm';
import type { RequestContext } from '../apps/api/src/lib/context';
import { createDashboardService, refreshSalesRollup, resolveRange } from '../apps/api/src/modules/dashboard/index';
import { withScratchPostgres } from './lib';
import { fillOrders, ORDER_COUNT } from './order-data';

const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const TENANT = 'bench-analytics';
const PRESETS: AnalyticsQuery[] = [
  { range: 'today' },
  { range: '7d' },
  { range: '30d' },
  { range: '90d' },
  { range: 'month' },
  { range: 'custom', from: '', to: '' },
];

const ctx: RequestContext = {
  tenantId: TENANT,
  productStoreId: 'none',
  hostName: 'analytics.test',
  viaDevAlias: false,
  origin: 'http://analytics.test',
  requestId: 'bench',
  ip: null,
  actor: {
    kind: 'staff',
    role: 'admin',
    permissions: new Set(),
    userId: 'owner',
    firstName: 'Olive',
    userLoginId: 'owner@analytics.test',
    session: { token: 'bench', via: 'bearer' },
  },
};

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
const ms = (n: number) => Number(n.toFixed(2));

export type AnalyticsFigures = Record<string, string | number>;

export async function runAnalyticsBench(label: string, database: Database): Promise<AnalyticsFigures[]> {
  const t0 = Date.now();
  await database.migrate();
  await database.db.insert(schema.tenants).values({ tenantId: TENANT, name: 'Analytics bench' });
  const now = new Date();
  await fillOrders(database, { tenantId: TENANT, count: ORDER_COUNT, now });
  for (const table of ['orders', 'order_lines', 'jobs', 'products']) {
    await database.db.execute(sql.raw(`VACUUM ANALYZE ${table}`));
  }
  console.log(`${label}: ${ORDER_COUNT} orders loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const service = createDashboardService(database.db);
  // The first read builds every day's rollup once (after that, only the days whose orders changed).
  const b0 = performance.now();
  await refreshSalesRollup(database.db, TENANT);
  console.log(`${label}: first build of the daily rollups ${ms(performance.now() - b0)} ms`);
  for (const table of ['sales_daily', 'product_sales_daily', 'customer_sales_daily', 'customer_first_orders']) {
    await database.db.execute(sql.raw(`VACUUM ANALYZE ${table}`));
  }
  // Live trading between two reads: a few orders of the last three days change (a shipment, a
  // refund), so each timed read rebuilds one to three days, as on a busy store.
  const recent = (
    (await database.db.execute(
      sql`SELECT order_id FROM orders WHERE tenant_id = ${TENANT} AND placed_at > now() - interval '3 days'`,
    )) as unknown as { rows: { order_id: string }[] }
  ).rows.map((r) => r.order_id);
  let turn = 0;
  const trade = async () => {
    const ids = [recent[turn++ % recent.length], recent[(turn * 7) % recent.length]].filter(Boolean) as string[];
    for (const id of ids) {
      await database.db.execute(
        sql`UPDATE orders SET updated_at = now() WHERE tenant_id = ${TENANT} AND order_id = ${id}`,
      );
    }
  };
  // A custom range of a full year: the longest the home allows (weekly buckets).
  const yearAgo = new Date(now.getTime() - 365 * 86_400_000).toISOString().slice(0, 10);
  const presets = PRESETS.map((q) =>
    q.range === 'custom' ? { range: 'custom' as const, from: yearAgo, to: now.toISOString().slice(0, 10) } : q,
  );
  const out: AnalyticsFigures[] = [];
  for (const q of presets) {
    const first = await service.home(ctx, q); // warm: buffer cache and plans
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await trade();
      const s = performance.now();
      await service.home(ctx, q);
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    const row = {
      database: label,
      range: q.range === 'custom' ? `custom ${q.from}..${q.to}` : q.range,
      'orders in range': first.analytics?.orders.value ?? 0,
      'p50 ms': ms(pct(times, 50)),
      'p95 ms': ms(pct(times, 95)),
    };
    // Printed as it comes, so a run stopped early still leaves its figures.
    console.log(JSON.stringify(row));
    out.push(row);
  }

  // The plan of each query path for a long preset, so a missing index shows as a Seq Scan.
  const r = resolveRange({ range: '90d' }, now);
  const from = r.from.slice(0, 10);
  const to = r.to.slice(0, 10);
  const explain = async (name: string, q: ReturnType<typeof sql>) => {
    const res = (await database.db.execute(sql`EXPLAIN (ANALYZE, COSTS OFF) ${q}`)) as unknown as {
      rows: Record<string, string>[];
    };
    const lines = res.rows.map((row) => Object.values(row)[0] as string);
    console.log(`  plan ${name}:\n    ${lines.join('\n    ')}`);
  };
  const days = sql`tenant_id = ${TENANT} AND currency = 'USD' AND day >= ${from}::date AND day < ${to}::date`;
  await explain(
    'changed days',
    sql`SELECT DISTINCT (placed_at AT TIME ZONE 'UTC')::date FROM orders
    WHERE tenant_id = ${TENANT} AND updated_at >= now() - interval '5 minutes'`,
  );
  await explain('totals (90 days)', sql`SELECT sum(sales), sum(orders) FROM sales_daily WHERE ${days}`);
  await explain(
    'customers (90 days)',
    sql`SELECT count(DISTINCT customer_key) FROM customer_sales_daily WHERE ${days}`,
  );
  await explain(
    'new customers (90 days)',
    sql`SELECT count(*) FROM customer_first_orders WHERE tenant_id = ${TENANT} AND currency = 'USD'
          AND first_day >= ${from}::date AND first_day < ${to}::date`,
  );
  await explain(
    'top products (90 days)',
    sql`SELECT product_id, sum(revenue) AS revenue FROM product_sales_daily WHERE ${days}
         GROUP BY 1 ORDER BY 2 DESC LIMIT 8`,
  );
  return out;
}

/** PGlite in memory, then PostgreSQL in a database of its own (dropped after) when a URL is set. */
export async function benchAnalytics(): Promise<AnalyticsFigures[]> {
  const out: AnalyticsFigures[] = [];
  if (process.env.BENCH_SKIP_PGLITE !== '1') {
    const lite = await openDatabase({ dataDir: 'memory://' });
    try {
      out.push(...(await runAnalyticsBench('PGlite', lite)));
    } finally {
      await lite.close();
    }
  }
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) {
    console.log('PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to include it)');
    return out;
  }
  out.push(
    ...(await withScratchPostgres(url, 'bench_analytics', (database) => runAnalyticsBench('PostgreSQL', database))),
  );
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await benchAnalytics());
}
