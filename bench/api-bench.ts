/**
 * `npm run bench`: the production server on a seeded PGlite under 50 connections for 10 s per
 * endpoint, beside a bare node:http server answering the very same bytes in the same run: the
 * ratio says what the framework, tenancy and validation cost over the machine's ceiling.
 * A benchmark, not a test: it prints figures and asserts nothing.
 */
import { createServer } from 'node:http';
import { fetchBody, load, type Result, startServer, table } from './lib';

const PORT = 3291;
const BARE_PORT = 3292;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
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

const server = await startServer(PORT);
try {
  const results: Array<{ ours: Result; bare: Result }> = [];
  for (const c of cases) {
    const sample = await fetchBody(PORT, c.path, host, c.method, c.body, c.headers);
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
      url: `http://127.0.0.1:${PORT}${c.path}`,
      ...opts,
      pathFor: c.pathFor,
    });
    const bareResult = await load(`${c.name} (bare node:http)`, {
      url: `http://127.0.0.1:${BARE_PORT}${c.path}`,
      ...opts,
    });
    await new Promise<void>((r) => bare.close(() => r()));
    results.push({ ours, bare: bareResult });
  }
  table(results.flatMap((r) => [r.ours, r.bare]));
  for (const { ours, bare } of results) {
    console.log(
      `${ours.name.replace(' (ours)', '')}: ours/bare = ${(ours.rps / bare.rps).toFixed(2)} req/s, p99 ${ours.p99} ms vs ${bare.p99} ms`,
    );
  }
} finally {
  server.kill('SIGTERM');
}
