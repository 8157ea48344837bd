/**
 * `npm run bench:search`: search at scale. A generated tenant of 100,000 products, then a fixed list
 * of 200 queries (words, phrases, prefixes, brands, typos) through the search service, on PGlite and,
 * when BENCH_DATABASE_URL or TEST_DATABASE_URL is set, on PostgreSQL. Prints p50 and p95 per database,
 * twice: each text the first time the service sees it (PostgreSQL parses it, the page's product cards
 * are read) and the same texts again (both kept in memory by the service).
 * A benchmark, not a test: it prints figures and asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import { type Database, openDatabase, schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import type { TenantContext } from '../apps/api/src/lib/context';
import { createProductsService } from '../apps/api/src/modules/products/index';
import { withScratchPostgres } from './lib';
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
  const ctx: TenantContext = {
    tenantId: TENANT,
    productStoreId: 'none',
    hostName: 'scale.test',
    viaDevAlias: false,
    origin: 'http://scale.test',
  };
  const list = queries();
  const q = (searchText: string) => ({ searchText, sort: 'relevance' as const, page: 1, pageSize: 24 });
  // Warm-up with a service of its own, one pass over the list, so the timed passes see what a
  // running server has: the database's buffer cache and query plans. Its index, parsed texts and
  // cards go with it; the timed service starts with none of them.
  {
    const warm = createProductsService(database.db);
    for (const text of list) await warm.search(ctx, q(text));
  }
  const service = createProductsService(database.db);
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
  // The typo vocabulary is read on the first typo: read it now, as a running server has it.
  await service.search(ctx, q('lampp brsas'));
  const pass = async () => {
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
    return { times, slowest, found };
  };
  const first = await pass();
  const again = await pass();
  // Autocomplete as a shopper types: every prefix (two letters on) of the plain-word queries.
  const typed = [
    ...new Set(
      list
        .filter((t) => /^[a-z ]+$/i.test(t))
        .flatMap((t) => Array.from({ length: t.length - 1 }, (_, i) => t.slice(0, i + 2)))
        .filter((t) => !t.endsWith(' ')),
    ),
  ];
  const typing: number[] = [];
  const slowTyping: { text: string; ms: number }[] = [];
  for (const text of typed) {
    const s = performance.now();
    await service.autocomplete(ctx, text);
    const ms = performance.now() - s;
    typing.push(ms);
    slowTyping.push({ text, ms: Number(ms.toFixed(1)) });
  }
  typing.sort((a, b) => a - b);
  slowTyping.sort((a, b) => b.ms - a.ms);
  console.log(`${label}: slowest autocomplete texts`, slowTyping.slice(0, 25));
  console.log(`${label}: slowest queries, first time`, first.slowest.slice(0, 6));
  // A single product edit: the time from its catalog.changed to its new name being
  // found, when the event drops the index (no ids: the next search rebuilds) and when it carries
  // the product's id (the loaded index is patched). Several edits each, the median reported.
  const p = schema.products;
  const editVisible = async (withIds: boolean) => {
    const times: number[] = [];
    for (let k = 0; k < 5; k++) {
      const word = `zq${withIds ? 'p' : 'r'}${k}x${randomBytes(3).toString('hex')}`;
      const id = `S-${1234 + k * 7919}`;
      await database.db
        .update(p)
        .set({ productName: `${word} Brass Lamp`, updatedAt: new Date() })
        .where(and(eq(p.tenantId, TENANT), eq(p.productId, id)));
      const s = performance.now();
      service.catalogChanged(TENANT, withIds ? { productIds: [id] } : {});
      const r = await service.search(ctx, q(word));
      times.push(performance.now() - s);
      if (r.products[0]?.productId !== id) throw new Error(`edited product ${id} not found by ${word}`);
    }
    times.sort((a, b) => a - b);
    return Number((times[2] as number).toFixed(1));
  };
  const countersBefore = service.searchIndexCounters();
  const editRebuild = await editVisible(false);
  const editPatch = await editVisible(true);
  const countersAfter = service.searchIndexCounters();
  // The last patch's own figures: its one query, and the query plus the in-memory patch.
  const [patched] = await service.searchIndexStats();
  console.log(`${label}: single edit visible in search`, {
    'rebuild (event without ids) median ms': editRebuild,
    'patch (event with the id) median ms': editPatch,
    'last patch: read ms': Math.round(patched?.buildMs?.read ?? 0),
    'last patch: read + patch ms': Math.round(patched?.buildMs?.total ?? 0),
    builds: countersAfter.builds - countersBefore.builds,
    patches: countersAfter.patches - countersBefore.patches,
  });
  const ms = (times: number[], p: number) => Number(percentile(times, p).toFixed(1));
  return {
    database: label,
    queries: list.length,
    'with results': first.found,
    'p50 ms': ms(first.times, 50),
    'p95 ms': ms(first.times, 95),
    'max ms': Number(first.times.at(-1)!.toFixed(1)),
    'again p50 ms': ms(again.times, 50),
    'again p95 ms': ms(again.times, 95),
    'autocomplete texts': typing.length,
    'autocomplete p50 ms': ms(typing, 50),
    'autocomplete p95 ms': ms(typing, 95),
    'edit visible, rebuild ms': editRebuild,
    'edit visible, patch ms': editPatch,
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
  rows.push(await withScratchPostgres(url, 'bench', (database) => run('PostgreSQL', database)));
} else {
  console.log('PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to include it)');
}
console.table(rows);
