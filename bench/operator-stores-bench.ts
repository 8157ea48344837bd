/**
 * The operator console's stores list at 10,000 stores (decision 101): the first page and a deep page
 * (by keyset cursor) of each sort, a state filter, the three searches (name, host, owner email), the
 * platform figures and the refresh of the 30-day figures, on PGlite and (with BENCH_DATABASE_URL or
 * TEST_DATABASE_URL) PostgreSQL. 10,000 stores with an owner, a host and a lifecycle state each, and
 * 100,000 orders over the last 60 days. Prints p50/p95 per path.
 *   npx tsx bench/operator-stores-bench.ts        (BENCH_STORES=..., BENCH_RUNS=...)
 */
import { pathToFileURL } from 'node:url';
import { type OperatorStoreQuery, operatorStoreQuerySchema } from '@app/contracts';
import { type Database, openDatabase } from '@app/db';
import { sql } from 'drizzle-orm';
import { createOperatorStores } from '../apps/api/src/modules/operator/index';
import { withScratchPostgres } from './lib';

const STORES = Number(process.env.BENCH_STORES ?? 10_000);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
/** The deep page: this many pages of 50 in (2,500 stores before it at 50). */
const DEEP = 50;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
const ms = (n: number) => Number(n.toFixed(2));

async function fill(database: Database) {
  const db = database.db;
  const id = sql.raw(`'bench-' || lpad(i::text, 5, '0')`);
  await db.execute(sql`INSERT INTO tenants (tenant_id, name, created_at)
    SELECT ${id}, 'Bench Store ' || i, now() - (i % 700) * interval '1 day' - (i % 5) * interval '1 minute'
    FROM generate_series(1, ${STORES}) i`);
  await db.execute(sql`INSERT INTO product_stores (tenant_id, product_store_id, store_name, canonical_host)
    SELECT ${id}, 'BPS-' || i, 'Bench Store ' || i, 'b' || i || '.bench.test' FROM generate_series(1, ${STORES}) i`);
  await db.execute(sql`INSERT INTO store_hosts (host_name, tenant_id, product_store_id)
    SELECT 'b' || i || '.bench.test', ${id}, 'BPS-' || i FROM generate_series(1, ${STORES}) i`);
  await db.execute(sql`INSERT INTO users (tenant_id, user_id, email, password_hash, first_name, last_name, role)
    SELECT ${id}, 'U-' || i, 'owner' || i || '@bench.example', 'x', 'Olive', 'Owner', 'admin'
    FROM generate_series(1, ${STORES}) i`);
  await db.execute(sql`INSERT INTO store_lifecycle (tenant_id, state, seq)
    SELECT ${id}, CASE WHEN i % 50 = 0 THEN 'suspended' WHEN i % 97 = 0 THEN 'closed' ELSE 'active' END, 1
    FROM generate_series(1, ${STORES}) i`);
  // Orders: busy stores (every 10th) take most of them, so the sorts by orders and sales have a shape.
  // The customers list's summary triggers are off while they load: they are not what is measured here,
  // and 100,000 orders in one statement would take a lock per customer.
  await db.execute(sql`ALTER TABLE orders DISABLE TRIGGER USER`);
  await db.execute(sql`INSERT INTO orders (tenant_id, order_id, email, status, currency, subtotal, shipping_total,
      tax_total, grand_total, shipping_method_id, shipping_method_name, ship_to, payment_provider, payment_label,
      idempotency_key, request_hash, captured_amount, placed_at, updated_at)
    SELECT 'bench-' || lpad((CASE WHEN o % 3 = 0 THEN (o % ${STORES}) + 1 ELSE ((o % (${STORES} / 10)) * 10) + 1 END)::text, 5, '0'),
      'O-' || o, 'buyer' || o || '@bench.example', CASE WHEN o % 20 = 0 THEN 'cancelled' ELSE 'paid' END, 'USD',
      1000 + (o % 9000), 0, 0, 1000 + (o % 9000), 'std', 'Standard', '{}'::jsonb, 'card', 'Visa 4242',
      'k-' || o, 'h', 1000 + (o % 9000), now() - (o % 60) * interval '1 day', now()
    FROM generate_series(1, ${ORDERS}) o`);
  await db.execute(sql`ALTER TABLE orders ENABLE TRIGGER USER`);
  await db.execute(sql`ANALYZE`);
}

export async function runOperatorStoresBench(label: string, database: Database) {
  const t0 = Date.now();
  await database.migrate();
  await fill(database);
  console.log(`${label}: ${STORES} stores, ${ORDERS} orders loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const stores = createOperatorStores(database.db, {
    audit: {} as never,
    storeAudit: {} as never,
    stores: {
      within: (_tenantId, fn) => fn(),
      placementOf: () => 'main',
      movedStores: () => new Map(),
      get: () => undefined,
    },
    storeLifecycle: {} as never,
    auth: {} as never,
    supportGrant: async () => null,
  });
  const out: Record<string, number | string> = { database: label, stores: STORES };

  let s = performance.now();
  await stores.refreshFigures();
  out['refresh 30-day figures ms'] = ms(performance.now() - s);

  const time = async (name: string, queries: OperatorStoreQuery[]) => {
    for (const q of queries) await stores.list(q); // warm: buffer cache and plans
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const q = queries[i % queries.length] as OperatorStoreQuery;
      const start = performance.now();
      await stores.list(q);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    out[`${name} p50 ms`] = ms(pct(times, 50));
    out[`${name} p95 ms`] = ms(pct(times, 95));
  };
  const parse = (p: Record<string, string>) => operatorStoreQuerySchema.parse(p);
  for (const sort of ['created', 'orders30d', 'sales30d'] as const) {
    await time(`${sort} first`, [parse({ sort })]);
    let q = parse({ sort });
    let seen = 0;
    for (let i = 0; i < DEEP; i++) {
      const page = await stores.list(q);
      seen += page.stores.length;
      q = { ...q, cursor: page.nextCursor ?? undefined };
    }
    await time(`${sort} page ${DEEP + 1} (after ${seen})`, [q]);
  }
  await time('state=suspended', [parse({ state: 'suspended' })]);
  await time('search name', [parse({ q: 'store 4567' }), parse({ q: 'Bench Store 99' })]);
  await time('search host', [parse({ q: 'b1234.bench.test' })]);
  await time('search owner email', [parse({ q: 'owner777@bench.example' })]);

  s = performance.now();
  const f = await stores.figures(30);
  out['figures (30 days) ms'] = ms(performance.now() - s);
  out['figures total stores'] = f.totalStores;
  return out;
}

export async function benchOperatorStores() {
  const out: Record<string, number | string>[] = [];
  if (process.env.BENCH_SKIP_PGLITE !== '1') {
    const lite = await openDatabase({ dataDir: 'memory://' });
    try {
      out.push(await runOperatorStoresBench('PGlite', lite));
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
    await withScratchPostgres(url, 'bench_operator', (database) => runOperatorStoresBench('PostgreSQL', database)),
  );
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const results = await benchOperatorStores();
  for (const r of results) console.table(r);
}
