/**
 * The dashboard's customers list at 100,000 orders / 20,000 customers (decision 045): first page, each filter and sort, search, the next page by cursor, and the CSV export, on
 * PGlite and (with BENCH_DATABASE_URL or TEST_DATABASE_URL) PostgreSQL. Targets: p95 <= 100 ms on
 * PGlite, <= 50 ms on PostgreSQL. Prints p50/p95 and the plan of every path.
 *   npm run bench:customers
 */
import { pathToFileURL } from 'node:url';
import { type CustomerListQuery, customerListQuerySchema } from '@app/contracts';
import { type Database, openDatabase, schema } from '@app/db';
import { sql } from 'drizzle-orm';
import type { TenantContext } from '../apps/api/src/lib/context';
import { createAuditService } from '../apps/api/src/modules/audit/index';
import { createCustomersService } from '../apps/api/src/modules/customers/index';
import { withScratchPostgres } from './lib';
import { fillOrders, ORDER_COUNT } from './order-data';

const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const TENANT = 'bench-customers';
const ctx: TenantContext = {
  tenantId: TENANT,
  productStoreId: 'none',
  hostName: 'customers.test',
  viaDevAlias: false,
  origin: 'http://customers.test',
};

const PATHS: Record<string, Record<string, string>[]> = {
  'first page': [{}],
  sorted: [{ sort: 'amount_spent' }, { sort: 'name' }],
  filtered: [
    { type: 'guest' },
    { type: 'account', sort: 'amount_spent' },
    { orders: 'yes', sort: 'name' },
    { orders: 'no' },
    { since_from: '2025-06-01', since_to: '2025-12-31' },
  ],
  search: [{ q: 'customer123' }, { q: 'lovelace' }, { q: 'ada' }, { q: '@bench.example', sort: 'amount_spent' }],
};

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
const ms = (n: number) => Number(n.toFixed(2));

export async function runCustomersBench(label: string, database: Database) {
  const t0 = Date.now();
  await database.migrate();
  await database.db.insert(schema.tenants).values({ tenantId: TENANT, name: 'Customers bench' });
  const filled = await fillOrders(database, { tenantId: TENANT, now: new Date('2026-11-01T00:00:00Z') });
  await database.db.execute(sql`VACUUM ANALYZE customer_summaries`);
  await database.db.execute(sql`VACUUM ANALYZE orders`);
  const [count] = (
    (await database.db.execute(
      sql`SELECT count(*)::int AS n FROM customer_summaries WHERE tenant_id = ${TENANT}`,
    )) as unknown as { rows: { n: number }[] }
  ).rows;
  console.log(
    `${label}: ${filled.count} orders, ${count?.n} customers (${filled.registered} accounts) loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  const service = createCustomersService(database.db, { audit: createAuditService(database.db), auth: {} as never });

  const out: Record<string, number | string> = { database: label };
  const time = async (name: string, queries: CustomerListQuery[]) => {
    for (const q of queries) await service.list(ctx, q); // warm: buffer cache and plans
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const q = queries[i % queries.length] as CustomerListQuery;
      const s = performance.now();
      await service.list(ctx, q);
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    out[`${name} p50 ms`] = ms(pct(times, 50));
    out[`${name} p95 ms`] = ms(pct(times, 95));
  };
  for (const [name, params] of Object.entries(PATHS)) {
    await time(
      name,
      params.map((p) => customerListQuerySchema.parse(p)),
    );
  }
  // Page 20 of the default sort, by cursor (keyset: as fast as the first).
  let q = customerListQuerySchema.parse({});
  for (let i = 0; i < 20; i++) {
    const page = await service.list(ctx, q);
    q = { ...q, cursor: page.nextCursor ?? undefined };
  }
  await time('page 20', [q]);

  for (const params of Object.values(PATHS).flat()) {
    const lines = (await service.explain(ctx, customerListQuerySchema.parse(params))).map((l) => l.trim());
    const scans = lines.filter((l) => /Scan/.test(l)).map((l) => l.replace(/\s+\(cost.*$/, ''));
    console.log(`  plan ${JSON.stringify(params)}: ${scans.join(' | ')}`);
  }

  const s = performance.now();
  let rows = -1;
  for await (const chunk of service.exportCsv(ctx, customerListQuerySchema.parse({}))) {
    rows += chunk.split('\n').length - 1;
  }
  out['export rows'] = rows;
  out['export s'] = ms((performance.now() - s) / 1000);
  return out;
}

export async function benchCustomers() {
  const out: Record<string, number | string>[] = [];
  if (process.env.BENCH_SKIP_PGLITE !== '1') {
    const lite = await openDatabase({ dataDir: 'memory://' });
    try {
      out.push(await runCustomersBench('PGlite', lite));
    } finally {
      await lite.close();
    }
  }
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) {
    console.log('PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to include it)');
    return out;
  }
  out.push(await withScratchPostgres(url, 'bench_customers', (database) => runCustomersBench('PostgreSQL', database)));
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(`customers bench: ${ORDER_COUNT} orders`);
  console.table(await benchCustomers());
}
