/**
 * `npm run bench:fairness` (decision 024): one store must not slow the others. The
 * production server on a seeded PGlite; one client asks the garden store for product details one
 * request at a time, first while nothing else runs (quiet), then while the lighting store floods
 * the server with invoice PDFs and uncached searches (BENCH_FLOOD requests, BENCH_FLOOD_CONCURRENCY
 * at a time). Target: the garden p95 during the flood at most double the quiet p95.
 * A benchmark, not a test: it prints figures and asserts nothing.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { fetchBody, startServer } from './lib';

const PORT = Number(process.env.BENCH_PORT ?? 3293);
const FLOOD = Number(process.env.BENCH_FLOOD ?? 600);
const FLOOD_CONCURRENCY = Number(process.env.BENCH_FLOOD_CONCURRENCY ?? 20);
const QUIET_PROBES = Number(process.env.BENCH_QUIET_PROBES ?? 400);
const flooder = 'lighting.localhost';
const neighbour = 'garden.localhost';
const DETAILS = '/skulocity/api/v1/public/ecommerce/getproductdetails';

/** One GET on a kept-alive connection: status and milliseconds. */
function get(agent: Agent, path: string, host: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; ms: number }>((resolve, reject) => {
    const start = performance.now();
    const req = request({ host: '127.0.0.1', port: PORT, path, agent, headers: { host, ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - start }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** CPU seconds the server process has used (user + system), so other load on the machine is set apart. */
function cpuSeconds(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
function summary(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 100) / 100;
  return { n: s.length, 'p50 ms': r(quantile(s, 0.5)), 'p95 ms': r(quantile(s, 0.95)), 'max ms': r(s.at(-1) ?? 0) };
}

// The server inherits this environment: STORE_SEARCH_CONCURRENCY=1 npm run bench:fairness tries other limits
// (BENCH_PORT moves it off 3293 when another bench uses that port).
const server = await startServer(PORT);
try {
  // The shopper whose orders the flood downloads, and the neighbour's products to look at.
  const login = await fetchBody(
    PORT,
    '/skulocity/api/v1/login',
    flooder,
    'POST',
    JSON.stringify({ email: 'shopper@lighting.test', password: 'shopper-demo-1' }),
    { 'content-type': 'application/json', origin: `http://${flooder}` },
  );
  const cookie = String(login.headers['set-cookie']).split(';')[0] ?? '';
  if (login.status !== 200 || !cookie) throw new Error(`login failed: ${login.status} ${login.body}`);
  const list = await fetchBody(PORT, '/skulocity/api/v1/public/ecommerce/product?pageSize=24', neighbour);
  const productIds: string[] = JSON.parse(list.body.toString()).data.products.map(
    (p: { productId: string }) => p.productId,
  );
  if (productIds.length === 0) throw new Error('no products on the neighbour store');

  const probeAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  let probeIndex = 0;
  const probe = async () => {
    const id = productIds[probeIndex++ % productIds.length];
    const r = await get(probeAgent, `${DETAILS}?productId=${id}`, neighbour);
    if (r.status !== 200) throw new Error(`product details answered ${r.status}`);
    return r.ms;
  };
  // Warm up: every product once (the public read cache holds each answer, as it would in use).
  for (let i = 0; i < productIds.length * 2; i++) await probe();

  const quiet: number[] = [];
  for (let i = 0; i < QUIET_PROBES; i++) quiet.push(await probe());

  // The flood: invoices of the shopper's four orders and searches no cache has seen, alternately.
  const words = ['pendant', 'brass', 'lamp', 'glass', 'sconce', 'floor', 'table', 'led', 'chandelier', 'rattan'];
  const floodAgent = new Agent({ keepAlive: true, maxSockets: FLOOD_CONCURRENCY });
  const floodPath = (i: number) =>
    i % 2 === 0
      ? `/skulocity/api/v1/ecommerce/order/order/pdf?orderId=LIG-DEMO-S${((i / 2) % 4) + 1}`
      : `/skulocity/api/v1/public/ecommerce/product/search?searchText=${words[i % words.length]}&priceMax=${10_000_000 + i}`;
  const statuses = new Map<string, number>();
  const floodMs: { pdf: number[]; search: number[] } = { pdf: [], search: [] };
  let next = 0;
  let flooding = true;
  const started = performance.now();
  const cpuBefore = cpuSeconds(server.pid);
  const floodDone = Promise.all(
    Array.from({ length: FLOOD_CONCURRENCY }, async () => {
      while (next < FLOOD) {
        const i = next++;
        const r = await get(floodAgent, floodPath(i), flooder, { cookie });
        const kind = i % 2 === 0 ? 'pdf' : 'search';
        statuses.set(`${kind} ${r.status}`, (statuses.get(`${kind} ${r.status}`) ?? 0) + 1);
        if (r.status === 200) floodMs[kind].push(r.ms);
      }
    }),
  ).finally(() => {
    flooding = false;
  });
  const during: number[] = [];
  while (flooding) during.push(await probe());
  await floodDone;
  const floodSeconds = (performance.now() - started) / 1000;
  const floodCpu = cpuSeconds(server.pid) - cpuBefore;

  const q = summary(quiet);
  const d = summary(during);
  console.log(`\nNeighbour store (${neighbour}) product details, one request at a time:`);
  console.table({ quiet: q, 'during flood': d });
  console.log(
    `Flood from ${flooder}: ${FLOOD} requests, ${FLOOD_CONCURRENCY} at a time, ${floodSeconds.toFixed(1)} s, server CPU ${floodCpu.toFixed(1)} s (all threads)`,
  );
  console.table(Object.fromEntries([...statuses.entries()].sort().map(([k, n]) => [k, { requests: n }])));
  console.table({ 'pdf (served)': summary(floodMs.pdf), 'search (served)': summary(floodMs.search) });
  const ratio = d['p95 ms'] / q['p95 ms'];
  console.log(
    `p95 during the flood / quiet p95 = ${ratio.toFixed(2)} (target at most 2): ${ratio <= 2 ? 'met' : 'NOT met'}`,
  );
  probeAgent.destroy();
  floodAgent.destroy();
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
}
