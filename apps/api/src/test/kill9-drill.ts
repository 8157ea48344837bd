import { type Database, schema } from '@app/db';
import { and, asc, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { guestCardOrder } from './guest-order';
import { freePort, type HttpAnswer, http, type Proc, spawnNode, waitReady } from './processes';
import { setTestStock } from './stock';

/**
 * The kill -9 drill, shared by its PGlite and PostgreSQL variants: N guest checkouts, each
 * with its own Idempotency-Key, over a few products of two stores; SIGKILL at a seeded random moment
 * while they run; restart on the same data; then the books. It prints the seed, what it checked and
 * the result. Run it again with KILL9_SEED=<seed> to replay a kill moment.
 */

const B = '/skulocity/api/v1';
const STORES = ['lighting', 'garden'] as const;
const EMAIL = 'kill9@example.com';
const N = 12;
const STOCK = 100;

const order = guestCardOrder(EMAIL);

/** mulberry32: small, seeded, good enough to pick a moment and a product. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Attempt {
  tenant: string;
  host: string;
  productId: string;
  quantity: number;
  cookie: string;
  key: string;
  answer?: HttpAnswer;
  error?: string;
}

export interface Kill9Options {
  label: string;
  /** The server's environment besides PORT: its database. */
  env: Record<string, string>;
  /** Opens the database the server used, in this process, once the server is gone. */
  openDb: () => Promise<Database>;
}

/**
 * On PostgreSQL the killed server's sessions outlive it: each backend still runs what had reached
 * its socket (a COMMIT included) before it sees the connection gone. The books are read once they
 * have all ended, or an order committed after the reading would be missing from it, yet be found
 * (still placed) by the retries. PGlite has nothing to wait for: its data died with the process.
 */
async function settleKilledSessions(opts: Kill9Options, killedWall: number, log: (msg: string) => void) {
  const database = await opts.openDb();
  try {
    if (database.kind !== 'postgres') return;
    const t0 = Date.now();
    const deadline = t0 + 30_000;
    let first: number | undefined;
    for (;;) {
      // Sessions opened before the kill are the killed server's; this reading's own came after.
      const result = await database.db.execute(
        sql`SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE backend_type = 'client backend' AND backend_start < to_timestamp(${killedWall / 1000})`,
      );
      const n = (result as unknown as { rows: { n: number }[] }).rows[0]?.n;
      first ??= n;
      if (n === 0) {
        log(`${first} sessions of the killed server were still open; all ended after ${Date.now() - t0} ms`);
        return;
      }
      if (Date.now() > deadline) throw new Error(`${n} sessions of the killed server still open after 30 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await database.close();
  }
}

export async function kill9Drill(opts: Kill9Options) {
  const seed = Number(process.env.KILL9_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const rnd = seeded(seed);
  const log = (msg: string) => console.log(`[kill -9 drill, ${opts.label}] ${msg}`);
  log(`seed ${seed} (replay with KILL9_SEED=${seed})`);
  // The database is migrated and seeded here first, so the drill knows the stock it starts from:
  // two products of each of two stores get STOCK units.
  const stockBefore = new Map<string, number>();
  const picks: { tenant: string; host: string; productId: string }[] = [];
  {
    const database = await opts.openDb();
    try {
      await database.migrate();
      const { seedDatabase } = await import('@app/db/seed');
      await seedDatabase(database.db);
      const p = schema.products;
      for (const tenant of STORES) {
        const rows = await database.db
          .select({ productId: p.productId })
          .from(p)
          .where(and(eq(p.tenantId, tenant), ne(p.productType, 'CONFIGURABLE'), gt(p.stockQuantity, 0)))
          .orderBy(asc(p.productId))
          .limit(2);
        for (const r of rows) {
          await setTestStock(database.db, STOCK, { tenantId: tenant, productId: r.productId });
          picks.push({ tenant, host: `${tenant}.localhost`, productId: r.productId });
          stockBefore.set(`${tenant}/${r.productId}`, STOCK);
        }
      }
    } finally {
      await database.close();
    }
  }
  expect(picks.length, 'products to sell').toBe(4);

  const port = await freePort();
  let server: Proc = spawnNode({ PORT: String(port), ...opts.env });
  const servers: Proc[] = [server];
  try {
    await waitReady(port, server);

    const attempts: Attempt[] = [];
    for (let i = 0; i < N; i++) {
      const pick = picks[Math.floor(rnd() * picks.length)] ?? (picks[0] as (typeof picks)[number]);
      const quantity = 1 + Math.floor(rnd() * 2);
      const res = await http(port, {
        method: 'POST',
        path: `${B}/public/ecommerce/product/addToCart`,
        host: pick.host,
        body: { productId: pick.productId, quantity },
      });
      expect(res.status, res.body).toBe(200);
      const cookie = String([res.headers['set-cookie']].flat()[0]).split(';')[0] as string;
      attempts.push({ ...pick, quantity, cookie, key: `kill9-${seed}-${i}` });
    }

    // The checkouts go out 8 ms apart; the kill comes after a random number of them have been
    // answered (1 to N/2), plus a random 0-15 ms: in the middle of the run, never before or after it.
    const killAfter = 1 + Math.floor(rnd() * (N / 2));
    const jitter = Math.floor(rnd() * 16);
    let answered = 0;
    let onAnswer = () => {};
    const enough = new Promise<void>((resolve) => {
      onAnswer = () => {
        if (++answered === killAfter) resolve();
      };
    });
    const checkout = (a: Attempt) =>
      http(port, {
        method: 'POST',
        path: `${B}/ecommerce/checkout/processorder`,
        host: a.host,
        headers: { cookie: a.cookie, 'idempotency-key': a.key },
        body: order,
      });
    const sent = attempts.map(async (a, i) => {
      await new Promise((r) => setTimeout(r, i * 8));
      try {
        a.answer = await checkout(a);
        onAnswer();
      } catch (err) {
        a.error = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      }
    });
    const t0 = Date.now();
    await Promise.race([enough, Promise.all(sent)]);
    await new Promise((r) => setTimeout(r, jitter));
    server.child.kill('SIGKILL');
    const killedAt = Date.now() - t0;
    const killedWall = Date.now();
    await Promise.all(sent);
    await server.exited;
    await settleKilledSessions(opts, killedWall, log);

    const acked = attempts.filter((a) => a.answer?.status === 200);
    const ackedIds = new Map(acked.map((a) => [a.key, JSON.parse(a.answer?.body ?? '{}').data.orderId as string]));
    log(
      `${N} checkouts, SIGKILL ${killedAt} ms in (after ${killAfter} answers + ${jitter} ms): ` +
        `${acked.length} answered 200, ${attempts.filter((a) => a.answer && a.answer.status !== 200).length} answered otherwise, ` +
        `${attempts.filter((a) => a.error).length} cut off (${[...new Set(attempts.map((a) => a.error).filter(Boolean))].join(', ') || '-'})`,
    );
    for (const a of attempts) {
      if (a.answer && a.answer.status !== 200)
        throw new Error(`checkout answered ${a.answer.status}: ${a.answer.body}`);
    }

    const books = async (when: string) => {
      const database = await opts.openDb();
      try {
        // One snapshot for the whole reading. A statement the killed server sent keeps running in
        // PostgreSQL until it ends (a reservation commits after the kill): read apart, an order
        // committed between the orders' read and the stock's would count as stock taken by no order.
        return await database.db.transaction(
          async (db) => {
            const o = schema.orders;
            const rows = await db
              .select({
                tenantId: o.tenantId,
                orderId: o.orderId,
                status: o.status,
                paymentRef: o.paymentRef,
                key: o.idempotencyKey,
              })
              .from(o)
              .where(eq(o.email, EMAIL));
            const lines = rows.length
              ? await db
                  .select()
                  .from(schema.orderLines)
                  .where(
                    inArray(
                      schema.orderLines.orderId,
                      rows.map((r) => r.orderId),
                    ),
                  )
              : [];
            const byStatus: Record<string, number> = {};
            for (const r of rows) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;

            // Every checkout answered 200 exists and is paid, with its payment reference.
            for (const [key, orderId] of ackedIds) {
              const row = rows.find((r) => r.key === key);
              expect(row?.orderId, `acknowledged ${key}`).toBe(orderId);
              expect(row?.status, `acknowledged ${key}`).toBe('paid');
              expect(row?.paymentRef, `acknowledged ${key}`).toBeTruthy();
            }
            // No order paid without its payment reference; none in a state a crash should not leave.
            for (const r of rows) {
              expect(['placed', 'paid', 'cancelled'], JSON.stringify(r)).toContain(r.status);
              if (r.status === 'paid') expect(r.paymentRef, JSON.stringify(r)).toBeTruthy();
            }
            // Stock taken = units on paid orders + units held by orders still placed.
            const held = new Map<string, number>();
            for (const l of lines) {
              const r = rows.find((x) => x.orderId === l.orderId && x.tenantId === l.tenantId);
              if (r && (r.status === 'paid' || r.status === 'placed')) {
                const k = `${l.tenantId}/${l.productId}`;
                held.set(k, (held.get(k) ?? 0) + l.quantity);
              }
            }
            const p = schema.products;
            const stock: Record<string, { taken: number; onOrders: number }> = {};
            for (const [k, before] of stockBefore) {
              const [tenantId, productId] = k.split('/') as [string, string];
              const [now] = await db
                .select({ q: p.stockQuantity })
                .from(p)
                .where(and(eq(p.tenantId, tenantId), eq(p.productId, productId)));
              stock[k] = { taken: before - (now?.q ?? 0), onOrders: held.get(k) ?? 0 };
            }
            const balanced = Object.values(stock).every((s) => s.taken === s.onOrders);
            log(
              `${when}: orders ${JSON.stringify(byStatus)}; acknowledged ${ackedIds.size} all paid with a reference; ` +
                `stock taken vs units on paid+placed orders ${JSON.stringify(stock)} -> ${balanced ? 'balanced' : 'NOT BALANCED'}`,
            );
            expect(balanced, JSON.stringify(stock)).toBe(true);
            return rows;
          },
          { isolationLevel: 'repeatable read', accessMode: 'read only' },
        );
      } finally {
        await database.close();
      }
    };

    const afterKill = await books('after the kill');

    // The restart on the same data must succeed (for PGlite: the directory opens again).
    const restartT0 = Date.now();
    server = spawnNode({ PORT: String(port), ...opts.env });
    servers.push(server);
    await waitReady(port, server);
    log(`restarted on the same data in ${Date.now() - restartT0} ms`);

    // Every request again, with its same key: the acknowledged get their same paid order; the others
    // get a paid order or a 409 with Retry-After while in doubt, never a success for an unpaid order.
    const retries = await Promise.all(attempts.map((a) => checkout(a)));
    const tally: Record<string, number> = {};
    const retriedIds = new Map<string, string>();
    for (const [i, a] of attempts.entries()) {
      const res = retries[i] as HttpAnswer;
      const body = JSON.parse(res.body);
      const wasAcked = ackedIds.get(a.key);
      const kind = `${wasAcked ? 'acknowledged' : 'not acknowledged'} ${res.status}`;
      tally[kind] = (tally[kind] ?? 0) + 1;
      if (wasAcked) {
        expect(res.status, res.body).toBe(200);
        expect(body.data.orderId).toBe(wasAcked);
        expect(body.data.status).toBe('paid');
      } else if (res.status === 200) {
        expect(body.data.status, res.body).toBe('paid');
        retriedIds.set(a.key, body.data.orderId);
      } else {
        expect(res.status, res.body).toBe(409);
        expect(Number(res.headers['retry-after']), res.body).toBeGreaterThan(0);
        // A 409 only for an order that really is in doubt (still placed).
        const row = afterKill.find((r) => r.key === a.key);
        expect(row?.status, res.body).toBe('placed');
      }
    }
    log(`retried all ${N} with their keys: ${JSON.stringify(tally)}`);

    server.child.kill('SIGTERM');
    expect(await server.exited, server.output()).toBe(0);
    for (const [k, v] of retriedIds) ackedIds.set(k, v);
    await books('after the retries');
    log('PASS');
  } finally {
    for (const s of servers) {
      if (s.child.exitCode === null && s.child.signalCode === null) {
        s.child.kill('SIGKILL');
        await s.exited;
      }
    }
  }
}
