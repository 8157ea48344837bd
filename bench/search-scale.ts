/**
 * `npm run bench:search`: search at scale. A generated tenant of 100,000 products, then a fixed list
 * of 200 queries (words, phrases, prefixes, brands, typos) through the search service, on PGlite and,
 * when BENCH_DATABASE_URL or TEST_DATABASE_URL is set, on PostgreSQL. Prints p50 and p95 per database.
 * A benchmark, not a test: it prints figures and asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import { type Database, openDatabase } from '@app/db';
import pg from 'pg';
import type { TenantContext } from '../apps/api/src/lib/context';
import { createProductsService } from '../apps/api/src/modules/products/products.service';
import { COUNT, fill, queries, TENANT } from './scale-data';

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function run(label: string, database: Database) {
  const t0 = Date.now();
  await database.migrate();
  await fill(database);
  // What autovacuum does shortly after a bulk load on a real server: statistics, and the visibility
  // map that lets a bitmap scan skip rechecking pages that are all visible.
  await database.db.execute(`VACUUM ANALYZE products` as never);
  await database.db.execute(`VACUUM ANALYZE product_categories` as never);
  console.log(`${label}: ${COUNT} products loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const service = createProductsService(database.db);
  const ctx: TenantContext = {
    tenantId: TENANT,
    productStoreId: 'none',
    hostName: 'scale.test',
    viaDevAlias: false,
    origin: 'http://scale.test',
  };
  const list = queries();
  const q = (searchText: string) => ({ searchText, sort: 'relevance' as const, page: 1, pageSize: 24 });
  // The tenant's search index (decision 014), built before the warm-up so its cost is seen apart.
  const gc = (globalThis as { gc?: () => void }).gc;
  // Twice, a turn of the event loop apart: array buffers are released after the objects holding them.
  const collect = async () => {
    gc?.();
    await new Promise((resolve) => setImmediate(resolve));
    gc?.();
  };
  await collect();
  const before = process.memoryUsage();
  const [stats] = await service.searchIndexStats(TENANT);
  await collect();
  const after = process.memoryUsage();
  const mb = (b: number) => Number((b / 2 ** 20).toFixed(1));
  // Typed arrays live outside the JS heap: heapUsed counts the strings and maps, arrayBuffers the rest.
  console.log(`${label}: search index`, {
    products: stats?.products,
    'read ms': Math.round(stats?.buildMs?.read ?? 0),
    'build ms (read included)': Math.round(stats?.buildMs?.total ?? 0),
    'estimated MB': mb(stats?.bytes ?? 0),
    'heap used before/after MB': `${mb(before.heapUsed)} / ${mb(after.heapUsed)}`,
    'array buffers before/after MB': `${mb(before.arrayBuffers)} / ${mb(after.arrayBuffers)}`,
    'growth MB': mb(after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers),
    'gc before measuring': gc ? 'yes' : 'no (run with --expose-gc)',
  });
  // Warm-up: one pass over the list, so the timed pass sees what a running server has: the
  // database's buffer cache, query plans and the typo vocabulary.
  for (const text of list) await service.search(ctx, q(text));
  const times: number[] = [];
  const slowest: { text: string; ms: number; total: number }[] = [];
  let found = 0;
  for (const text of list) {
    const s = performance.now();
    const r = await service.search(ctx, q(text));
    const ms = performance.now() - s;
    times.push(ms);
    slowest.push({ text, ms: Math.round(ms), total: r.total });
    if (r.total > 0) found++;
  }
  times.sort((a, b) => a - b);
  slowest.sort((a, b) => b.ms - a.ms);
  console.log(`${label}: slowest queries`, slowest.slice(0, 6));
  return {
    database: label,
    queries: list.length,
    'with results': found,
    'p50 ms': Number(percentile(times, 50).toFixed(1)),
    'p95 ms': Number(percentile(times, 95).toFixed(1)),
    'max ms': Number(times.at(-1)!.toFixed(1)),
  };
}

const rows = [];
if (process.env.BENCH_SKIP_PGLITE !== '1') {
  const lite = await openDatabase({ dataDir: 'memory://' });
  try {
    rows.push(await run('PGlite', lite));
  } finally {
    await lite.close();
  }
}
const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (url) {
  const name = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: u.toString(), poolSize: 4 });
  try {
    rows.push(await run('PostgreSQL', database));
  } finally {
    await database.close();
    const a = new pg.Client({ connectionString: url });
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await a.end();
  }
} else {
  console.log('PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to include it)');
}
console.table(rows);
