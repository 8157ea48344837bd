/**
 * `npm run bench:pages`: Lighthouse (mobile preset) on the pages of each demo store against the
 * production server; the JavaScript the browser downloaded during that load (Lighthouse's resource
 * summary), and the app's JavaScript that the starter loads when it starts the app (brotli).
 * A benchmark, not a test: it prints figures and asserts nothing.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync } from 'node:zlib';
import { schema } from '@app/db';
import { renderSeedImage, seedDatabase } from '@app/db/seed';
import { openTestDatabase } from '@app/db/testing';
import * as chromeLauncher from 'chrome-launcher';
import { and, asc, eq } from 'drizzle-orm';
import lighthouse from 'lighthouse';
import { buildAppWithServices } from '../apps/api/src/app';
import { systemContext } from '../apps/api/src/lib/context';
// biome-ignore lint/style/noRestrictedImports: the products' test helper that makes a product with variants, not part of the domain's API
import { givenStorefrontVariants } from '../apps/api/src/modules/products/storefront-variants-test-setup';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium';
import { fetchBody, startServer } from './lib';

const PORT = 3293;
const STORES = ['lighting', 'garden', 'power'];
/**
 * Lighthouse runs per page (BENCH_RUNS, default 3). One run varies by several points with whatever
 * else the machine is doing; Lighthouse's own guidance is the median of several. The row shows the
 * median run and the spread of the performance score.
 */
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
/**
 * Pages measured per store: BENCH_PAGES (comma list) or, by default, the home page, the store's
 * first category, its first featured product and a search, found through the store's own API.
 */
async function pagesOf(host: string): Promise<string[]> {
  if (process.env.BENCH_PAGES) return process.env.BENCH_PAGES.split(',');
  const json = async (path: string) => JSON.parse((await fetchBody(PORT, path, host)).body.toString()).data;
  const main = await json('/skulocity/api/v1/public/ecommerce/categories');
  const category = main.catalogCol[0].categoryList[0].productCategoryId as string;
  const featured = (await json('/skulocity/api/v1/public/ecommerce/product?featured=true&pageSize=1')).products[0];
  const word = (featured.productName as string).split(' ').at(-1)?.toLowerCase() ?? 'new';
  return ['/', `/categories/${category}`, `/${featured.slug}/${featured.productId}`, `/product/search/${word}`];
}

async function firstLoadJs(host: string, path: string) {
  const html = (await fetchBody(PORT, path, host)).body.toString();
  const srcs = new Set<string>();
  for (const m of html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+\.js)"/g))
    srcs.add(m[1]!);
  // Also the route manifest, which the starter script imports bare (`import "/assets/manifest-….js"`).
  for (const m of html.matchAll(/import\("([^"]+\.js)"\)|from "([^"]+\.js)"|import "([^"]+\.js)"/g))
    srcs.add((m[1] ?? m[2] ?? m[3])!);
  // The module preloads the starter adds when it starts the app (paint-first.ts).
  const held = /var preloads=(\[[^\]]*\]);/.exec(html);
  for (const src of held ? (JSON.parse(held[1]!) as string[]) : []) srcs.add(src);
  let raw = 0;
  let br = 0;
  for (const src of srcs) {
    const body = (await fetchBody(PORT, src, host)).body;
    raw += body.length;
    br += brotliCompressSync(body).length;
  }
  // The starter itself is inline, part of the document.
  const starter = /<script nonce="[^"]*">(\(function\(\)\{var me=document\.currentScript[\s\S]*?)<\/script>/.exec(
    html,
  )?.[1];
  const starterKb = starter ? brotliCompressSync(Buffer.from(starter)).length / 1024 : 0;
  return { files: srcs.size, rawKb: raw / 1024, brotliKb: br / 1024, starterKb };
}

/** Bytes of script the page downloaded while Lighthouse loaded it, from its resource summary. */
function scriptBytes(lhr: { audits: Record<string, { details?: unknown } | undefined> }): number {
  const items = (
    lhr.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] }
  )?.items;
  return items?.find((i) => i.resourceType === 'script')?.transferSize ?? 0;
}

/**
 * A deployed store has served its pictures before: the demo seed draws them on first request,
 * so fetch every picture a page names (all srcset widths) and render the page a few times first.
 * Otherwise Lighthouse would time the drawing, not the page.
 */
async function warmUp(host: string, path: string) {
  for (let i = 0; i < 3; i++) await fetchBody(PORT, path, host);
  const html = (await fetchBody(PORT, path, host)).body.toString().replace(/&amp;/g, '&');
  const urls = new Set<string>();
  for (const m of html.matchAll(/https?:\/\/[^"\s,]+\/media\/[^"\s,]+/g))
    urls.add(new URL(m[0]).pathname + new URL(m[0]).search);
  for (const u of urls) await fetchBody(PORT, u, host);
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

/** RUNS Lighthouse runs of a page; the median run by performance score, and the scores' spread. */
async function medianLighthouse(url: string, port: number): Promise<{ median: Lhr; spread: string }> {
  const runs: Lhr[] = [];
  for (let attempt = 0; runs.length < RUNS; attempt++) {
    if (attempt >= RUNS * 3) throw new Error(`Lighthouse keeps failing on ${url}`);
    const run = (await lighthouse(url, { port, output: 'json', logLevel: 'error' }))?.lhr;
    if (!run) throw new Error(`no Lighthouse result for ${url}`);
    // A run whose trace failed (NO_NAVSTART and the like) has no score: run it again.
    if (run.runtimeError || run.categories.performance?.score == null) {
      console.log(`${url}: a run failed (${run.runtimeError?.code ?? 'no score'}), again`);
      continue;
    }
    runs.push(run);
  }
  runs.sort((a, b) => (a.categories.performance?.score ?? 0) - (b.categories.performance?.score ?? 0));
  const pct = (r: Lhr) => Math.round((r.categories.performance?.score ?? 0) * 100);
  return { median: runs[Math.floor(runs.length / 2)]!, spread: `${pct(runs[0]!)}-${pct(runs.at(-1)!)}` };
}

/** A report's scores, timings and the script it downloaded, as a table row. */
function lighthouseRow(lhr: Lhr, spread: string) {
  const score = (k: string) => Math.round((lhr.categories[k]?.score ?? 0) * 100);
  return {
    performance: score('performance'),
    'perf runs': spread,
    accessibility: score('accessibility'),
    'best-practices': score('best-practices'),
    seo: score('seo'),
    'FCP ms': Math.round(lhr.audits['first-contentful-paint']?.numericValue ?? 0),
    'LCP ms': Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
    'TBT ms': Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0),
    CLS: Number((lhr.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
    // What the browser downloaded during Lighthouse's load (transfer sizes, brotli as served).
    'JS loaded KB': Number((scriptBytes(lhr) / 1024).toFixed(1)),
  };
}

/** The audits behind a category's score below 100, printed under the table's row. */
function printShortfalls(page: string, lhr: Lhr) {
  for (const [k, c] of Object.entries(lhr.categories)) {
    if ((c.score ?? 0) < 1) {
      const failing = c.auditRefs
        .map((r) => lhr.audits[r.id])
        .filter((a) => a && a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative')
        .map((a) => a!.id);
      console.log(`${page} ${k}: ${failing.join(', ')}`);
      if (lhr.runtimeError) console.log(`  runtime error: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    }
  }
}

/**
 * BENCH_VARIANT_PAGE=1: the product page of a product with 100 variants (10 finishes × 10 sizes,
 * swatches, some sold out) rendered by the page server in process, against a single-variant product
 * of the same store: p50/p99 of the render (the kept page warm, as shoppers meet it) and the bytes
 * of the HTML, raw and brotli (decision 112); then Lighthouse on both, the app serving them on a
 * port. Needs the web build (npm run build -w @app/web).
 */
async function variantPage() {
  const runs = Math.max(20, Number(process.env.BENCH_RUNS ?? 200));
  const database = await openTestDatabase();
  await seedDatabase(database.db);
  const T = 'lighting';
  const host = `${T}.localhost`;
  const p = schema.products;
  const [product, single] = (await database.db
    .select({ id: p.productId, slug: p.slug })
    .from(p)
    .where(and(eq(p.tenantId, T), eq(p.status, 'ACTIVE'), eq(p.productType, 'FINISHED_GOOD')))
    .orderBy(asc(p.productId))
    .limit(2)) as [{ id: string; slug: string }, { id: string; slug: string }];
  const ctx = systemContext(
    { tenantId: T, productStoreId: '9000', hostName: host, viaDevAlias: false, origin: `http://${host}` },
    'pages-bench',
  );
  const finishes = Array.from({ length: 10 }, (_, i) => ({
    label: `Finish ${i + 1}`,
    swatchColor: `#${(0x203040 + i * 0x101010).toString(16).padStart(6, '0')}`,
  }));
  const sizes = Array.from({ length: 10 }, (_, i) => ({ label: `${(i + 1) * 10} cm` }));
  await givenStorefrontVariants(database.db, ctx, product.id, {
    options: [
      { name: 'Finish', values: finishes },
      { name: 'Size', values: sizes },
    ],
    variants: finishes.flatMap((f, i) =>
      sizes.map((z, j) => ({
        values: [f.label, z.label],
        stock: (i + j) % 7 === 0 ? 0 : 5,
        listPrice: 100_00 + i * 500 + j * 100,
      })),
    ),
  });
  const { app } = await buildAppWithServices({
    database,
    generateMedia: renderSeedImage,
    logger: false,
    webBuildDir: fileURLToPath(new URL('../apps/web/build', import.meta.url)),
    jobs: { startupSweepDelayMs: null },
    config: {
      DATA_DIR: mkdtempSync(join(tmpdir(), 'pages-bench-')),
      LOG_LEVEL: 'silent',
      TRUST_PROXY: false,
      NODE_ENV: 'test',
      DEV_TENANT_ID: undefined,
    },
  });
  const rows = [];
  for (const [label, x] of [
    ['100 variants', product],
    ['1 variant', single],
  ] as const) {
    const url = `/${x.slug}/${x.id}`;
    const get = () => app.inject({ url, headers: { host } });
    const first = await get();
    if (first.statusCode !== 200) throw new Error(`${url}: ${first.statusCode}`);
    for (let i = 0; i < 10; i++) await get();
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await get();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => Number((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0).toFixed(1));
    const html = Buffer.from(first.body);
    rows.push({
      page: `product page, ${label}`,
      'p50 ms': at(0.5),
      'p99 ms': at(0.99),
      'HTML KB': Number((html.length / 1024).toFixed(1)),
      'HTML br KB': Number((brotliCompressSync(html).length / 1024).toFixed(1)),
    });
  }
  console.table(rows);
  // Then Lighthouse on both pages, served by the same app on a port (mobile preset, as the store pages).
  await app.listen({ port: PORT, host: '127.0.0.1' });
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
  });
  try {
    const scores = [];
    for (const [label, x] of [
      ['100 variants', product],
      ['1 variant', single],
    ] as const) {
      const path = `/${x.slug}/${x.id}`;
      await warmUp(host, path);
      const lhr = await medianLighthouse(`http://${host}:${PORT}${path}`, chrome.port);
      mkdirSync('.bench', { recursive: true });
      writeFileSync(`.bench/lighthouse-product-${label.replace(/\W+/g, '-')}.json`, JSON.stringify(lhr.median));
      scores.push({ page: `product page, ${label}`, ...lighthouseRow(lhr.median, lhr.spread) });
      printShortfalls(`product page, ${label}`, lhr.median);
    }
    console.table(scores);
  } finally {
    chrome.kill();
    await app.close();
    await database.close();
  }
}

if (process.env.BENCH_VARIANT_PAGE === '1') {
  await variantPage();
  process.exit(0);
}

const server = await startServer(PORT);
const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM_PATH,
  chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
});
try {
  const rows = [];
  for (const store of STORES) {
    for (const path of await pagesOf(`${store}.localhost`)) {
      const url = `http://${store}.localhost:${PORT}${path}`;
      await warmUp(`${store}.localhost`, path);
      const { median: lhr, spread } = await medianLighthouse(url, chrome.port);
      // The full report, for the details behind a score.
      mkdirSync('.bench', { recursive: true });
      writeFileSync(`.bench/lighthouse-${store}${path.replace(/\W+/g, '-')}.json`, JSON.stringify(lhr));
      const js = await firstLoadJs(`${store}.localhost`, path);
      rows.push({
        page: `${store} ${path}`,
        ...lighthouseRow(lhr, spread),
        'starter br KB': Number(js.starterKb.toFixed(1)),
        // The app's modules, which the starter loads when it starts the app (paint-first.ts).
        'app JS br KB': Number(js.brotliKb.toFixed(1)),
      });
      printShortfalls(`${store} ${path}`, lhr);
    }
  }
  console.table(rows);
} finally {
  chrome.kill();
  server.kill('SIGTERM');
}
