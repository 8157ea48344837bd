/**
 * `npm run bench`: the production server on a seeded PGlite under 50 connections for 10 s per
 * endpoint, beside a bare node:http server answering the very same bytes in the same run: the
 * ratio says what the framework, tenancy and validation cost over the machine's ceiling.
 * A benchmark, not a test: it prints figures and asserts nothing.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fetchBody, load, type Result, startServer, stopServer, table } from './lib';

const PORT = 3291;
const BARE_PORT = 3292;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
/** BENCH_ONLY: a pattern; only the rows whose name it matches run (say "product page|text new"). */
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : null;
const wanted = (name: string) => !ONLY || ONLY.test(name);
const host = 'lighting.localhost';

const boundary = '----bench';
const form = `--${boundary}\r\nContent-Disposition: form-data; name="productStoreId"\r\n\r\n9000\r\n--${boundary}--\r\n`;
// Words shoppers of the lighting store type. With a price cap that differs on every request (and
// never filters anything out), each request is a new URL: the per-tenant read cache never answers,
// so these rows measure the listing and the search themselves (index, parsed texts and product
// cards of the products service included; decision 014).
const WORDS = ['pendant', 'brass', 'lamp', 'glass', 'sconce', 'floor', 'table', 'led', 'chandelier', 'rattan'];
const uncachedSearch = (i: number) =>
  `/skulocity/api/v1/public/ecommerce/product/search?searchText=${WORDS[i % WORDS.length]}&priceMax=${10_000_000 + i}`;
const CATEGORIES = ['LGT_PENDANTS', 'LGT_CHANDELIERS', 'LGT_FLOOR_LAMPS', 'LGT_TABLE_LAMPS'];
const uncachedList = (i: number) =>
  `/skulocity/api/v1/public/ecommerce/product?productCategoryId=${CATEGORIES[i % CATEGORIES.length]}&sort=price_asc&priceMax=${10_000_000 + i}`;

const cases: Array<{
  name: string;
  path: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: string | undefined;
  pathFor?: (i: number) => string;
}> = [
  {
    name: 'POST main (multipart)',
    path: '/skulocity/api/v1/public/ecommerce/main',
    method: 'POST' as const,
    headers: { host, 'content-type': `multipart/form-data; boundary=${boundary}` } as Record<string, string>,
    body: form,
  },
  ...[
    ['GET cms fetch', '/api/v1/cms/fetch'],
    [
      'GET category products',
      '/skulocity/api/v1/public/ecommerce/product?productCategoryId=LGT_PENDANTS&sort=price_asc',
    ],
    ['GET search', '/skulocity/api/v1/public/ecommerce/product/search?searchText=brass%20lamp'],
  ].map(([name, path]) => ({
    name: name as string,
    path: path as string,
    method: 'GET' as const,
    headers: { host } as Record<string, string>,
    body: undefined,
  })),
  ...[
    ['GET category products, uncached', uncachedList],
    ['GET search, uncached', uncachedSearch],
  ].map(([name, pathFor]) => ({
    name: name as string,
    path: (pathFor as (i: number) => string)(0),
    method: 'GET' as const,
    headers: { host } as Record<string, string>,
    body: undefined,
    pathFor: pathFor as (i: number) => string,
  })),
];

/**
 * Rows that must miss the per-tenant response cache whatever the URL: a product page on every
 * request (the store's products in turn) on a server with PUBLIC_CACHE_SECONDS=0, once with the
 * product pages kept in memory (as shipped) and once without (each page read by its one statement).
 * The every-text-new search row needs no such server: its text differs on every request.
 */
type Case = (typeof cases)[number];

/**
 * Texts a shopper could type that the server has never seen: two or three words of one product's
 * name, in any order (so they match), each text used once while there are fewer requests than
 * texts; the price cap differs on every request so the response cache never answers either.
 */
async function newTexts(port: number): Promise<string[]> {
  const seen = new Set<string>();
  for (const { productName: name } of await storeProducts(port)) {
    const w = name.toLowerCase().match(/[a-z0-9]+/g) ?? [];
    for (let a = 0; a < w.length; a++)
      for (let b = 0; b < w.length; b++) {
        if (a === b) continue;
        seen.add(`${w[a]} ${w[b]}`);
        for (let c = 0; c < w.length; c++) if (c !== a && c !== b) seen.add(`${w[a]} ${w[b]} ${w[c]}`);
      }
  }
  return [...seen];
}

function rssMb(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}

/** The store's products as shoppers see them (the first 480). */
async function storeProducts(port: number): Promise<{ productId: string; productName: string }[]> {
  const all: { productId: string; productName: string }[] = [];
  for (let page = 1; page <= 10; page++) {
    const res = await fetchBody(port, `/skulocity/api/v1/public/ecommerce/product?pageSize=48&page=${page}`, host);
    const products = JSON.parse(res.body.toString()).data.products ?? [];
    all.push(...products);
    if (products.length < 48) break;
  }
  if (!all.length) throw new Error('no products to read');
  return all;
}

const results: Array<{ ours: Result; bare: Result; rss: number }> = [];
async function runCases(port: number, pid: number | undefined, list: Case[]) {
  for (const c of list) {
    if (!wanted(c.name)) continue;
    const sample = await fetchBody(port, c.path, host, c.method, c.body, c.headers);
    if (sample.status !== 200) throw new Error(`${c.name}: status ${sample.status}`);
    const bytes = sample.body;
    const bare = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
        res.end(bytes);
      });
    });
    await new Promise<void>((r) => bare.listen(BARE_PORT, '127.0.0.1', () => r()));
    const opts = { method: c.method, headers: c.headers, body: c.body, duration: DURATION };
    const ours = await load(`${c.name} (ours)`, {
      url: `http://127.0.0.1:${port}${c.path}`,
      ...opts,
      pathFor: c.pathFor,
    });
    const rss = rssMb(pid);
    const bareResult = await load(`${c.name} (bare node:http)`, {
      url: `http://127.0.0.1:${BARE_PORT}${c.path}`,
      ...opts,
    });
    await new Promise<void>((r) => bare.close(() => r()));
    results.push({ ours, bare: bareResult, rss });
  }
}

const server = await startServer(PORT);
try {
  const fresh = await newTexts(PORT);
  const everyTextNew = (i: number) =>
    `/skulocity/api/v1/public/ecommerce/product/search?searchText=${encodeURIComponent(fresh[i % fresh.length] as string)}&priceMax=${10_000_000 + i}`;
  const withExclusion = (i: number) =>
    `/skulocity/api/v1/public/ecommerce/product/search?searchText=${encodeURIComponent(`${fresh[i % fresh.length]} -zq${i.toString(36)}`)}&priceMax=${10_000_000 + i}`;
  // The search keeps no text, only words: a text drawn again costs what a new one does.
  console.log(`every-text-new row: ${fresh.length} distinct texts of known words`);
  await runCases(PORT, server.pid, [
    ...cases,
    {
      name: 'GET search, every text new',
      path: everyTextNew(0),
      method: 'GET',
      headers: { host },
      body: undefined,
      pathFor: everyTextNew,
    },
    // Web search syntax (here an exclusion of a word no product has, so every text is new and the
    // results are the plain row's) is still parsed by PostgreSQL: one round trip a text.
    {
      name: 'GET search, every text new, with an exclusion',
      path: withExclusion(0),
      method: 'GET',
      headers: { host },
      body: undefined,
      pathFor: withExclusion,
    },
  ]);
} finally {
  await stopServer(server);
}
for (const [label, env] of [
  ['product page, response cache bypassed', { PUBLIC_CACHE_SECONDS: '0' }],
  [
    'product page, response cache and page memory off (one statement a page)',
    { PUBLIC_CACHE_SECONDS: '0', PRODUCT_PAGES_IN_MEMORY: '0' },
  ],
] as const) {
  if (!wanted(`GET ${label}`)) continue;
  const uncached = await startServer(PORT, env);
  try {
    const ids = (await storeProducts(PORT)).map((p) => p.productId);
    const detail = (i: number) =>
      `/skulocity/api/v1/public/ecommerce/getproductdetails?productId=${ids[i % ids.length]}`;
    await runCases(PORT, uncached.pid, [
      { name: `GET ${label}`, path: detail(0), method: 'GET', headers: { host }, body: undefined, pathFor: detail },
    ]);
  } finally {
    await stopServer(uncached);
  }
}
table(results.flatMap((r) => [r.ours, r.bare]));
for (const { ours, bare, rss } of results) {
  console.log(
    `${ours.name.replace(' (ours)', '')}: ours/bare = ${(ours.rps / bare.rps).toFixed(2)} req/s, p99 ${ours.p99} ms vs ${bare.p99} ms; server RSS after the row ${rss} MB`,
  );
}
