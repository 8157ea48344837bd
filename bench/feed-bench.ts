/**
 * The product feed of a 10,000-product store (decision 054): the first fetch
 * (a cold build, streamed page by page from the catalog into the cache file, then to the client),
 * a cached fetch, a 304, and the server's RSS while the feed is built and sent. The feed is read
 * over a real socket and thrown away as it arrives, so nothing but the server holds it.
 * PGlite by default; `TEST_DB=postgres TEST_DATABASE_URL=...` for PostgreSQL (a scratch database).
 * Run: `npm run bench:feed` (tsx --expose-gc bench/feed-bench.ts). Prints figures; asserts nothing
 * but the item count.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { insertDefaultVariants } from '@app/db';
import { renderSeedImage, seedDatabase } from '@app/db/seed';
import { openTestDatabase } from '@app/db/testing';
import { sql } from 'drizzle-orm';
import { buildAppWithServices } from '../apps/api/src/app';

const COUNT = Number(process.env.FEED_PRODUCTS ?? 10_000);
const HOST = 'lighting.localhost';
const mb = (n: number) => Number((n / 2 ** 20).toFixed(1));

function get(port: number, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; bytes: number; items: number; etag: string; firstByteMs: number; ms: number }>(
    (resolve, reject) => {
      const t0 = performance.now();
      let firstByteMs = 0;
      const req = request({ host: '127.0.0.1', port, path, headers: { host: HOST, ...headers } }, (res) => {
        let bytes = 0;
        let items = 0;
        let tail = '';
        res.on('data', (c: Buffer) => {
          if (!firstByteMs) firstByteMs = performance.now() - t0;
          bytes += c.length;
          const s = tail + c.toString('utf8');
          items += s.split('<item>').length - 1;
          tail = s.slice(-6);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            bytes,
            items,
            etag: String(res.headers.etag ?? ''),
            firstByteMs,
            ms: performance.now() - t0,
          }),
        );
      });
      req.on('error', reject);
      req.end();
    },
  );
}

async function main() {
  const database = await openTestDatabase();
  await seedDatabase(database.db);
  const [cat] = (
    (await database.db.execute(sql`
      SELECT cc.product_category_id AS id FROM catalog_categories cc
        JOIN catalogs c ON c.tenant_id = cc.tenant_id AND c.prod_catalog_id = cc.prod_catalog_id
       WHERE c.tenant_id = 'lighting' ORDER BY 1 LIMIT 1`)) as unknown as { rows: { id: string }[] }
  ).rows;
  const t0 = Date.now();
  // Products with a description of a typical length, a picture, a brand, some on sale; every tenth out of stock.
  await database.db.execute(sql`
    INSERT INTO products (tenant_id, product_id, sku, product_name, slug, brand_name, description,
      detail_image_url, list_price, sale_price, stock_quantity)
    SELECT 'lighting', 'FB-' || lpad(g::text, 6, '0'), 'FB-SKU-' || g, 'Feed bench lamp ' || g || ' & shade',
      'feed-bench-lamp-' || g, 'Brand ' || (g % 40),
      '<p>' || repeat('A warm, dimmable lamp with a linen shade. ', 12) || '</p>',
      '/media/seed/bench-' || g || '.webp', 1000 + g, CASE WHEN g % 5 = 0 THEN 900 + g ELSE NULL END,
      CASE WHEN g % 10 = 0 THEN 0 ELSE 5 END
    FROM generate_series(1, ${COUNT}) g`);
  // Every product has its default variant (decision 112).
  await insertDefaultVariants(database.db, 'lighting');
  await database.db.execute(sql`
    INSERT INTO product_categories (tenant_id, product_category_id, product_id, sequence_num)
    SELECT 'lighting', ${cat?.id}, 'FB-' || lpad(g::text, 6, '0'), 0 FROM generate_series(1, ${COUNT}) g`);
  await database.db.execute(sql`ANALYZE products`);
  console.log(
    `${COUNT} products loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s (${process.env.TEST_DB ?? 'pglite'})`,
  );

  const dataDir = mkdtempSync(join(tmpdir(), 'feed-bench-'));
  const { app, services } = await buildAppWithServices({
    database,
    generateMedia: renderSeedImage,
    logger: false,
    jobs: { startupSweepDelayMs: null },
    config: { DATA_DIR: dataDir, LOG_LEVEL: 'silent', TRUST_PROXY: false, NODE_ENV: 'test', DEV_TENANT_ID: undefined },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const login = await app.inject({
    method: 'POST',
    url: '/skulocity/api/v1/login',
    headers: { host: HOST },
    payload: { email: 'owner@lighting.test', password: 'owner-demo-1' },
  });
  const session = {
    cookie: String(login.headers['set-cookie']).split(';')[0] ?? '',
    'x-csrf-token': login.json().data.csrfToken as string,
  };
  // Connecting builds nothing yet; the page view would, so the URL is read from the API's answer
  // and the feed dropped again before the measured cold fetch.
  const connected = await app.inject({
    method: 'POST',
    url: '/api/marketplace/bonanza/connect',
    headers: { host: HOST, origin: `http://${HOST}`, ...session },
    payload: {
      tenantId: 'lighting',
      accountEmail: 'bench@lighting.test',
      boothName: 'Bench Booth',
      token: 'bz_bench_0123456789abcdef',
    },
  });
  const path = new URL(connected.json().data.feed.url).pathname;
  services.events.emit('catalog.changed', { tenantId: 'lighting' });
  await new Promise((r) => setTimeout(r, 50));

  (globalThis as { gc?: () => void }).gc?.();
  const rssBefore = process.memoryUsage().rss;
  const heapBefore = process.memoryUsage().heapUsed;
  let rssPeak = rssBefore;
  let heapPeak = heapBefore;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    rssPeak = Math.max(rssPeak, m.rss);
    heapPeak = Math.max(heapPeak, m.heapUsed);
  }, 5);
  const cold = await get(port, path);
  const warm = await get(port, path);
  const notModified = await get(port, path, { 'if-none-match': cold.etag });
  clearInterval(sampler);
  const expected = COUNT - Math.floor(COUNT / 10);
  const seeded = cold.items - expected;
  console.table({
    'cold fetch (build + send)': {
      ms: Math.round(cold.ms),
      'first byte ms': Math.round(cold.firstByteMs),
      MB: mb(cold.bytes),
      items: cold.items,
      status: cold.status,
    },
    'cached fetch': {
      ms: Math.round(warm.ms),
      'first byte ms': Math.round(warm.firstByteMs),
      MB: mb(warm.bytes),
      items: warm.items,
      status: warm.status,
    },
    'If-None-Match': {
      ms: Math.round(notModified.ms),
      'first byte ms': Math.round(notModified.firstByteMs),
      MB: 0,
      items: 0,
      status: notModified.status,
    },
  });
  console.log(
    `RSS before ${mb(rssBefore)} MB, peak ${mb(rssPeak)} MB (growth ${mb(rssPeak - rssBefore)} MB); ` +
      `heap before ${mb(heapBefore)} MB, peak ${mb(heapPeak)} MB (growth ${mb(heapPeak - heapBefore)} MB); feed ${mb(cold.bytes)} MB`,
  );
  if (cold.status !== 200 || seeded < 0 || warm.items !== cold.items || notModified.status !== 304) {
    throw new Error(`unexpected answers: ${JSON.stringify({ cold, warm, notModified })}`);
  }
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
