/**
 * The dashboard's product list at 100,000 products in one store (decision 036):
 * p50/p95 of the first page, a filtered page and a search page, and a streamed export of every row,
 * on PGlite and (BENCH_DATABASE_URL or TEST_DATABASE_URL, a database of its own) on PostgreSQL.
 * Targets: list pages p95 <= 50 ms, export of 100,000 rows <= 10 s. BENCH_VARIANTS=5 gives every
 * product five variants (decision 112: the same p95 target at 100,000 products × 5 variants). `runCatalogListBench` is what
 * `npm run bench:catalog` calls; run alone with `tsx bench/catalog-list-bench.ts`. Prints figures and
 * the plan of each query path (EXPLAIN); asserts nothing. To fill once and measure again later (on a
 * quiet machine): BENCH_PGLITE_DIR (a PGlite data directory) and BENCH_KEEP_DB (a PostgreSQL database
 * name beside the URL's) are kept, and a run that finds the scale store there measures it as it is.
 */
import { pathToFileURL } from 'node:url';
import { type AdminProductQuery, adminProductQuerySchema } from '@app/contracts';
import { type Database, openDatabase } from '@app/db';
import { sql } from 'drizzle-orm';
import type { TenantContext } from '../apps/api/src/lib/context';
import { createEventBus } from '../apps/api/src/lib/events/index';
import { createAuditService } from '../apps/api/src/modules/audit/index';
import { createJobRunner } from '../apps/api/src/modules/jobs/index';
import { createProductListService } from '../apps/api/src/modules/products/index';
import { withKeptPostgres, withScratchPostgres } from './lib';
import { COUNT, fill, TENANT, VARIANTS } from './scale-data';

const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const silent = { info() {}, warn() {}, error() {}, debug() {}, child: () => silent } as never;

const ctx: TenantContext = {
  tenantId: TENANT,
  productStoreId: 'none',
  hostName: 'scale.test',
  viaDevAlias: false,
  origin: 'http://scale.test',
};

const FIRST: Record<string, string>[] = [{}];
const FILTERED: Record<string, string>[] = [
  { status: 'ACTIVE', stock: 'low' },
  { category: 'K-pendant' },
  { brand: 'Ashby', sort: 'price', dir: 'asc' },
  { stock: 'out', sort: 'name' },
  { category: 'M-walnut', sort: 'stock' },
  { sort: 'created' },
];
const SEARCHES: Record<string, string>[] = [
  { q: 'walnut' },
  { q: 'pend' },
  { q: 'S-4242' },
  { q: 'brass floor' },
  { q: 'Ashby' },
  { q: 'ceramic', sort: 'price' },
  // The hard ones: nothing matches (the whole list would be walked), and a SKU prefix whose products
  // are all far down the list (1,111 products, named in the query; decision 112).
  { q: 'zzz' },
  { q: 's-42' },
];

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
const ms = (n: number) => Number(n.toFixed(2));

export interface CatalogListFigures {
  database: string;
  'first page p50 ms': number;
  'first page p95 ms': number;
  'filtered p50 ms': number;
  'filtered p95 ms': number;
  'search p50 ms': number;
  'search p95 ms': number;
  'largest page KB': number;
  'export rows': number;
  'export s': number;
  'export MB': number;
  'export RSS growth MB': number;
}

/** Fills `database` (migrated, empty of the scale tenant) with COUNT products and measures the list. */
export async function runCatalogListBench(label: string, database: Database): Promise<CatalogListFigures> {
  const t0 = Date.now();
  await database.migrate();
  const filled = (await database.db.execute(sql`SELECT 1 FROM tenants WHERE tenant_id = ${TENANT}`)) as unknown as {
    rows: unknown[];
  };
  if (filled.rows.length) {
    // A kept database (BENCH_PGLITE_DIR, BENCH_KEEP_DB) filled by an earlier run: measured as it is.
    console.log(`${label}: the scale store is there already, measured as it is`);
  } else {
    await fill(database);
    await database.db.execute(sql`VACUUM ANALYZE products`);
    await database.db.execute(sql`VACUUM ANALYZE product_categories`);
    await database.db.execute(sql`VACUUM ANALYZE product_variants`);
    console.log(
      `${label}: ${COUNT} products × ${VARIANTS} variants (BENCH_VARIANTS) loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
  }
  const events = createEventBus({ log: silent });
  const jobs = createJobRunner(database.db, { log: silent, linkOrigin: (host) => `http://${host}` });
  const service = createProductListService(database.db, { audit: createAuditService(database.db), events, jobs });

  let largest = 0;
  const time = async (params: Record<string, string>[]) => {
    const queries = params.map((p) => adminProductQuerySchema.parse(p));
    for (const q of queries) await service.list(ctx, q); // warm: buffer cache and plans
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const q = queries[i % queries.length] as AdminProductQuery;
      const s = performance.now();
      const page = await service.list(ctx, q);
      times.push(performance.now() - s);
      largest = Math.max(largest, Buffer.byteLength(JSON.stringify({ data: page })));
    }
    times.sort((a, b) => a - b);
    return { p50: ms(pct(times, 50)), p95: ms(pct(times, 95)) };
  };
  const first = await time(FIRST);
  const filtered = await time(FILTERED);
  const search = await time(SEARCHES);

  // The plan of every path, so a missing index shows as a Seq Scan here.
  for (const p of [...FIRST, ...FILTERED, ...SEARCHES]) {
    const q = adminProductQuerySchema.parse(p);
    const lines = (await service.explain(ctx, q)).map((l) => l.trim());
    const scans = lines.filter((l) => /Scan/.test(l)).map((l) => l.replace(/\s+\(cost.*$/, ''));
    console.log(`  plan ${JSON.stringify(p)}: ${scans.join(' | ')}`);
  }

  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  let bytes = 0;
  let rows = -1; // the header line
  const s = performance.now();
  for await (const chunk of service.exportCsv(ctx, adminProductQuerySchema.parse({}))) {
    bytes += Buffer.byteLength(chunk);
    rows += chunk.split('\n').length - 1;
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  const exportS = (performance.now() - s) / 1000;
  await events.close();
  return {
    database: label,
    'first page p50 ms': first.p50,
    'first page p95 ms': first.p95,
    'filtered p50 ms': filtered.p50,
    'filtered p95 ms': filtered.p95,
    'search p50 ms': search.p50,
    'search p95 ms': search.p95,
    'largest page KB': ms(largest / 1024),
    'export rows': rows,
    'export s': ms(exportS),
    'export MB': ms(bytes / 2 ** 20),
    'export RSS growth MB': ms((peak - rss0) / 2 ** 20),
  };
}

/** PGlite in memory, then PostgreSQL in a database of its own (dropped after) when a URL is set. */
export async function benchCatalogList(): Promise<CatalogListFigures[]> {
  const out: CatalogListFigures[] = [];
  if (process.env.BENCH_SKIP_PGLITE !== '1') {
    const lite = await openDatabase({ dataDir: process.env.BENCH_PGLITE_DIR ?? 'memory://' });
    try {
      out.push(await runCatalogListBench('PGlite', lite));
    } finally {
      await lite.close();
    }
  }
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) {
    console.log('PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to include it)');
    return out;
  }
  const keep = process.env.BENCH_KEEP_DB;
  if (keep) {
    out.push(await withKeptPostgres(url, keep, (database) => runCatalogListBench('PostgreSQL', database)));
    return out;
  }
  out.push(await withScratchPostgres(url, 'bench_list', (database) => runCatalogListBench('PostgreSQL', database)));
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await benchCatalogList();
  console.table(figures);
}
