/**
 * How many SQL statements one guest checkout sends to PostgreSQL (`npm run bench:order-statements`,
 * needs BENCH_DATABASE_URL or TEST_DATABASE_URL). A scratch database is seeded, one order is placed
 * to warm the caches, then one more is placed while every statement the app sends is counted (pg's
 * client is wrapped, so statements run by triggers and functions inside the database are not
 * counted; BEGIN and COMMIT are). `-v` prints each statement.
 */
import { type Database, openDatabase } from '@app/db';
import { seedDatabase } from '@app/db/seed';
import pg from 'pg';
import { buildAppWithServices } from '../apps/api/src/app';
import { guestCardOrder, placeGuestOrder, stockedProductId } from '../apps/api/src/test/guest-order';

const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!url) throw new Error('set BENCH_DATABASE_URL or TEST_DATABASE_URL');
const verbose = process.argv.includes('-v');

const seen: string[] = [];
let counting = false;
const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (counting) {
    const q = args[0] as string | { text?: string };
    seen.push((typeof q === 'string' ? q : (q?.text ?? '?')).replace(/\s+/g, ' ').slice(0, 160));
  }
  return original.apply(this, args);
} as typeof pg.Client.prototype.query;

const name = `order_statements_${Date.now()}`;
const admin = new pg.Client({ connectionString: url });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const u = new URL(url);
u.pathname = `/${name}`;
let database: Database | undefined;
try {
  database = await openDatabase({ databaseUrl: u.toString(), poolSize: 4 });
  await database.migrate();
  await seedDatabase(database.db);
  const { app, services } = await buildAppWithServices({
    config: { DATA_DIR: '/tmp', LOG_LEVEL: 'warn', TRUST_PROXY: false, NODE_ENV: 'test', DEV_TENANT_ID: undefined },
    database,
    logger: false,
  });
  try {
    const host = 'lighting.localhost';
    const productId = await stockedProductId(database.db, 'lighting');
    const warm = await placeGuestOrder(app, { host, productId, email: 'warm@example.com' });
    if (warm.statusCode !== 200) throw new Error(`warm-up order: ${warm.statusCode} ${warm.body}`);
    // Only the place-order request is counted, not the add-to-cart before it.
    const added = await app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/public/ecommerce/product/addToCart',
      headers: { host },
      payload: { productId, quantity: 1 },
    });
    const cookie = String([added.headers['set-cookie']].flat()[0]).split(';')[0] as string;
    // The warm-up's receipt is sent before counting starts, so its job's statements are not counted.
    await services.jobs.drain();
    counting = true;
    const res = await app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/ecommerce/checkout/processorder',
      headers: { host, cookie, 'idempotency-key': crypto.randomUUID() },
      payload: guestCardOrder('counted@example.com'),
    });
    // What the request set going (the receipt's mail job) settles in a moment.
    await services.jobs.drain();
    await new Promise((r) => setTimeout(r, 100));
    counting = false;
    if (res.statusCode !== 200) throw new Error(`order: ${res.statusCode} ${res.body}`);
    // The job runner's claims and results (of the receipt's job) run beside the request, which only
    // inserts the job: told apart by their text.
    const byRunner = (s: string) => /^\s*(UPDATE jobs|update "jobs"|SELECT min\(CASE)/i.test(s);
    if (verbose) for (const s of seen) console.log(`${byRunner(s) ? '[job runner] ' : ''}${s}`);
    const runner = seen.filter(byRunner).length;
    console.log(
      `Statements for one guest checkout on PostgreSQL: ${seen.length - runner} by the place-order request, ${runner} by the job runner for the receipt's mail job`,
    );
  } finally {
    await app.close();
  }
} finally {
  await database?.close();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
