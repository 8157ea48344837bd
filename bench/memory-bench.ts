/**
 * `npm run bench:memory`: the production server's resident memory (RSS) on PGlite, idle with only
 * the three demo stores (a minute after a restart, when V8's memory reducer has given start-up's
 * garbage back), then with the three demo stores and a store of 100,000 products (BENCH_PRODUCTS) it has not been asked about
 * yet, then after shoppers have used that store: its search index built, searches, autocomplete,
 * category pages and a few thousand product pages (each kept up to the page memory's bounds).
 * The targets: at most 300 MB idle with the demo stores, at most 1 GB with the large store.
 * A benchmark, not a test: it prints figures and asserts nothing.
 */
import { readFileSync, rmSync } from 'node:fs';
import { openDatabase, schema } from '@app/db';
import { seedDatabase } from '@app/db/seed';
import { eq } from 'drizzle-orm';
import { fetchBody, startServer, stopServer } from './lib';
import { COUNT, fill, queries, TENANT } from './scale-data';

const PORT = 3294;
const DATA_DIR = '.bench/data-memory';
const HOST = 'scale.localhost';

function rss(pid: number | undefined) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
}
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const rows: Record<string, string | number>[] = [];

// The demo stores alone: the first start seeds them, the second is a start as any other day's.
const DEMO_DIR = '.bench/data-memory-demo';
rmSync(DEMO_DIR, { recursive: true, force: true });
await stopServer(await startServer(PORT, {}, { dataDir: DEMO_DIR }));
const demo = await startServer(PORT, {}, { dataDir: DEMO_DIR });
try {
  await pause(5_000);
  rows.push({ when: 'demo stores only, 5 s after start', ...rss(demo.pid) });
  await pause(55_000);
  rows.push({ when: 'demo stores only, 60 s after start', ...rss(demo.pid) });
} finally {
  await stopServer(demo);
}

rmSync(DATA_DIR, { recursive: true, force: true });
const categoryIds: string[] = [];
const t0 = Date.now();
const database = await openDatabase({ dataDir: DATA_DIR });
try {
  await database.migrate();
  await seedDatabase(database.db);
  await fill(database);
  await database.db
    .insert(schema.productStores)
    .values({ tenantId: TENANT, productStoreId: '9100', storeName: 'Scale Test', canonicalHost: HOST });
  await database.db.insert(schema.storeHosts).values({ hostName: HOST, tenantId: TENANT, productStoreId: '9100' });
  await database.db.execute('VACUUM ANALYZE' as never);
  const cats = await database.db
    .select({ id: schema.categories.productCategoryId })
    .from(schema.categories)
    .where(eq(schema.categories.tenantId, TENANT));
  categoryIds.push(...cats.map((c) => c.id));
} finally {
  await database.close();
}
console.log(`demo stores and ${COUNT} products of ${HOST} written in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

const server = await startServer(PORT, {}, { dataDir: DATA_DIR });
try {
  await pause(5_000);
  rows.push({ when: 'idle after start', ...rss(server.pid) });

  const get = async (path: string, host = HOST) => {
    const res = await fetchBody(PORT, path, host);
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    return res;
  };
  const B = '/skulocity/api/v1/public/ecommerce';
  // The demo stores, as a visitor of each would open them.
  for (const host of ['lighting.localhost', 'garden.localhost', 'power.localhost']) {
    await get('/', host);
    await get(`${B}/product/search?searchText=lamp`, host);
  }
  rows.push({ when: 'demo stores opened', ...rss(server.pid) });

  const list = queries();
  for (const text of list) await get(`${B}/product/search?searchText=${encodeURIComponent(text)}`);
  rows.push({ when: `${list.length} searches on ${COUNT.toLocaleString('en')} products`, ...rss(server.pid) });

  for (const text of list.slice(0, 50)) {
    for (let i = 2; i <= text.length; i++)
      await get(`${B}/product/autocomplete?q=${encodeURIComponent(text.slice(0, i))}`);
  }
  for (const id of categoryIds.slice(0, 10))
    for (let page = 1; page <= 5; page++) await get(`${B}/product?productCategoryId=${id}&page=${page}`);
  rows.push({ when: 'autocomplete and category pages', ...rss(server.pid) });

  for (let i = 0; i < 3_000; i++) await get(`${B}/getproductdetails?productId=S-${(i * 7919) % COUNT}`);
  rows.push({ when: '3,000 product pages', ...rss(server.pid) });
  await pause(10_000);
  rows.push({ when: '10 s later, idle', ...rss(server.pid) });
} finally {
  await stopServer(server);
}
console.table(rows);
