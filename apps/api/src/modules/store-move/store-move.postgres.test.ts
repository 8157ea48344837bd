import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '@app/db';
import { openSecondHandle } from '@app/db/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WRITE_HOLD_MS } from '../../lib/store-databases';
import { placeGuestOrder, stockedProduct } from '../../test/guest-order';
import { createTestApp, SEEDED_HOSTS, type TestApp } from '../../test/harness';
import { setTestStock } from '../../test/stock';
import { platformContext } from '../store-archive/index';
import { count, type MoveWorld, openMoveWorld, type Placement, rowsOf, storeRows } from './store-move.fixture';

// Moving a store between two databases of one PostgreSQL server while it sells (decision 123): copy,
// catch up, hold the store's writes for a moment, switch, clear the old copy. Nothing is lost. The
// tests run in order: the third moves "lighting", and those after it read the moved store. What a
// moved store's features then do (payments, domains, support, closing) is in moved-store.postgres.test.ts.

/** Where a move leaves its own trace: its job and the operator's audit entry. */
const MOVE_RECORDS = ['jobs', 'platform_audit_log'];
const EMAIL = 'mover@example.com';
let world: MoveWorld;
let t: TestApp;
let shard: Database;
const asOperator: MoveWorld['asOperator'] = (...args) => world.asOperator(...args);
const placement = (tenantId: string) => world.placement(tenantId);

beforeAll(async () => {
  world = await openMoveWorld();
  ({ t, shard } = world);
}, 60_000);
afterAll(async () => {
  await world?.close();
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
    let after: Placement;
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
});
