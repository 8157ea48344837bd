/**
 * Order placement under load (part of `npm run bench`): the whole app in this process, listening on
 * loopback, on a seeded PGlite (on disk, as `npm start` runs it) and, when BENCH_DATABASE_URL or
 * TEST_DATABASE_URL is set, on PostgreSQL. Many guests check out one product at once with the test
 * card; the product has fewer units than there are orders, so the last ones must be refused.
 * Afterwards the books are checked: units sold equal stock taken, no order beyond the stock, and
 * every order's totals add up. A benchmark: it prints figures; a broken book stops it with an error.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, openDatabase, schema } from '@app/db';
import { seedDatabase } from '@app/db/seed';
import { and, asc, eq, gt, ne, sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app';
import { systemContext } from '../apps/api/src/lib/context';
// biome-ignore lint/style/noRestrictedImports: the variants' test helper (decision 112) makes the bench's variants as the tests do.
import { givenVariants } from '../apps/api/src/modules/products/variants-test-setup';
import { guestCardOrder } from '../apps/api/src/test/guest-order';
import { setTestStock } from '../apps/api/src/test/stock';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 400);
/**
 * Checkouts of another product before the clock starts, so the figures are a warm server's (its
 * code compiled by V8, its pools and caches filled), as a shop's server is after its first minute.
 * BENCH_WARMUP=0 measures from cold.
 */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 200);
const STOCK = ORDERS - 40;
/**
 * BENCH_VARIANTS=3: the product sold has that many variants (decision 112), the stock split among
 * them and the guests' carts taking them in turn, so every order locks the same product row and a
 * variant's row of its own ("one product, three variants hot"). 1 (the default) sells a product
 * without options, as before variants.
 */
const VARIANTS = Number(process.env.BENCH_VARIANTS ?? 1);
if (!Number.isInteger(VARIANTS) || VARIANTS < 1 || VARIANTS > 10) throw new Error('BENCH_VARIANTS: 1 to 10');
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const PORT = Number(process.env.BENCH_PORT ?? 3293);
const HOST = 'lighting.localhost';
const B = '/skulocity/api/v1';
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
/** BENCH_ONLY=PostgreSQL (a regular expression on the database's name) runs only the rows it matches. */
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : null;
const wanted = (database: string) => !only || only.test(database);

function post(path: string, body: object, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string; cookie: string | undefined }>((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port: PORT,
        path,
        method: 'POST',
        agent,
        headers: {
          host: HOST,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: text,
            cookie: [res.headers['set-cookie']].flat()[0]?.split(';')[0],
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function pool<T>(items: T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await work(item);
      }
    }),
  );
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/**
 * BENCH_CPU_PROF=<dir>: a V8 CPU profile of the checkouts alone (not the seeding and warm-up), one
 * file per database, to open in Chrome's DevTools.
 */
async function startProfile() {
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return null;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop(name: string) {
      const { profile } = await session.post('Profiler.stop');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
      session.disconnect();
    },
  };
}

async function run(label: string, database: Database) {
  await database.migrate();
  await seedDatabase(database.db);
  const dataDir = mkdtempSync(join(tmpdir(), 'sf-order-bench-'));
  const app = await buildApp({
    config: {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      TRUST_PROXY: false,
      NODE_ENV: 'production',
      DEV_TENANT_ID: undefined,
    },
    database,
    logger: false,
  });
  await app.listen({ port: PORT, host: '127.0.0.1' });
  try {
    const p = schema.products;
    /** The first simple product in stock (after `after`, by id), given `stock` units to sell. */
    const stocked = async (stock: number, after = '') => {
      const [row] = await database.db
        .select()
        .from(p)
        .where(
          and(
            eq(p.tenantId, 'lighting'),
            gt(p.productId, after),
            gt(p.stockQuantity, 0),
            ne(p.productType, 'CONFIGURABLE'),
            // A product without options, so the bench's own variants are the only ones.
            eq(p.variantCount, 1),
          ),
        )
        .orderBy(asc(p.productId))
        .limit(1);
      if (!row) throw new Error('no product to sell');
      await setTestStock(database.db, stock, { tenantId: 'lighting', productId: row.productId });
      return row;
    };
    const product = await stocked(STOCK);
    // The variants sold and the units of each: the stock split as evenly as it goes.
    const variants =
      VARIANTS === 1
        ? [{ variantId: product.productId, stock: STOCK }]
        : await (async () => {
            const stocks = Array.from(
              { length: VARIANTS },
              (_, i) => Math.floor(STOCK / VARIANTS) + (i < STOCK % VARIANTS ? 1 : 0),
            );
            const ctx = systemContext(
              {
                tenantId: 'lighting',
                productStoreId: '9000',
                hostName: HOST,
                viaDevAlias: false,
                origin: `http://${HOST}`,
              },
              'order-bench',
            );
            const ids = await givenVariants(
              database.db,
              ctx,
              product.productId,
              'Finish',
              stocks.map((stock, i) => ({ label: `Finish ${i + 1}`, stock })),
            );
            return ids.map((variantId, i) => ({ variantId, stock: stocks[i] as number }));
          })();

    // One guest cart per order, filled before the clock starts; with variants, cart i takes variant i mod n.
    const cartsFor = async (productId: string, n: number, sold: { variantId: string }[] = []) => {
      const carts: string[] = [];
      await pool(
        Array.from({ length: n }, (_, i) => i),
        CONCURRENCY,
        async (i) => {
          const line =
            sold.length > 1 ? { variantId: (sold[i % sold.length] as { variantId: string }).variantId } : { productId };
          const res = await post(`${B}/public/ecommerce/product/addToCart`, { ...line, quantity: 1 });
          if (res.status !== 200 || !res.cookie) throw new Error(`addToCart: ${res.status} ${res.body}`);
          carts.push(res.cookie);
        },
      );
      return carts;
    };

    if (WARMUP > 0) {
      const other = await stocked(WARMUP, product.productId);
      let warm = 0;
      await pool(await cartsFor(other.productId, WARMUP), CONCURRENCY, async (cookie) => {
        const res = await post(`${B}/ecommerce/checkout/processorder`, guestCardOrder(`warmup+${warm++}@example.com`), {
          cookie,
          'idempotency-key': randomUUID(),
        });
        if (res.status !== 200) throw new Error(`warm-up processorder: ${res.status} ${res.body}`);
      });
    }
    const carts = await cartsFor(product.productId, ORDERS, variants);

    const latencies: number[] = [];
    const outcomes = new Map<number, number>();
    const started = performance.now();
    // Each guest their own email, as sixteen shoppers at once would be (one email for all would make
    // every order wait for that one customer's summary lock: a bench artefact, not a shop's day).
    let shopper = 0;
    const profiling = await startProfile();
    await pool(carts, CONCURRENCY, async (cookie) => {
      const t0 = performance.now();
      const res = await post(`${B}/ecommerce/checkout/processorder`, guestCardOrder(`bench+${shopper++}@example.com`), {
        cookie,
        'idempotency-key': randomUUID(),
      });
      latencies.push(performance.now() - t0);
      outcomes.set(res.status, (outcomes.get(res.status) ?? 0) + 1);
      if (res.status !== 200 && res.status !== 409) throw new Error(`processorder: ${res.status} ${res.body}`);
    });
    const seconds = (performance.now() - started) / 1000;
    await profiling?.stop(`orders-${label}`);

    // The books.
    const placed = outcomes.get(200) ?? 0;
    const [after] = await database.db
      .select({ stock: p.stockQuantity })
      .from(p)
      .where(and(eq(p.tenantId, 'lighting'), eq(p.productId, product.productId)));
    const ol = schema.orderLines;
    const o = schema.orders;
    const [sold] = await database.db
      .select({ units: sql<number>`coalesce(sum(${ol.quantity}), 0)::int` })
      .from(ol)
      .innerJoin(o, and(eq(o.tenantId, ol.tenantId), eq(o.orderId, ol.orderId)))
      .where(
        and(
          eq(ol.tenantId, 'lighting'),
          eq(ol.productId, product.productId),
          sql`${o.email} LIKE 'bench+%@example.com'`,
        ),
      );
    const [badTotals] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(o)
      .where(
        sql`${o.tenantId} = 'lighting' AND ${o.email} LIKE 'bench+%@example.com' AND (${o.status} <> 'paid' OR ${o.subtotal} <> (
          SELECT sum(line_total) FROM order_lines l WHERE l.tenant_id = ${o.tenantId} AND l.order_id = ${o.orderId})
          OR ${o.grandTotal} <> ${o.subtotal} - ${o.discount} + ${o.shippingTotal} + ${o.taxTotal})`,
      );
    // Each variant sold out, and its units on orders are the units it had.
    const byVariant = await database.db
      .select({
        variantId: ol.variantId,
        units: sql<number>`sum(${ol.quantity})::int`,
      })
      .from(ol)
      .innerJoin(o, and(eq(o.tenantId, ol.tenantId), eq(o.orderId, ol.orderId)))
      .where(
        and(
          eq(ol.tenantId, 'lighting'),
          eq(ol.productId, product.productId),
          sql`${o.email} LIKE 'bench+%@example.com'`,
        ),
      )
      .groupBy(ol.variantId);
    const pv = schema.productVariants;
    const left = await database.db
      .select({ variantId: pv.variantId, stock: pv.stockQuantity })
      .from(pv)
      .where(and(eq(pv.tenantId, 'lighting'), eq(pv.productId, product.productId)));
    const variantProblems = variants.flatMap((v) => {
      const units = byVariant.find((r) => r.variantId === v.variantId)?.units ?? 0;
      const stock = left.find((r) => r.variantId === v.variantId)?.stock;
      return units !== v.stock || stock !== 0
        ? [`variant ${v.variantId}: ${units} sold of ${v.stock}, ${stock} left`]
        : [];
    });
    const problems = [
      ...variantProblems,
      placed !== STOCK && `${placed} orders placed for ${STOCK} units`,
      after?.stock !== 0 && `stock left ${after?.stock}, expected 0`,
      sold?.units !== STOCK - (after?.stock ?? 0) &&
        `${sold?.units} units on orders, ${STOCK - (after?.stock ?? 0)} taken from stock`,
      (badTotals?.n ?? 0) > 0 && `${badTotals?.n} orders whose totals do not add up`,
      (outcomes.get(409) ?? 0) !== ORDERS - STOCK &&
        `${outcomes.get(409) ?? 0} refused as sold out, expected ${ORDERS - STOCK}`,
    ].filter(Boolean);
    if (problems.length) throw new Error(`${label}: the books do not add up: ${problems.join('; ')}`);

    latencies.sort((a, b) => a - b);
    return {
      database: label,
      requests: ORDERS,
      'orders placed': placed,
      'sold out (409)': outcomes.get(409) ?? 0,
      'orders/s': Math.round(placed / seconds),
      'p50 ms': Math.round(percentile(latencies, 50)),
      'p99 ms': Math.round(percentile(latencies, 99)),
      books: 'add up',
    };
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const rows = [];
if (wanted('PGlite')) {
  const pgliteDir = mkdtempSync(join(tmpdir(), 'sf-order-bench-pglite-'));
  const lite = await openDatabase({ dataDir: pgliteDir });
  try {
    rows.push(await run('PGlite', lite));
  } finally {
    await lite.close();
    rmSync(pgliteDir, { recursive: true, force: true });
  }
}

const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (url && wanted('PostgreSQL')) {
  const name = `bench_orders_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: u.toString(), poolSize: 10 });
  try {
    rows.push(await run('PostgreSQL', database));
  } finally {
    await database.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
} else if (!url) {
  console.log('PostgreSQL row skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL to include it.');
}
console.log(
  `Order placement: ${ORDERS} guest checkouts, ${CONCURRENCY} at a time, ${STOCK} units in stock${VARIANTS > 1 ? ` across ${VARIANTS} variants of one product` : ''}, after ${WARMUP} warm-up checkouts of another product`,
);
console.table(rows);
agent.destroy();
