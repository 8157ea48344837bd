/**
 * The dashboard's orders list at 100,000 orders in one store (decision
 * 042): p50/p95 of the first page, filtered pages, search pages and a page deep in the list, and a
 * streamed export of every order, on PGlite and (BENCH_DATABASE_URL or TEST_DATABASE_URL, a database
 * of its own) on PostgreSQL. Targets: p95 <= 100 ms on PGlite, <= 50 ms on PostgreSQL. Prints the
 * figures and the plan of each query path (EXPLAIN); asserts nothing. `npm run bench:orders-list`.
 */
import { pathToFileURL } from 'node:url';
import { type OrderListQuery, orderListQuerySchema } from '@app/contracts';
import { type Database, openDatabase, schema } from '@app/db';
import { sql } from 'drizzle-orm';
import type { TenantContext } from '../apps/api/src/lib/context';
import { createAuditService } from '../apps/api/src/modules/audit/index';
import { createOrderListService } from '../apps/api/src/modules/orders/index';
import { withScratchPostgres } from './lib';
import { fillOrders, ORDER_COUNT } from './order-data';

const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const TENANT = 'orders-bench';

const ctx: TenantContext = {
  tenantId: TENANT,
  productStoreId: 'none',
  hostName: 'orders.bench',
  viaDevAlias: false,
  origin: 'http://orders.bench',
};

type Params = Record<string, string | string[]>;
const FIRST: Params[] = [{}];
const FILTERED: Params[] = [
  { status: 'paid' },
  { status: ['fulfilled', 'delivered'] },
  { status: 'placed', sort: 'oldest' },
  { payment: 'partially_refunded' },
  { payment: 'refunded' },
  { payment: 'pending' },
  { fulfilment: 'unfulfilled' },
  { fulfilment: 'delivered', sort: 'total-high' },
  { from: '2025-06-01', to: '2025-06-30' },
  { totalMin: '250.00', totalMax: '300.00' },
  { totalMin: '400', sort: 'total-low' },
  { sort: 'total-high' },
  { status: 'cancelled', from: '2025-01-01' },
];
const SEARCHES: Params[] = [
  { q: 'BEN-0012345' },
  { q: 'ben-00999' },
  { q: 'customer1234@bench.example' },
  { q: 'customer77' },
  { q: 'Lovelace' },
  { q: 'ada' },
  { q: 'grace hop' },
  { q: 'nobody-here' },
  { q: 'Turing', status: 'paid' },
];

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
const ms = (n: number) => Number(n.toFixed(2));

export interface OrdersListFigures {
  database: string;
  'first page p50 ms': number;
  'first page p95 ms': number;
  'filtered p50 ms': number;
  'filtered p95 ms': number;
  'search p50 ms': number;
  'search p95 ms': number;
  'page 100 p95 ms': number;
  'export rows': number;
  'export s': number;
  'export MB': number;
}

export async function runOrdersListBench(label: string, database: Database): Promise<OrdersListFigures> {
  const t0 = Date.now();
  await database.migrate();
  await database.db.insert(schema.tenants).values({ tenantId: TENANT, name: 'Orders bench' });
  await fillOrders(database, { tenantId: TENANT, now: new Date('2026-11-01T00:00:00Z') });
  for (const t of ['orders', 'order_lines', 'users']) await database.db.execute(sql.raw(`VACUUM ANALYZE ${t}`));
  console.log(`${label}: ${ORDER_COUNT} orders loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const service = createOrderListService(database.db, { audit: createAuditService(database.db) });

  const time = async (params: Params[]) => {
    const queries = params.map((p) => orderListQuerySchema.parse(p));
    for (const q of queries) await service.list(ctx, q); // warm: buffer cache and plans
    const times: number[] = [];
    const each = new Map<string, number[]>();
    for (let i = 0; i < RUNS; i++) {
      const q = queries[i % queries.length] as OrderListQuery;
      const s = performance.now();
      await service.list(ctx, q);
      const d = performance.now() - s;
      times.push(d);
      const key = JSON.stringify(params[i % params.length]);
      each.set(key, [...(each.get(key) ?? []), d]);
    }
    times.sort((a, b) => a - b);
    // The slowest path, so a regression is named, not averaged away.
    const worst = [...each.entries()].map(([k, v]) => [k, Math.max(...v)] as const).sort((a, b) => b[1] - a[1])[0];
    if (worst) console.log(`  slowest ${worst[0]}: ${ms(worst[1])} ms`);
    return { p50: ms(pct(times, 50)), p95: ms(pct(times, 95)) };
  };
  const first = await time(FIRST);
  const filtered = await time(FILTERED);
  const search = await time(SEARCHES);

  // A page deep in the list (the 100th): keyset, so as fast as the first.
  let cursor: string | undefined;
  for (let i = 0; i < 99; i++)
    cursor = (await service.list(ctx, orderListQuerySchema.parse({ cursor }))).nextCursor ?? undefined;
  const deep = await time([{ cursor: cursor ?? '' }]);

  for (const p of [...FIRST, ...FILTERED, ...SEARCHES]) {
    const q = orderListQuerySchema.parse(p);
    const lines = (await service.explain(ctx, q)).map((l) => l.trim());
    const scans = lines.filter((l) => /Scan|Sort/.test(l)).map((l) => l.replace(/\s+\(cost.*$/, ''));
    console.log(`  plan ${JSON.stringify(p)}: ${scans.join(' | ')}`);
  }

  let bytes = 0;
  let rows = -1; // the header line
  const s = performance.now();
  const all = await service.resolve(ctx, orderListQuerySchema.parse({}));
  for await (const chunk of service.exportCsv(ctx, all)) {
    bytes += Buffer.byteLength(chunk);
    rows += chunk.split('\n').length - 1;
  }
  const exportS = (performance.now() - s) / 1000;
  return {
    database: label,
    'first page p50 ms': first.p50,
    'first page p95 ms': first.p95,
    'filtered p50 ms': filtered.p50,
    'filtered p95 ms': filtered.p95,
    'search p50 ms': search.p50,
    'search p95 ms': search.p95,
    'page 100 p95 ms': deep.p95,
    'export rows': rows,
    'export s': ms(exportS),
    'export MB': ms(bytes / 2 ** 20),
  };
}

/** PGlite in memory, then PostgreSQL in a database of its own (dropped after) when a URL is set. */
export async function benchOrdersList(): Promise<OrdersListFigures[]> {
  const out: OrdersListFigures[] = [];
  if (process.env.BENCH_SKIP_PGLITE !== '1') {
    const lite = await openDatabase({ dataDir: 'memory://' });
    try {
      out.push(await runOrdersListBench('PGlite', lite));
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
    await withScratchPostgres(url, 'bench_orders_list', (database) => runOrdersListBench('PostgreSQL', database)),
  );
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await benchOrdersList();
  console.table(figures);
}
