/**
 * `npm run bench:stores`: many stores in one production server (decision 124). Makes
 * BENCH_STORES stores (default 1,000) by copying the lighting demo store set-based (its products,
 * categories, catalog, settings, shipping and taxes; each copy its own tenant, product store and
 * host `s<n>.localhost`), starts `dist/server.mjs` on them and visits every store: its home, a
 * category, a product and a search; then a second pass over the stores in the same order. Prints
 * the server's RSS (idle, after each pass, peak), its CPU per page (from /proc/<pid>/stat) and p50/p95
 * of the cold visits (a store's first) and of the warm ones (the second pass), and the store memory
 * budget's report when the server has one (GET /readyz is not enough: the operator's figure is read
 * from the process with BENCH_MEMORY_REPORT). A benchmark, not a test: it prints and asserts nothing.
 *   BENCH_STORES=1000 BENCH_DB=pglite|postgres [BENCH_DATABASE_URL=postgres://...@127.0.0.1:55433/postgres]
 *   BENCH_CONCURRENCY=1 (visitors at once; 1 measures latency without queueing)
 *   BENCH_PASSES=2 (1: the first visits only, for a quicker run at 10,000 stores)
 */
import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { type Database, openDatabase } from '@app/db';
import { seedDatabase } from '@app/db/seed';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { fetchBody, startServer, stopServer } from './lib';

const STORES = Number(process.env.BENCH_STORES ?? 1_000);
const DB = process.env.BENCH_DB ?? 'pglite';
const CONCURRENCY = Math.max(1, Number(process.env.BENCH_CONCURRENCY ?? 1));
const PASSES = Number(process.env.BENCH_PASSES ?? 2);
const PORT = Number(process.env.BENCH_PORT ?? 3296);
const TEMPLATE = 'lighting';
/** Products per store: the template's first this many (it has 87). */
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 50);
const DATA_DIR = `.bench/data-stores-${STORES}-${PORT}`;
const PG_NAME = `bench_stores_${PORT}`;
const TOKEN = `opt_${randomBytes(24).toString('base64url')}`;

/** The tables a store's storefront reads, in an order their foreign keys accept. */
const STORE_TABLES = [
  'tenants',
  'store_lifecycle',
  'product_stores',
  'store_settings',
  'categories',
  'category_rollups',
  'catalogs',
  'catalog_categories',
  'media',
  'products',
  'product_images',
  'product_options',
  'product_option_values',
  'product_variants',
  'product_variant_images',
  'product_categories',
  'product_features',
  'product_associations',
  'product_contents',
  'product_config_options',
  'product_config_choices',
  'cms_pages',
  'faqs',
  'banners',
  'seo_meta',
  'shipping_zones',
  'shipping_methods',
  'store_tax_settings',
  'tax_rates',
];

const rows = async <T>(db: Database['db'], q: ReturnType<typeof sql>) => {
  const r = (await db.execute(q)) as unknown as { rows: T[] };
  return r.rows;
};

/** Copies the template store's rows of every store table N times, one statement per table. */
async function makeStores(database: Database) {
  const db = database.db;
  for (const table of STORE_TABLES) {
    const cols = await rows<{ column_name: string }>(
      db,
      sql`SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ${table}
          AND is_generated = 'NEVER' AND is_identity = 'NO' AND coalesce(column_default, '') NOT LIKE 'nextval%'
          ORDER BY ordinal_position`,
    );
    if (cols.length === 0) continue;
    const names = cols.map((c) => c.column_name);
    // Only the template's first PRODUCTS products (and what hangs off them) are copied.
    const chosen = `SELECT product_id FROM products WHERE tenant_id = '${TEMPLATE}' ORDER BY product_id LIMIT ${PRODUCTS}`;
    const only = [
      ...(names.includes('product_id') && table !== 'media' ? [`product_id IN (${chosen})`] : []),
      ...(names.includes('related_product_id') ? [`related_product_id IN (${chosen})`] : []),
    ];
    const expr = names.map((c) => {
      if (c === 'tenant_id') return `'b' || i`;
      if (c === 'product_store_id') return `product_store_id || '-' || i`;
      if (c === 'canonical_host') return `'s' || i || '.localhost'`;
      return `"${c}"`;
    });
    await db.execute(
      sql.raw(`INSERT INTO "${table}" (${names.map((c) => `"${c}"`).join(', ')})
               SELECT ${expr.join(', ')} FROM "${table}", generate_series(1, ${STORES}) i
               WHERE tenant_id = '${TEMPLATE}' ${only.map((w) => `AND ${w}`).join(' ')}`),
    );
  }
  await db.execute(
    sql.raw(`INSERT INTO store_hosts (host_name, tenant_id, product_store_id)
             SELECT 's' || i || '.localhost', 'b' || i, product_store_id || '-' || i
             FROM product_stores, generate_series(1, ${STORES}) i WHERE tenant_id = '${TEMPLATE}'`),
  );
  await db.execute(sql`ANALYZE`);
}

function procStat(pid: number) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(f[11]) + Number(f[12]); // utime + stime, in clock ticks (100 a second)
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { cpuMs: ticks * 10, rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
}

const pct = (sorted: number[], p: number) =>
  sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number) : 0;

async function main() {
  const t0 = Date.now();
  let database: Database;
  let env: Record<string, string> = {};
  let dataDir: string | undefined;
  const pgUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55433/postgres';
  const admin = async (q: string) => {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    try {
      await c.query(q);
    } finally {
      await c.end();
    }
  };
  if (DB === 'postgres') {
    await admin(`DROP DATABASE IF EXISTS ${PG_NAME} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${PG_NAME}`);
    const u = new URL(pgUrl);
    u.pathname = `/${PG_NAME}`;
    env = { DATABASE_URL: u.toString() };
    database = await openDatabase({ databaseUrl: u.toString(), poolSize: 2 });
  } else {
    rmSync(DATA_DIR, { recursive: true, force: true });
    dataDir = DATA_DIR;
    database = await openDatabase({ dataDir: DATA_DIR });
  }
  const catalog: { category: string; product: string; search: string } = { category: '', product: '', search: '' };
  try {
    await database.migrate();
    await seedDatabase(database.db);
    await makeStores(database);
    // An operator token, to read the process's memory report (GET /platform-api/memory).
    await database.db.execute(sql`INSERT INTO operators (operator_id, email, name, password_hash)
      VALUES ('OP-BENCH', 'bench@platform.localhost', 'Bench', 'x')`);
    await database.db.execute(sql`INSERT INTO operator_tokens (token_id, operator_id, name, token_hash, prefix)
      VALUES ('OPT-BENCH', 'OP-BENCH', 'bench', ${createHash('sha256').update(TOKEN).digest('hex')}, 'opt_be')`);
    const [cat] = await rows<{ id: string }>(
      database.db,
      sql`SELECT product_category_id AS id FROM product_categories WHERE tenant_id = 'b1'
          GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
    );
    const [product] = await rows<{ id: string; slug: string; name: string }>(
      database.db,
      sql`SELECT product_id AS id, slug, product_name AS name FROM products WHERE tenant_id = 'b1'
          AND status = 'ACTIVE' ORDER BY product_id LIMIT 1`,
    );
    const [{ n } = { n: 0 }] = await rows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM products WHERE tenant_id = 'b1'`,
    );
    if (!cat || !product) throw new Error('the template store has no category or product');
    catalog.category = `/categories/${cat.id}`;
    catalog.product = `/${product.slug}/${product.id}`;
    catalog.search = `/product/search/${encodeURIComponent(product.name.split(' ')[0] ?? 'lamp')}`;
    console.log(
      `${STORES.toLocaleString('en')} stores of ${n} products on ${DB} written in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
  } finally {
    await database.close();
  }

  const server: ChildProcess = await startServer(
    PORT,
    { ...env, ...memoryEnv() },
    {
      ...(dataDir ? { dataDir } : {}),
      // BENCH_SERVER=<bundle>: an earlier build of the server (node apps/api/build.mjs .bench/before-dist).
      ...(process.env.BENCH_SERVER ? { server: process.env.BENCH_SERVER } : {}),
    },
  );
  const pid = server.pid as number;
  try {
    const paths = [
      ['home', '/'],
      ['category', catalog.category],
      ['product', catalog.product],
      ['search', catalog.search],
    ] as const;
    // The server's own warm-up (JIT, the page modules loaded) on the template store itself, so the
    // first bench stores do not pay for it: a cold store here is cold in a process already running.
    for (let round = 0; round < 5; round++)
      for (const [, path] of paths) await fetchBody(PORT, path, `${TEMPLATE}.localhost`);
    await new Promise((r) => setTimeout(r, 3_000));
    const idle = procStat(pid);
    const pass = async () => {
      const times: number[] = [];
      const byPage = new Map<string, number[]>();
      let next = 1;
      let failures = 0;
      const before = procStat(pid);
      const visitor = async () => {
        for (;;) {
          const i = next++;
          if (i > STORES) return;
          for (const [page, path] of paths) {
            const start = performance.now();
            const res = await fetchBody(PORT, path, `s${i}.localhost`);
            const took = performance.now() - start;
            if (res.status !== 200) failures++;
            times.push(took);
            byPage.set(page, [...(byPage.get(page) ?? []), took]);
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, visitor));
      const after = procStat(pid);
      times.sort((a, b) => a - b);
      const pages: Record<string, string> = {};
      for (const [page, list] of byPage) {
        list.sort((a, b) => a - b);
        pages[page] = `${pct(list, 0.5).toFixed(0)}/${pct(list, 0.95).toFixed(0)}`;
      }
      return {
        p50: Number(pct(times, 0.5).toFixed(1)),
        p95: Number(pct(times, 0.95).toFixed(1)),
        cpuPerPage: Number(((after.cpuMs - before.cpuMs) / times.length).toFixed(1)),
        failures,
        pages,
        rss: after.rssMb,
      };
    };
    const cold = await pass();
    const afterCold = procStat(pid);
    // BENCH_PASSES=1: the first visits only (10,000 stores: the memory after every store was visited).
    const warm = PASSES > 1 ? await pass() : undefined;
    const afterWarm = procStat(pid);
    console.log(`\n${STORES.toLocaleString('en')} stores on ${DB}, ${CONCURRENCY} visitor(s) at once`);
    console.table([
      { figure: 'RSS idle after start (MB)', value: idle.rssMb },
      { figure: 'RSS after pass 1 (MB)', value: afterCold.rssMb },
      { figure: 'RSS after pass 2 (MB)', value: afterWarm.rssMb },
      { figure: 'RSS peak (MB)', value: afterWarm.peakMb },
    ]);
    console.table([
      { pass: 'cold (first visit)', ...cold, pages: JSON.stringify(cold.pages) },
      ...(warm ? [{ pass: 'warm (second visit)', ...warm, pages: JSON.stringify(warm.pages) }] : []),
    ]);
    console.log('p50/p95 ms per page:', { cold: cold.pages, warm: warm?.pages });
    await printMemoryReport();
  } finally {
    await stopServer(server);
    if (DB === 'postgres' && !process.env.BENCH_KEEP) await admin(`DROP DATABASE IF EXISTS ${PG_NAME} WITH (FORCE)`);
  }
}

/** Extra server settings for a run (BENCH_SERVER_ENV='A=1,B=2'), to compare budgets. */
function memoryEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (process.env.BENCH_SERVER_ENV ?? '').split(',').filter(Boolean)) {
    const [k, v] = pair.split('=');
    if (k && v !== undefined) out[k] = v;
  }
  return out;
}

/** The server's memory budget, as the operator reads it (absent before decision 124: said so). */
async function printMemoryReport() {
  const res = await fetchBody(PORT, '/platform-api/memory', 'platform.localhost', 'GET', undefined, {
    authorization: `Bearer ${TOKEN}`,
  });
  if (res.status !== 200) {
    console.log(`memory report: ${res.status} (a server without GET /platform-api/memory)`);
    return;
  }
  const { data } = JSON.parse(res.body.toString()) as {
    data: {
      limitBytes: number;
      usedBytes: number;
      evictions: number;
      caches: { name: string; entries: number; bytes: number; evictions: number }[];
      process: {
        rssBytes: number;
        heapUsedBytes: number;
        heapTotalBytes: number;
        externalBytes: number;
        heapSpaces?: { name: string; sizeBytes: number; usedBytes: number }[];
      };
    };
  };
  const mb = (n: number) => Number((n / 2 ** 20).toFixed(1));
  console.log(`memory budget: ${mb(data.usedBytes)} of ${mb(data.limitBytes)} MB, ${data.evictions} evictions`);
  const p = data.process;
  console.log(
    `process: RSS ${mb(p.rssBytes)} MB, JS heap used ${mb(p.heapUsedBytes)} of ${mb(p.heapTotalBytes)} MB, external ${mb(p.externalBytes)} MB`,
  );
  if (p.heapSpaces)
    console.table(p.heapSpaces.map((h) => ({ space: h.name, committedMB: mb(h.sizeBytes), liveMB: mb(h.usedBytes) })));
  console.table(
    data.caches.map((c) => ({ cache: c.name, entries: c.entries, MB: mb(c.bytes), evictions: c.evictions })),
  );
}

await main();
