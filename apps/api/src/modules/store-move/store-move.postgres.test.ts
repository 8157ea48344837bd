import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '@app/db';
import { SEED_OPERATOR } from '@app/db/seed';
import { openSecondHandle, openTestDatabase } from '@app/db/testing';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WRITE_HOLD_MS } from '../../lib/store-databases';
import { startDnsStandIn } from '../../test/dns-stand-in';
import { placeGuestOrder, stockedProduct } from '../../test/guest-order';
import { createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import { setTestStock } from '../../test/stock';
import { type StripeStandIn, startStripeStandIn } from '../../test/stripe-stand-in';
import { signStripePayload } from '../payments/index';
import { platformContext } from '../store-archive/index';

// Moving a store between two databases of one PostgreSQL server while it sells (decision 123): copy,
// catch up, hold the store's writes for a moment, switch, clear the old copy. Nothing is lost.

const PLATFORM = 'platform.localhost';
/** Where a move leaves its own trace: its job and the operator's audit entry. */
const MOVE_RECORDS = ['jobs', 'platform_audit_log'];
const EMAIL = 'mover@example.com';
let t: TestApp;
let shard: Database;
let operator: { cookie: string; 'x-csrf-token': string };
let dns: Awaited<ReturnType<typeof startDnsStandIn>>;
let stripe: StripeStandIn;
const STRIPE_KEY = 'sk_test_movedstore000000001';
const STRIPE_WHSEC = 'whsec_movedstoreendpoint';
const CNAME_TARGET = 'shops.localhost';

const rowsOf = async <T>(db: Database, q: SQL) => ((await db.db.execute(q)) as unknown as { rows: T[] }).rows;
const count = async (db: Database, q: SQL) => (await rowsOf<{ n: number }>(db, q))[0]?.n ?? -1;

const asOperator = (method: 'GET' | 'POST', url: string, payload?: object, headers: object = operator) =>
  t.app.inject({ method, url, headers: { host: PLATFORM, ...headers }, ...(payload ? { payload } : {}) });
const placement = async (tenantId: string) =>
  (await asOperator('GET', `/platform-api/stores/${tenantId}/placement`)).json().data;

/** The store's rows in every table of the database that holds store rows, by table (non-empty only). */
async function storeRows(db: Database, tenantId: string, except: readonly string[] = []) {
  const tables = await rowsOf<{ name: string }>(
    db,
    sql`SELECT c.relname AS name FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id'
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' ORDER BY 1`,
  );
  const out: Record<string, number> = {};
  for (const { name } of tables) {
    if (except.includes(name)) continue;
    const n = await count(
      db,
      sql`SELECT count(*)::int AS n FROM ${sql.raw(`"${name}"`)} WHERE tenant_id = ${tenantId}`,
    );
    if (n > 0) out[name] = n;
  }
  return out;
}

beforeAll(async () => {
  // The second database: migrated, holding no store.
  shard = await openTestDatabase();
  dns = await startDnsStandIn();
  stripe = await startStripeStandIn({
    accounts: [{ secretKey: STRIPE_KEY, webhookSecret: STRIPE_WHSEC }],
    webhooks: false,
  });
  t = await createTestApp({
    storeDatabases: { shard2: shard },
    storeMove: { sourceGraceMs: 0 },
    config: { DNS_RESOLVER: dns.address, DOMAIN_CNAME_TARGET: CNAME_TARGET, STRIPE_BASE_URL: stripe.url },
  });
  const res = await t.app.inject({
    method: 'POST',
    url: '/platform-api/session',
    headers: { host: PLATFORM },
    payload: { email: SEED_OPERATOR.email, password: SEED_OPERATOR.password },
  });
  operator = {
    cookie: String(res.headers['set-cookie']).split(';')[0] as string,
    'x-csrf-token': res.json().data.session.csrfToken,
  };
}, 60_000);
afterAll(async () => {
  await t?.close();
  await shard?.close();
  await dns?.close();
  await stripe?.close();
});

describe('moving a store to another database', () => {
  it('refuses a move it cannot make, with the error envelope', async () => {
    const bad = async (tenantId: string, payload: object, status: number, code: string) => {
      const res = await asOperator('POST', `/platform-api/stores/${tenantId}/move`, payload);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toMatchObject({ error: true, code });
    };
    await bad('garden', { database: 'nowhere', reason: 'Balancing the databases.' }, 422, 'UNKNOWN_DATABASE');
    await bad('garden', { database: 'main', reason: 'Balancing the databases.' }, 409, 'ALREADY_THERE');
    await bad('no-such-store', { database: 'shard2', reason: 'Balancing the databases.' }, 404, 'TENANT_NOT_FOUND');
    await bad('garden', { database: 7, reason: 'Balancing the databases.' }, 400, 'VALIDATION_FAILED');
    // Not an operator: refused before anything is read.
    const visitor = await asOperator(
      'POST',
      '/platform-api/stores/garden/move',
      { database: 'shard2', reason: 'Balancing the databases.' },
      {},
    );
    expect(visitor.statusCode).toBe(401);
    expect(await placement('garden')).toMatchObject({
      database: 'main',
      databases: ['main', 'shard2'],
      latestMove: null,
    });
  });

  it('leaves the store where it was when the move fails, and the target without its rows', async () => {
    const before = await storeRows(t.database, 'garden', MOVE_RECORDS);
    // The target refuses the store's products: the copy fails half-way.
    await shard.db.execute(sql.raw(`ALTER TABLE products ADD CONSTRAINT move_fails CHECK (tenant_id <> 'garden')`));
    try {
      expect(
        (
          await asOperator('POST', '/platform-api/stores/garden/move', {
            database: 'shard2',
            reason: 'Balancing the databases.',
          })
        ).statusCode,
      ).toBe(200);
      await t.services.jobs.drain({ timeoutMs: 60_000, dueWithinMs: 0 });
      const after = await placement('garden');
      expect(after).toMatchObject({ database: 'main', latestMove: { status: 'failed' } });
      expect(after.latestMove.error).toMatch(/^The store stayed on main: .*move_fails/);
    } finally {
      await shard.db.execute(sql.raw('ALTER TABLE products DROP CONSTRAINT move_fails'));
    }
    // Every row of the store is where it was (the move's job and audit entry aside), and it still sells.
    expect(await storeRows(t.database, 'garden', MOVE_RECORDS)).toEqual(before);
    const { productId } = await stockedProduct(t.database.db, 'garden');
    const order = await placeGuestOrder(t.app, { host: SEEDED_HOSTS.garden.host, productId });
    expect(order.statusCode, order.body).toBe(200);
    // The target holds none of its rows.
    expect(
      await storeRows(shard, 'garden', ['tenants', 'store_hosts', 'store_lifecycle', 'store_lifecycle_history']),
    ).toEqual({});
    // The capture is gone from the source.
    expect(
      await count(t.database, sql`SELECT count(*)::int AS n FROM pg_trigger WHERE tgname = 'store_move_capture'`),
    ).toBe(0);
    expect(await count(t.database, sql`SELECT count(*)::int AS n FROM store_moves_under_way`)).toBe(0);
  }, 90_000);

  it('moves a store while orders are placed, and loses none', async () => {
    const T = 'lighting';
    const host = SEEDED_HOSTS.lighting.host;
    const { productId } = await stockedProduct(t.database.db, T);
    await setTestStock(t.database.db, 5_000, { tenantId: T, productId });
    const gardenBefore = await storeRows(t.database, 'garden');
    const powerBefore = await storeRows(t.database, 'power');

    // Two shoppers buy one unit at a time, without pause, for the whole move.
    const acked: string[] = [];
    const refused: string[] = [];
    let running = true;
    const shopper = async () => {
      while (running) {
        const res = await placeGuestOrder(t.app, { host, productId, email: EMAIL });
        if (res.statusCode === 200) acked.push(res.json().data.orderId);
        else refused.push(`${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    };
    const shoppers = [shopper(), shopper()];
    let duringMove = 0;
    let switched = 0;
    let after: { database: string; latestMove: { writeHoldMs: number; sourceCleared: boolean; error: string } };
    try {
      const until = async (n: number) => {
        while (acked.length + refused.length < n) await new Promise((r) => setImmediate(r));
      };
      await until(4);

      const started = await asOperator('POST', `/platform-api/stores/${T}/move`, {
        database: 'shard2',
        reason: 'Balancing the databases.',
      });
      expect(started.statusCode, started.body).toBe(200);
      expect(started.json().data).toMatchObject({ status: 'pending', database: 'shard2' });
      duringMove = acked.length;
      await t.services.jobs.drain({ timeoutMs: 120_000, dueWithinMs: 0 });
      after = await placement(T);
      expect(after.latestMove, JSON.stringify(after)).toMatchObject({ status: 'succeeded', database: 'shard2' });
      expect(after.database).toBe('shard2');
      // Orders kept coming while it moved, and after.
      switched = acked.length;
      await until(switched + refused.length + 4);
    } finally {
      running = false;
      await Promise.all(shoppers);
    }

    expect(refused).toEqual([]);
    expect(switched).toBeGreaterThan(duringMove);
    expect(after.latestMove.writeHoldMs).toBeLessThan(MAX_WRITE_HOLD_MS);
    expect(after.latestMove).toMatchObject({ sourceCleared: true, error: null });

    // Every acknowledged order is in the new database exactly once, paid, with its line and its stock move.
    const orders = await rowsOf<{ order_id: string; status: string; lines: number; moves: number }>(
      shard,
      sql`SELECT o.order_id, o.status,
            (SELECT count(*)::int FROM order_lines l WHERE l.tenant_id = o.tenant_id AND l.order_id = o.order_id) AS lines,
            (SELECT count(*)::int FROM stock_movements m WHERE m.tenant_id = o.tenant_id AND m.order_id = o.order_id
               AND m.reason = 'SOLD') AS moves
          FROM orders o WHERE o.tenant_id = ${T} AND o.email = ${EMAIL}`,
    );
    expect(orders.map((o) => o.order_id).sort()).toEqual([...acked].sort());
    for (const o of orders) expect(o, o.order_id).toMatchObject({ status: 'paid', lines: 1, moves: 1 });

    // The books add up on the new database: stock left + units sold = the stock at the start.
    const [books] = await rowsOf<{ stock: number; sold: number }>(
      shard,
      sql`SELECT (SELECT stock_quantity FROM product_variants WHERE tenant_id = ${T} AND variant_id = ${productId}) AS stock,
                 (SELECT coalesce(sum(l.quantity), 0)::int FROM order_lines l JOIN orders o
                    ON o.tenant_id = l.tenant_id AND o.order_id = l.order_id
                  WHERE o.tenant_id = ${T} AND o.email = ${EMAIL}) AS sold`,
    );
    expect(Number(books?.stock) + Number(books?.sold)).toBe(5_000);
    expect(books?.sold).toBe(acked.length);

    // The store answers from the new database; the old one kept only the platform's rows of it.
    const product = await t.app.inject({
      method: 'GET',
      url: `/skulocity/api/v1/public/ecommerce/getproductdetails?productId=${productId}`,
      headers: { host },
    });
    expect(product.statusCode, product.body).toBe(200);
    const left = await storeRows(t.database, T);
    expect(
      Object.keys(left).filter(
        (n) =>
          ![
            'tenants',
            'store_hosts',
            'store_lifecycle',
            'store_lifecycle_history',
            'platform_audit_log',
            'jobs',
            'product_stores',
            'store_placements',
          ].includes(n),
      ),
    ).toEqual([]);
    // The other stores did not move and did not change.
    expect(await storeRows(t.database, 'garden')).toEqual(gardenBefore);
    expect(await storeRows(t.database, 'power')).toEqual(powerBefore);
    expect(await storeRows(shard, 'power')).toEqual({});
    expect(
      await count(t.database, sql`SELECT count(*)::int AS n FROM pg_trigger WHERE tgname = 'store_move_capture'`),
    ).toBe(0);
  }, 180_000);

  it('sends the receipt of an order placed on the moved store: the job its transaction enqueued runs', async () => {
    // The receipt's mail job is written in the order's transaction, so on the store's new database.
    const email = 'receipt-after-move@example.com';
    const { productId } = await stockedProduct(shard.db, 'lighting');
    const order = await placeGuestOrder(t.app, { host: SEEDED_HOSTS.lighting.host, productId, email });
    expect(order.statusCode, order.body).toBe(200);
    await t.services.jobs.drain({ timeoutMs: 30_000, dueWithinMs: 0 });
    const receipts = await rowsOf<{ status: string; attempts: number }>(
      shard,
      sql`SELECT status, attempts FROM jobs
          WHERE tenant_id = 'lighting' AND type = 'mail.send' AND payload->>'to' = ${email}`,
    );
    expect(receipts).toEqual([{ status: 'succeeded', attempts: 1 }]);
    // The shopper has it: the mail left through the outbox.
    const outbox = join(t.dataDir, 'outbox');
    const sent = readdirSync(outbox).filter((f) => readFileSync(join(outbox, f), 'utf8').includes(email));
    expect(sent).toHaveLength(1);
  }, 60_000);

  it("tells another process of the switch, carries a moved store's events to it, and runs its jobs there", async () => {
    // A second app process on the same two databases, started after the move: it reads the placement.
    const home2 = await openSecondHandle(t.database);
    const shard2 = await openSecondHandle(shard);
    const other = await createTestApp({ database: home2, storeDatabases: { shard2 } });
    try {
      await other.app.ready();
      expect(other.services.stores.placementOf('lighting')).toBe('shard2');
      const heard = new Promise<string>((resolve) =>
        other.services.events.on('settings.changed', (p) => {
          if (p.tenantId === 'lighting') resolve(p.what);
        }),
      );
      // A write of the moved store commits on its database, and its event is sent from there.
      await t.services.stores.within('lighting', () =>
        t.services.events.transaction(async (tx) =>
          t.services.events.emitAfterCommit(tx, 'settings.changed', { tenantId: 'lighting', what: 'moved' }),
        ),
      );
      expect(await heard).toBe('moved');
      // A job of the moved store runs against its new database.
      t.services.jobs.register('store-move-test.orders', async (job) => {
        const res = await t.services.db.execute(
          sql`SELECT count(*)::int AS n FROM orders WHERE tenant_id = ${job.tenantId} AND email = ${EMAIL}`,
        );
        return (res as unknown as { rows: Array<{ n: number }> }).rows[0]?.n;
      });
      const ctx = platformContext('lighting');
      const job = await t.services.jobs.enqueue(ctx, { type: 'store-move-test.orders', payload: {} });
      await t.services.jobs.drain({ timeoutMs: 30_000, dueWithinMs: 0 });
      expect((await t.services.jobs.get(ctx, job.id))?.result).toBe(
        await count(
          shard,
          sql`SELECT count(*)::int AS n FROM orders WHERE tenant_id = 'lighting' AND email = ${EMAIL}`,
        ),
      );
      expect((await t.services.jobs.get(ctx, job.id))?.result).toBeGreaterThan(0);
    } finally {
      await other.close();
      await shard2.close();
    }
  }, 60_000);
  it("holds a moved store's jobs while the operator has it suspended, and runs them once resumed", async () => {
    const ran: string[] = [];
    t.services.jobs.register('store-move-test.held', async (job) => {
      ran.push(job.id);
      return 'ran';
    });
    const ctx = platformContext('lighting');
    const suspended = await asOperator('POST', '/platform-api/stores/lighting/actions/suspend', {
      reason: 'Checking the held jobs.',
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    // Written in the store's transaction, so on its new database, beside the state copy the move took
    // (which still says active: the state is written at home).
    const job = await t.services.stores.within('lighting', () =>
      t.services.events.transaction((tx) =>
        t.services.jobs.enqueue(ctx, { type: 'store-move-test.held', payload: {} }, { tx }),
      ),
    );
    await t.services.jobs.drain({ timeoutMs: 5_000, dueWithinMs: 0 });
    expect(ran).toEqual([]);
    expect((await t.services.jobs.get(ctx, job.id))?.status).toBe('pending');
    const resumed = await asOperator('POST', '/platform-api/stores/lighting/actions/resume', {
      reason: 'Checked.',
    });
    expect(resumed.statusCode, resumed.body).toBe(200);
    await t.services.jobs.drain({ timeoutMs: 30_000, dueWithinMs: 0 });
    expect(ran).toEqual([job.id]);
    expect((await t.services.jobs.get(ctx, job.id))?.status).toBe('succeeded');
  }, 60_000);

  it('answers a write the database refuses mid-switch with 503 STORE_MOVING and Retry-After, and takes it when sent again', async () => {
    // Another process is switching `power` off main: main's capture refuses the store's writes (as
    // the trigger does from the switch until the placement is written), and this process did not hold them.
    const { productId } = await stockedProduct(t.database.db, 'power');
    const addToCart = () =>
      t.app.inject({
        method: 'POST',
        url: '/skulocity/api/v1/public/ecommerce/product/addToCart',
        headers: { host: SEEDED_HOSTS.power.host },
        payload: { productId, quantity: 1 },
      });
    await t.database.db.execute(
      sql`INSERT INTO store_moves_under_way (tenant_id, phase, target) VALUES ('power', 'switching', 'shard2')`,
    );
    await t.database.db.execute(
      sql`CREATE TRIGGER store_move_capture AFTER INSERT OR UPDATE OR DELETE ON carts
          FOR EACH ROW EXECUTE FUNCTION store_move_capture('tenant_id', 'cart_id')`,
    );
    try {
      const refused = await addToCart();
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json()).toMatchObject({ error: true, code: 'STORE_MOVING' });
      expect(refused.json().message).toMatch(/try again/);
    } finally {
      await t.database.db.execute(sql`DROP TRIGGER store_move_capture ON carts`);
      await t.database.db.execute(sql`DELETE FROM store_moves_under_way WHERE tenant_id = 'power'`);
    }
    // Sent again once the switch is over, the same write is taken.
    const again = await addToCart();
    expect(again.statusCode, again.body).toBe(200);
  });

  it("confirms a moved store's Stripe order by Stripe's webhook, and keeps its access mode's entry in its own feed", async () => {
    const host = SEEDED_HOSTS.lighting.host;
    const owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', host);
    const as = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers: object = owner) =>
      t.app.inject({
        method,
        url,
        headers: { host, origin: `http://${host}`, ...headers },
        ...(payload ? { payload } : {}),
      });
    const B = '/skulocity/api/v1';
    expect(
      (await as('PUT', `${B}/admin/stripe`, { secretKey: STRIPE_KEY, webhookSecret: STRIPE_WHSEC })).statusCode,
    ).toBe(200);
    const { productId } = await stockedProduct(shard.db, 'lighting');
    const added = await as('POST', `${B}/public/ecommerce/product/addToCart`, { productId, quantity: 1 }, {});
    const cookie = String([added.headers['set-cookie']].flat()[0]).split(';')[0] as string;
    const started = await t.app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/createStripeSession`,
      headers: { host, cookie, 'idempotency-key': 'moved-stripe-order-1' },
      payload: {
        email: EMAIL,
        shippingMethodId: 'STANDARD',
        shipTo: {
          toName: 'Mo Ved',
          address1: '1 Market Street',
          city: 'San Francisco',
          postalCode: '94105',
          countryGeoId: 'USA',
          stateProvinceGeoId: 'US_CA',
        },
      },
    });
    expect(started.statusCode, started.body).toBe(200);
    const { url, orderId } = started.json().data;
    const sessionId = String(url).split('/').at(-1) as string;
    // The shopper pays and never comes back: Stripe's webhook is the store's only news of it.
    stripe.pay(sessionId);
    const body = JSON.stringify({
      id: 'evt_moved_store_1',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { id: sessionId, object: 'checkout.session' } },
    });
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { host, 'content-type': 'application/json', 'stripe-signature': signStripePayload(body, STRIPE_WHSEC) },
      payload: body,
    });
    expect(hook.statusCode, hook.body).toBe(200);
    expect(hook.json()).toEqual({ eventId: 'evt_moved_store_1', outcome: 'paid' });
    expect(await rowsOf(shard, sql`SELECT status FROM orders WHERE order_id = ${orderId}`)).toEqual([
      { status: 'paid' },
    ]);

    // The owner makes the store private and public again: both in the store's feed, none at home.
    for (const path of ['/api/tenant/add/constraints', '/api/tenant/remove/constraints']) {
      expect((await as('POST', path, { tenantId: 'lighting' })).statusCode).toBe(200);
    }
    const feed = (await as('GET', '/api/v1/audit/fetch?entity=tenant')).json().data.entries;
    expect(feed.length).toBeGreaterThanOrEqual(2);
    expect(await storeRows(t.database, 'lighting')).not.toHaveProperty('audit_log');
  }, 60_000);

  it("binds a moved store's own domain where tenancy reads hosts: the domain serves the store", async () => {
    const host = SEEDED_HOSTS.lighting.host;
    const domain = 'shop.moved-lamps.com';
    const owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', host);
    const asOwner = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({
        method,
        url,
        headers: { host, origin: `http://${host}`, ...owner },
        ...(payload ? { payload } : {}),
      });
    const added = await asOwner('POST', '/api/v1/domains', { domain });
    expect(added.statusCode, added.body).toBe(201);
    dns.zone.txt.set(`_storefront-verify.${domain}`, [added.json().data.records[0].value]);
    dns.zone.cname.set(domain, `${CNAME_TARGET}.`);
    expect((await asOwner('POST', `/api/v1/domains/${domain}/check`)).statusCode).toBe(202);
    await t.services.jobs.drain({ timeoutMs: 30_000, dueWithinMs: 0 });
    const listed = (await asOwner('GET', '/api/v1/domains')).json().data.domains;
    expect(listed).toEqual([expect.objectContaining({ domain, state: 'active' })]);
    // The owner is told, though their account is on the store's database and not at home.
    const outbox = join(t.dataDir, 'outbox');
    const told = readdirSync(outbox)
      .map((f) => readFileSync(join(outbox, f), 'utf8'))
      .filter((m) => m.includes('owner@lighting.test') && m.includes(domain));
    expect(told.length).toBeGreaterThan(0);
    // The domain answers as the store, and the proxy may get it a certificate.
    const tenant = await t.app.inject({
      method: 'GET',
      url: '/api/fetch/tenant?tenantId=lighting',
      headers: { host: domain },
    });
    expect(tenant.statusCode, tenant.body).toBe(200);
    expect(tenant.json().data.productStores[0].hostNames).toContain(domain);
    const ask = await t.app.inject({
      method: 'GET',
      url: `/internal/tls/ask?domain=${domain}`,
      headers: { host: '127.0.0.1' },
    });
    expect(ask.statusCode).toBe(200);
    // No other store can claim it.
    const gardenHost = SEEDED_HOSTS.garden.host;
    const gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', gardenHost);
    const claimed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/domains',
      headers: { host: gardenHost, origin: `http://${gardenHost}`, ...gardenOwner },
      payload: { domain },
    });
    expect(claimed.statusCode, claimed.body).toBe(409);
    // Made primary: the choice is written at home, with the hosts, and into the store's own row where
    // it lives, which its pages, mail and feeds read.
    const primary = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/domains/primary',
      headers: { host, origin: `http://${host}`, ...owner },
      payload: { host: domain },
    });
    expect(primary.statusCode, primary.body).toBe(200);
    const canonical = sql`SELECT canonical_host AS h FROM product_stores WHERE tenant_id = 'lighting'`;
    expect(await rowsOf(t.database, canonical)).toEqual([{ h: domain }]);
    expect(await rowsOf(shard, canonical)).toEqual([{ h: domain }]);
    // A stale copy (as when a disconnect's copy failed after its commit, and its job's retry found the
    // domain already disconnected) is written again from the home row by the daily re-check.
    await shard.db.execute(sql`UPDATE product_stores SET canonical_host = ${host} WHERE tenant_id = 'lighting'`);
    await t.services.jobs.enqueue(platformContext('lighting'), { type: 'domains.recheck', payload: {} });
    await t.services.jobs.drain({ timeoutMs: 30_000, dueWithinMs: 0 });
    expect(await rowsOf(shard, canonical)).toEqual([{ h: domain }]);
    expect(await rowsOf(t.database, canonical)).toEqual([{ h: domain }]);
    // The owner's activity feed, read where the store lives, tells of every step; the home database,
    // which the store left, holds none of its audit entries (a move back home finds it empty).
    const feed = (await asOwner('GET', '/api/v1/audit/fetch?entity=domain')).json().data.entries;
    expect(feed.map((e: { action: string; entityId: string }) => `${e.action} ${e.entityId}`)).toEqual([
      `create ${domain}`,
    ]);
    const hostEntries = (await asOwner('GET', '/api/v1/audit/fetch?entity=store.host')).json().data.entries;
    expect(hostEntries).toHaveLength(1);
    expect(await storeRows(t.database, 'lighting')).not.toHaveProperty('audit_log');
  }, 60_000);

  it("opens a moved store's dashboard to support under its owner's grant: grant, session and account agree", async () => {
    const host = SEEDED_HOSTS.lighting.host;
    const owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', host);
    const granted = await t.app.inject({
      method: 'POST',
      url: '/api/tenant/support-access',
      headers: { host, origin: `http://${host}`, ...owner },
      payload: { hours: 2 },
    });
    expect(granted.statusCode, granted.body).toBe(200);
    // The operator sees the grant and opens a session; the link signs them in on the store's host.
    const ticket = await asOperator('POST', '/platform-api/stores/lighting/support-session', { reason: 'Ticket 7' });
    expect(ticket.statusCode, ticket.body).toBe(200);
    const enter = new URL(ticket.json().data.enterUrl);
    const entered = await t.app.inject({ url: `${enter.pathname}${enter.search}`, headers: { host } });
    expect(entered.statusCode, entered.body).toBe(303);
    const support = String(entered.headers['set-cookie']).split(';')[0] as string;
    const feed = await t.app.inject({ url: '/api/v1/audit/fetch', headers: { host, cookie: support } });
    expect(feed.statusCode, feed.body).toBe(200);
    // Revoked by the owner, the session stops at its next request.
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: '/api/tenant/support-access',
      headers: { host, origin: `http://${host}`, ...owner },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect((await t.app.inject({ url: '/api/v1/audit/fetch', headers: { host, cookie: support } })).statusCode).toBe(
      401,
    );
    // The console's page of the store reads its own rows where it lives: its owner, its counts, the
    // live grant (revoked now) and its audit log.
    const detail = (await asOperator('GET', '/platform-api/stores/lighting')).json().data;
    expect(detail.owner).toMatchObject({ email: 'owner@lighting.test' });
    expect(detail.counts.orders).toBeGreaterThan(0);
    // So does the stores list: the owner's email and the 30-day figures, summed where the store lives.
    await t.services.operatorStores.refreshFigures();
    const listed = (await asOperator('GET', '/platform-api/stores?q=lighting')).json().data.stores;
    expect(listed).toEqual([
      expect.objectContaining({
        tenantId: 'lighting',
        ownerEmail: 'owner@lighting.test',
        orders30d: detail.counts.orders30d,
        sales30d: expect.objectContaining({ amount: detail.counts.sales30d[0]?.amount ?? 0 }),
      }),
    ]);
    expect(detail.counts.orders30d).toBeGreaterThan(0);
    // A search by the owner's email finds it too.
    const byOwner = (await asOperator('GET', '/platform-api/stores?q=owner%40lighting')).json().data.stores;
    expect(byOwner.map((s: { tenantId: string }) => s.tenantId)).toEqual(['lighting']);
    const storeLog = (await asOperator('GET', '/platform-api/stores/lighting/audit?limit=50')).json().data.entries;
    expect(storeLog.map((e: { entity: string; action: string }) => `${e.entity} ${e.action}`)).toEqual(
      expect.arrayContaining(['support_access grant', 'support_access revoke']),
    );
    // The grant and the session are the store's rows, where it lives; the home database has none.
    const home = await storeRows(t.database, 'lighting');
    expect(home).not.toHaveProperty('support_grants');
    expect(home).not.toHaveProperty('support_sessions');
  }, 60_000);

  it("closes a moved store its owner asked to cancel: the request, the approval and the store's state agree", async () => {
    const host = SEEDED_HOSTS.lighting.host;
    const owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', host);
    const asked = await t.app.inject({
      method: 'PATCH',
      url: '/api/tenant/cancel_request/lighting/initiate',
      headers: { host, origin: `http://${host}`, ...owner },
      payload: { cancelRequestReason: 'Moving on.' },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    // The operator sees the request and approves it.
    const approved = await asOperator('POST', '/platform-api/stores/lighting/actions/approve-cancel', {
      reason: 'As the owner asked.',
    });
    expect(approved.statusCode, approved.body).toBe(200);
    // Tenancy reads the store's new state: the shop is closing, and so says every process's read.
    expect((await t.services.storeLifecycle.lifecycle('lighting')).state).toBe('closing');
    const shop = await t.app.inject({
      method: 'GET',
      url: '/skulocity/api/v1/public/ecommerce/getproductdetails?productId=x',
      headers: { host },
    });
    expect(shop.statusCode, shop.body).toBe(410);
    // The owner reads the approved request on the dashboard.
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/tenant/cancel_request/lighting',
      headers: { host, ...owner },
    });
    expect(mine.json().data, mine.body).toMatchObject({ status: 'approved' });
    // The owner's activity feed tells of the request and the store's new state; the home database
    // holds none of the store's audit entries.
    const feed = await t.app.inject({ method: 'GET', url: '/api/v1/audit/fetch', headers: { host, ...owner } });
    const seen = feed.json().data.entries.map((e: { entity: string; action: string }) => `${e.entity} ${e.action}`);
    expect(seen).toEqual(expect.arrayContaining(['cancel_request initiate', 'store_lifecycle closing']));
    expect(await storeRows(t.database, 'lighting')).not.toHaveProperty('audit_log');
    // The approval's mail reached the owner.
    await t.services.jobs.drain({ timeoutMs: 30_000, dueWithinMs: 0 });
    const outbox = join(t.dataDir, 'outbox');
    const mails = readdirSync(outbox).map((f) => readFileSync(join(outbox, f), 'utf8'));
    expect(mails.filter((m) => m.includes('owner@lighting.test') && /was approved/.test(m))).toHaveLength(1);
  }, 60_000);

  it('refuses an archive import into a moved store, and purges a moved store on both databases', async () => {
    // An import would write the store's rows at home, where it does not read them: refused, with the way round.
    const imported = await t.app.inject({
      method: 'POST',
      url: '/platform-api/stores/lighting/archive/import',
      headers: { host: PLATFORM, ...operator, 'content-type': 'application/gzip' },
      payload: Buffer.from('never read'),
    });
    expect(imported.statusCode, imported.body).toBe(409);
    expect(imported.json().message).toContain('Move it back home');
    // Closed (the test above left it closing), past the retention, then purged: nothing of it is left
    // on the database it lives on, nor at home, but the platform's record of what operators did.
    expect(
      (await asOperator('POST', '/platform-api/stores/lighting/actions/close', { reason: 'Closing now.' })).statusCode,
    ).toBe(200);
    await t.database.db.execute(
      sql`UPDATE store_lifecycle SET updated_at = now() - interval '31 days' WHERE tenant_id = 'lighting'`,
    );
    t.services.storeLifecycle.invalidate('lighting');
    const purged = await asOperator('POST', '/platform-api/stores/lighting/actions/purge', {
      reason: 'Retention over.',
    });
    expect(purged.statusCode, purged.body).toBe(200);
    expect(await storeRows(shard, 'lighting', ['platform_audit_log', 'jobs'])).toEqual({});
    expect(await storeRows(t.database, 'lighting', ['platform_audit_log', 'jobs'])).toEqual({});
  }, 60_000);
});
