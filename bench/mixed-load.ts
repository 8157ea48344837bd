/**
 * `npm run drill:load`: mixed load with the books checked at the end. The real server runs
 * as a child process on a fresh seeded PGlite in a temporary directory, on 127.0.0.1 only.
 * DRILL_CLIENTS clients (default 8) browse, search, fill carts and check out on the three stores for
 * DRILL_SECONDS (default 60). At the end it prints requests, error rate, orders and the server's RSS
 * at start and end, and checks the books: stock taken equals units on orders, one order per key.
 * Exits 1 if the error rate is 0.1% or more or the books do not add up.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, schema } from '@app/db';
import { seedDatabase } from '@app/db/seed';
import { and, eq, inArray, ne } from 'drizzle-orm';
import { guestCardOrder } from '../apps/api/src/test/guest-order';
import { freePort, spawnNode, waitReady } from '../apps/api/src/test/processes';
import { setTestStock } from '../apps/api/src/test/stock';
import { COMPILED_SERVER, compileServer } from './lib';

const SECONDS = Number(process.env.DRILL_SECONDS ?? 60);
const CLIENTS = Number(process.env.DRILL_CLIENTS ?? 8);
const MAX_ERROR_RATE = 0.001;
const STOCK = 100_000;
const EMAIL = 'load@example.com';
const B = '/skulocity/api/v1';
const STORES = [
  { tenant: 'lighting', words: ['pendant', 'brass', 'lamp', 'glass', 'sconce', 'floor'] },
  { tenant: 'garden', words: ['rose', 'seed', 'pot', 'hose', 'soil', 'planter'] },
  { tenant: 'power', words: ['drill', 'saw', 'battery', 'sander', 'grinder', 'bit'] },
];
const order = guestCardOrder(EMAIL);

const dataDir = mkdtempSync(join(tmpdir(), 'sf-load-'));
const mb = (kb: number) => Math.round(kb / 102.4) / 10;
function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0);
}

// Seed here first, and give every simple product plenty of stock, so the books start from known figures.
const productsOf = new Map<string, string[]>();
{
  const database = await openDatabase({ dataDir });
  await database.migrate();
  await seedDatabase(database.db);
  const p = schema.products;
  for (const s of STORES) {
    const rows = await database.db
      .update(p)
      .set({ stockQuantity: STOCK })
      // Sold by product id, as an older client adds: a product sold in variants needs a variant's id.
      .where(and(eq(p.tenantId, s.tenant), ne(p.productType, 'CONFIGURABLE'), eq(p.variantCount, 1)))
      .returning({ productId: p.productId });
    // The count lives on the variant, the product keeps the totals (decision 112).
    for (const r of rows) await setTestStock(database.db, STOCK, { tenantId: s.tenant, productId: r.productId });
    productsOf.set(
      s.tenant,
      rows.map((r) => r.productId),
    );
  }
  await database.close();
}

const port = await freePort();
// The server as `npm start` runs it.
compileServer();
const server = spawnNode(
  {
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    NODE_ENV: 'production',
    SESSION_SECRET: randomBytes(32).toString('hex'),
    SECRETS_KEY: randomBytes(32).toString('hex'),
  },
  [COMPILED_SERVER],
);
let code = 1;
try {
  await waitReady(port, server);
  const pid = server.child.pid as number;
  const rssStart = rssKb(pid);
  console.log(
    `[mixed load] ${CLIENTS} clients for ${SECONDS} s on 127.0.0.1:${port}, server pid ${pid}, RSS ${mb(rssStart)} MB`,
  );

  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const counts = new Map<string, number>();
  let requests = 0;
  let errors = 0;
  const errorSamples: string[] = [];
  const call = (
    method: 'GET' | 'POST',
    tenant: string,
    path: string,
    body?: object,
    extra: Record<string, string> = {},
  ) =>
    new Promise<{ status: number; body: string; cookie?: string }>((resolve) => {
      const payload = body ? JSON.stringify(body) : undefined;
      const kind = `${method} ${path.split('?')[0]?.split('/').at(-1) || '/'}`;
      const done = (status: number, text: string, cookie?: string) => {
        requests++;
        const key = `${kind} ${status}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
        if (status !== 200) {
          errors++;
          if (errorSamples.length < 10) errorSamples.push(`${key}: ${text.slice(0, 200)}`);
        }
        resolve({ status, body: text, cookie });
      };
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path,
          method,
          agent,
          headers: {
            host: `${tenant}.localhost`,
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
          res.on('end', () => done(res.statusCode ?? 0, text, [res.headers['set-cookie']].flat()[0]?.split(';')[0]));
          res.on('error', (err) => done(0, String(err)));
        },
      );
      req.on('error', (err) => done(0, String(err)));
      req.end(payload);
    });

  // Every checkout answered 200: its key and order. Some keys are sent twice, as a retry would.
  const ordersByKey = new Map<string, Set<string>>();
  let checkouts = 0;
  const until = Date.now() + SECONDS * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      while (Date.now() < until) {
        const i = n++;
        const store = STORES[i % STORES.length] as (typeof STORES)[number];
        const ids = productsOf.get(store.tenant) ?? [];
        const id = ids[(i * 7) % ids.length] as string;
        const word = store.words[i % store.words.length] as string;
        if (i % 8 === 0) await call('GET', store.tenant, '/');
        await call('GET', store.tenant, `${B}/public/ecommerce/product?pageSize=24&page=${(i % 3) + 1}`);
        await call('GET', store.tenant, `${B}/public/ecommerce/getproductdetails?productId=${id}`);
        await call('GET', store.tenant, `${B}/public/ecommerce/product/search?searchText=${word}`);
        await call('GET', store.tenant, `${B}/public/ecommerce/product/autocomplete?q=${word.slice(0, 3)}`);
        const add = await call('POST', store.tenant, `${B}/public/ecommerce/product/addToCart`, {
          productId: id,
          quantity: 1 + ((i >> 1) % 3),
        });
        if (i % 3 === 0 && add.cookie) {
          const key = `load-${client}-${i}`;
          const sends = i % 4 === 0 ? 2 : 1;
          for (let k = 0; k < sends; k++) {
            checkouts++;
            const res = await call('POST', store.tenant, `${B}/ecommerce/checkout/processorder`, order, {
              cookie: add.cookie,
              'idempotency-key': key,
            });
            if (res.status === 200) {
              const set = ordersByKey.get(key) ?? new Set<string>();
              set.add(JSON.parse(res.body).data.orderId);
              ordersByKey.set(key, set);
            }
          }
        }
      }
    }),
  );
  agent.destroy();
  const rssEnd = rssKb(pid);
  server.child.kill('SIGTERM');
  const exit = await server.exited;

  // The books, read from the database once the server has stopped.
  const database = await openDatabase({ dataDir });
  const o = schema.orders;
  const rows = await database.db
    .select({ tenantId: o.tenantId, orderId: o.orderId, status: o.status, key: o.idempotencyKey, ref: o.paymentRef })
    .from(o)
    .where(eq(o.email, EMAIL));
  const lines = rows.length
    ? await database.db
        .select()
        .from(schema.orderLines)
        .where(
          inArray(
            schema.orderLines.orderId,
            rows.map((r) => r.orderId),
          ),
        )
    : [];
  const onOrders = new Map<string, number>();
  for (const l of lines) {
    const r = rows.find((x) => x.orderId === l.orderId && x.tenantId === l.tenantId);
    if (r && r.status !== 'cancelled') {
      const k = `${l.tenantId}/${l.productId}`;
      onOrders.set(k, (onOrders.get(k) ?? 0) + l.quantity);
    }
  }
  const p = schema.products;
  let taken = 0;
  let units = 0;
  const unbalanced: string[] = [];
  for (const s of STORES) {
    const stock = await database.db
      .select({ productId: p.productId, q: p.stockQuantity })
      .from(p)
      .where(and(eq(p.tenantId, s.tenant), ne(p.productType, 'CONFIGURABLE'), eq(p.variantCount, 1)));
    for (const r of stock) {
      const k = `${s.tenant}/${r.productId}`;
      const t = STOCK - r.q;
      const u = onOrders.get(k) ?? 0;
      taken += t;
      units += u;
      if (t !== u) unbalanced.push(`${k}: taken ${t}, on orders ${u}`);
    }
  }
  await database.close();

  const keysInDb = new Set(rows.map((r) => r.key));
  const duplicateKeys = rows.length - keysInDb.size;
  const splitKeys = [...ordersByKey.values()].filter((s) => s.size > 1).length;
  const acked = [...ordersByKey.values()].reduce((a, s) => a + s.size, 0);
  const missing = [...ordersByKey.entries()].filter(
    ([key, ids]) => !rows.some((r) => r.key === key && ids.has(r.orderId) && r.status === 'paid' && r.ref),
  ).length;
  const byStatus: Record<string, number> = {};
  for (const r of rows) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
  const errorRate = requests ? errors / requests : 0;

  console.log('[mixed load] answers by kind:');
  console.table(Object.fromEntries([...counts.entries()].sort()));
  if (errorSamples.length) console.log(`[mixed load] first errors:\n  ${errorSamples.join('\n  ')}`);
  const checks = {
    [`error rate ${(errorRate * 100).toFixed(3)}% < ${MAX_ERROR_RATE * 100}%`]: errorRate < MAX_ERROR_RATE,
    [`stock taken ${taken} = units on orders ${units}`]: unbalanced.length === 0 && taken === units,
    [`one order per key (${duplicateKeys} duplicate keys in the database, ${splitKeys} keys answered with two orders)`]:
      duplicateKeys === 0 && splitKeys === 0,
    [`every acknowledged order (${acked}) is in the database, paid with a reference (${missing} not)`]: missing === 0,
    [`server stopped cleanly (exit ${exit})`]: exit === 0,
  };
  console.log(
    `[mixed load] ${requests} requests in ${SECONDS} s (${Math.round(requests / SECONDS)}/s), ${errors} errors; ` +
      `${checkouts} checkout requests, ${rows.length} orders ${JSON.stringify(byStatus)}; ` +
      `server RSS ${mb(rssStart)} MB at start, ${mb(rssEnd)} MB at the end`,
  );
  for (const [what, ok] of Object.entries(checks)) console.log(`[mixed load] ${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (unbalanced.length) console.log(`[mixed load] unbalanced:\n  ${unbalanced.slice(0, 10).join('\n  ')}`);
  code = Object.values(checks).every(Boolean) ? 0 : 1;
  console.log(`[mixed load] ${code === 0 ? 'PASS' : 'FAIL'}`);
} finally {
  if (server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);
