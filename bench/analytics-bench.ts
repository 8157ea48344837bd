/**
 * The dashboard home's figures at 100,000 orders in one store (issue 17 point 10, decision 048):
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
import { createDashboardService, resolveRange, SOLD_STATUSES } from '../apps/api/src/modules/dashboard/index';
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

  // The plan of each query path for the longest preset, so a missing index shows as a Seq Scan.
  const r = resolveRange({ range: '90d' }, now);
  const sold = sql.join(
    SOLD_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  );
  const paid = sql`tenant_id = ${TENANT} AND status IN (${sold}) AND currency = 'USD'
    AND placed_at >= ${r.previousFrom}::timestamptz AND placed_at < ${r.to}::timestamptz`;
  const explain = async (name: string, q: ReturnType<typeof sql>) => {
    const res = (await database.db.execute(sql`EXPLAIN (ANALYZE, COSTS OFF) ${q}`)) as unknown as {
      rows: Record<string, string>[];
    };
    const lines = res.rows.map((row) => Object.values(row)[0] as string);
    console.log(`  plan ${name}:\n    ${lines.join('\n    ')}`);
  };
  await explain('totals (90 days and the 90 before)', sql`SELECT sum(grand_total), count(*) FROM orders WHERE ${paid}`);
  await explain(
    'returning customers (90 days)',
    sql`WITH c AS (SELECT DISTINCT coalesce(user_id, lower(email)) AS k FROM orders WHERE ${paid} AND placed_at >= ${r.from}::timestamptz)
        SELECT count(*) FILTER (WHERE EXISTS (SELECT 1 FROM orders b WHERE b.tenant_id = ${TENANT}
          AND coalesce(b.user_id, lower(b.email)) = c.k AND b.placed_at < ${r.from}::timestamptz
          AND b.status IN (${sold}) AND b.currency = 'USD')) FROM c`,
  );
  await explain(
    'top products (90 days)',
    sql`SELECT l.product_id, sum(l.line_total) AS revenue FROM orders o CROSS JOIN LATERAL (
          SELECT x.product_id, x.line_total FROM order_lines x
           WHERE x.tenant_id = o.tenant_id AND x.order_id = o.order_id OFFSET 0) l
         WHERE o.tenant_id = ${TENANT} AND o.status IN (${sold}) AND o.placed_at >= ${r.from}::timestamptz
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
