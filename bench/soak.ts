/**
 * `npm run bench:soak` (decision 024): does the server's memory level off? The
 * production server runs in this process (so its heap can be sampled and snapshotted) on a fresh
 * seeded PGlite; a child process drives browse, search, cart and checkout on the three stores for
 * SOAK_MINUTES (default 5) with SOAK_CONCURRENCY clients. SOAK_LOAD=idle sends nothing instead: the
 * server alone, its job runner polling, which is what a demo server does all night.
 *
 * Every SOAK_SAMPLE_S seconds (default 10) it records RSS, the heap used and, after a full garbage
 * collection, the heap still live (`--expose-gc`, which the npm script passes), with the statements
 * PGlite answered meanwhile. The trend of the live heap, in MB per hour, is what tells a leak: 22 MB
 * an hour (the retained PGlite results, idle) is a line a 10-minute run under load shows,
 * and an idle run needs an hour or more (`SOAK_LOAD=idle SOAK_MINUTES=120`). Heap snapshots at
 * the start and the end go to .bench/ (git-ignored), and the constructors that grew most between
 * them are printed. A benchmark: it prints figures only.
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { writeHeapSnapshot } from 'node:v8';
import { guestCardOrder } from '../apps/api/src/test/guest-order';
import { PreparedPglite } from '../packages/db/src/pglite-prepared';

const PORT = 3294;
const MINUTES = Number(process.env.SOAK_MINUTES ?? 5);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 4);
const IDLE = process.env.SOAK_LOAD === 'idle';
const SAMPLE_MS = Number(process.env.SOAK_SAMPLE_S ?? 10) * 1000;
const STORES = [
  { host: 'lighting.localhost', words: ['pendant', 'brass', 'lamp', 'glass', 'sconce', 'floor'] },
  { host: 'garden.localhost', words: ['rose', 'seed', 'pot', 'hose', 'soil', 'planter'] },
  { host: 'power.localhost', words: ['drill', 'saw', 'battery', 'sander', 'grinder', 'bit'] },
];
const B = '/skulocity/api/v1';

if (process.env.SOAK_ROLE === 'load') await drive();
else await measure();

/** The server side: start it here, start the load, sample, snapshot, report. */
async function measure() {
  const dataDir = '.bench/soak-data';
  rmSync(dataDir, { recursive: true, force: true });
  Object.assign(process.env, {
    NODE_ENV: 'production',
    SESSION_SECRET: randomBytes(32).toString('hex'),
    SECRETS_KEY: randomBytes(32).toString('hex'),
    HOST: '127.0.0.1',
    PORT: String(PORT),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  });
  const { start } = await import('../apps/api/src/server');
  const app = await start();
  const mb = (n: number) => Math.round((n / 2 ** 20) * 10) / 10;
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) console.log('No gc(): run with --expose-gc (npm run bench:soak does) for the live heap after GC.');
  // Statements PGlite answered: every app query goes through PreparedPglite's one private `run`.
  let statements = 0;
  const proto = PreparedPglite.prototype as unknown as { run: (...args: unknown[]) => unknown };
  const run = proto.run;
  proto.run = function (this: unknown, ...args: unknown[]) {
    statements++;
    return run.apply(this, args);
  };

  // A first minute of traffic would move every cache from empty to warm; snapshot after a short warm-up.
  const load = IDLE
    ? undefined
    : spawn(process.execPath, ['--import', 'tsx', 'bench/soak.ts'], {
        env: { ...process.env, SOAK_ROLE: 'load' },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
  const exited = load
    ? new Promise<number | null>((r) => load.once('exit', r))
    : new Promise<number>((r) => setTimeout(() => r(0), MINUTES * 60_000));
  await new Promise((r) => setTimeout(r, 20_000));
  gc?.();
  const startSnapshot = writeHeapSnapshot('.bench/soak-start.heapsnapshot');

  const samples: Sample[] = [];
  const t0 = Date.now();
  let counted = statements;
  let last = t0;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    gc?.();
    const live = process.memoryUsage().heapUsed;
    const now = Date.now();
    const s: Sample = {
      t: (now - t0) / 60_000,
      rss: mb(m.rss),
      heap: mb(m.heapUsed),
      live: mb(live),
      external: mb(m.external),
      perMin: Math.round(((statements - counted) * 60_000) / (now - last)),
    };
    counted = statements;
    last = now;
    samples.push(s);
    console.log(
      `${s.t.toFixed(1)} min  rss ${s.rss} MB  heap ${s.heap} MB  live after GC ${s.live} MB  external ${s.external} MB  ${s.perMin} statements/min`,
    );
  }, SAMPLE_MS);
  const code = await exited;
  clearInterval(timer);
  gc?.();
  const endSnapshot = writeHeapSnapshot('.bench/soak-end.heapsnapshot');
  await app.close();
  if (code !== 0) console.log(`load driver exited with ${code}`);

  const half = samples.filter((s) => s.t >= samples.at(-1)!.t / 2);
  const minutes = (Date.now() - t0) / 60_000;
  console.log(
    `\n${IDLE ? 'Idle' : `Load of ${CONCURRENCY} shoppers`}, ${minutes.toFixed(1)} min: ${Math.round(statements / minutes)} statements/min on average`,
  );
  console.log('Trend (least squares, MB per hour):');
  const trend = (set: Sample[]) => ({
    'live after GC': slope(set, 'live'),
    heap: slope(set, 'heap'),
    rss: slope(set, 'rss'),
    external: slope(set, 'external'),
  });
  console.table({ 'whole run': trend(samples), 'second half': trend(half) });
  const range = (k: 'rss' | 'heap' | 'live') =>
    `${Math.min(...samples.map((s) => s[k]))}-${Math.max(...samples.map((s) => s[k]))}`;
  console.log(
    `RSS ${range('rss')} MB, heap used ${range('heap')} MB, live after GC ${range('live')} MB over ${samples.length} samples`,
  );
  console.log(`\nHeap snapshots: ${startSnapshot} and ${endSnapshot}. Largest growth by constructor:`);
  console.table(growth(startSnapshot, endSnapshot).slice(0, 15));
  process.exit(0);
}

interface Sample {
  /** Minutes since the first sample. */
  t: number;
  rss: number;
  heap: number;
  /** Heap used after a full collection: what is still referenced. */
  live: number;
  external: number;
  /** Statements PGlite answered per minute since the previous sample. */
  perMin: number;
}

/** Least-squares slope of `k` over time, in MB per hour. */
function slope(samples: Sample[], k: 'rss' | 'heap' | 'live' | 'external') {
  const n = samples.length;
  if (n < 2) return 0;
  const mt = samples.reduce((a, s) => a + s.t, 0) / n;
  const mv = samples.reduce((a, s) => a + s[k], 0) / n;
  const num = samples.reduce((a, s) => a + (s.t - mt) * (s[k] - mv), 0);
  const den = samples.reduce((a, s) => a + (s.t - mt) ** 2, 0);
  return Math.round((num / den) * 60 * 10) / 10;
}

/** Self size and count per node type and name (constructor), from a .heapsnapshot. */
function tally(file: string): Map<string, { size: number; count: number }> {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snap.snapshot.meta.node_fields;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const types = snap.snapshot.meta.node_types[0];
  const out = new Map<string, { size: number; count: number }>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt] ?? 0] ?? '?';
    // Strings are keyed by their type only: each distinct text would be its own row.
    const name =
      type === 'string' || type === 'concatenated string' || type === 'sliced string'
        ? ''
        : snap.strings[snap.nodes[i + nameAt] ?? 0];
    const key = `${type}:${name?.slice(0, 60)}`;
    const row = out.get(key) ?? { size: 0, count: 0 };
    row.size += snap.nodes[i + sizeAt] ?? 0;
    row.count++;
    out.set(key, row);
  }
  return out;
}

function growth(before: string, after: string) {
  const a = tally(before);
  const b = tally(after);
  return [...b.entries()]
    .map(([key, v]) => {
      const was = a.get(key) ?? { size: 0, count: 0 };
      return {
        constructor: key,
        'grew KB': Math.round((v.size - was.size) / 1024),
        'count now': v.count,
        'count was': was.count,
      };
    })
    .sort((x, y) => y['grew KB'] - x['grew KB']);
}

/** The load side: SOAK_CONCURRENCY shoppers browsing, searching, filling carts and checking out. */
async function drive() {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const until = Date.now() + MINUTES * 60_000;
  const counts = new Map<string, number>();
  const call = (
    method: 'GET' | 'POST',
    host: string,
    path: string,
    body?: object,
    extra: Record<string, string> = {},
  ) =>
    new Promise<{ status: number; body: string; cookie?: string }>((resolve, reject) => {
      const payload = body ? JSON.stringify(body) : undefined;
      const req = request(
        {
          host: '127.0.0.1',
          port: PORT,
          path,
          method,
          agent,
          headers: {
            host,
            ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
            ...extra,
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            text += c;
          });
          res.on('end', () => {
            const key = `${method} ${path.split('?')[0]?.split('/').at(-1)} ${res.statusCode}`;
            counts.set(key, (counts.get(key) ?? 0) + 1);
            resolve({
              status: res.statusCode ?? 0,
              body: text,
              cookie: [res.headers['set-cookie']].flat()[0]?.split(';')[0],
            });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

  const productsOf = new Map<string, string[]>();
  for (const s of STORES) {
    const r = await call('GET', s.host, `${B}/public/ecommerce/product?pageSize=48&inStock=true`);
    productsOf.set(
      s.host,
      JSON.parse(r.body).data.products.map((p: { productId: string }) => p.productId),
    );
  }
  let n = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < until) {
        const i = n++;
        const store = STORES[i % STORES.length]!;
        const ids = productsOf.get(store.host) ?? [];
        const id = ids[i % ids.length]!;
        const word = store.words[i % store.words.length];
        await call('GET', store.host, `${B}/public/ecommerce/product?pageSize=24&page=${(i % 3) + 1}`);
        await call('GET', store.host, `${B}/public/ecommerce/getproductdetails?productId=${id}`);
        // A new text now and then, as shoppers type: the caches see new keys all the time.
        await call(
          'GET',
          store.host,
          `${B}/public/ecommerce/product/search?searchText=${word}${i % 5 === 0 ? `%20${i}` : ''}`,
        );
        await call('GET', store.host, `${B}/public/ecommerce/product/autocomplete?q=${word?.slice(0, 3)}`);
        const add = await call('POST', store.host, `${B}/public/ecommerce/product/addToCart`, {
          productId: id,
          quantity: 1,
        });
        if (i % 10 === 0 && add.cookie) {
          await call('POST', store.host, `${B}/ecommerce/checkout/processorder`, guestCardOrder('soak@example.com'), {
            cookie: add.cookie,
            'idempotency-key': randomUUID(),
          });
        }
      }
    }),
  );
  agent.destroy();
  console.log(`\nLoad: ${n} rounds by ${CONCURRENCY} shoppers over ${MINUTES} min`);
  console.table(Object.fromEntries([...counts.entries()].sort().map(([k, v]) => [k, { requests: v }])));
}
