import type { Database } from '@app/db';
import { SEED_OPERATOR } from '@app/db/seed';
import { openTestDatabase } from '@app/db/testing';
import { type SQL, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

// What the store-move tests share: an app on two databases of one PostgreSQL server ("main" and an
// empty, migrated "shard2"), an operator's session on it, and ways to read a store's rows wherever
// they are. The move itself is tested in store-move.postgres.test.ts; what a moved store then does,
// in moved-store.postgres.test.ts, which moves its store in its own set-up.

export const PLATFORM = 'platform.localhost';

export const rowsOf = async <T>(db: Database, q: SQL) => ((await db.db.execute(q)) as unknown as { rows: T[] }).rows;
export const count = async (db: Database, q: SQL) => (await rowsOf<{ n: number }>(db, q))[0]?.n ?? -1;

/** The store's rows in every table of the database that holds store rows, by table (non-empty only). */
export async function storeRows(db: Database, tenantId: string, except: readonly string[] = []) {
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

type Headers = Record<string, string>;
type TestAppConfig = NonNullable<Parameters<typeof createTestApp>[0]>['config'];

export interface Placement {
  database: string;
  databases: string[];
  latestMove: { status: string; database: string; writeHoldMs: number; sourceCleared: boolean; error: string | null };
}

export interface MoveWorld {
  t: TestApp;
  /** The second database: migrated, holding no store until one is moved there. */
  shard: Database;
  operator: { cookie: string; 'x-csrf-token': string };
  /** A request to the platform's console, as the signed-in operator unless other headers are given. */
  asOperator(
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
    headers?: Headers | object,
  ): Promise<Awaited<ReturnType<TestApp['app']['inject']>>>;
  /** The console's answer on where the store lives and how its last move went. */
  placement(tenantId: string): Promise<Placement>;
  close(): Promise<void>;
}

export async function openMoveWorld(config: TestAppConfig = {}): Promise<MoveWorld> {
  const shard = await openTestDatabase();
  const t = await createTestApp({ storeDatabases: { shard2: shard }, storeMove: { sourceGraceMs: 0 }, config });
  const res = await t.app.inject({
    method: 'POST',
    url: '/platform-api/session',
    headers: { host: PLATFORM },
    payload: { email: SEED_OPERATOR.email, password: SEED_OPERATOR.password },
  });
  const operator = {
    cookie: String(res.headers['set-cookie']).split(';')[0] as string,
    'x-csrf-token': res.json().data.session.csrfToken,
  };
  const asOperator: MoveWorld['asOperator'] = (method, url, payload, headers = operator) =>
    t.app.inject({ method, url, headers: { host: PLATFORM, ...headers }, ...(payload ? { payload } : {}) });
  return {
    t,
    shard,
    operator,
    asOperator,
    placement: async (tenantId) => (await asOperator('GET', `/platform-api/stores/${tenantId}/placement`)).json().data,
    close: async () => {
      await t.close();
      await shard.close();
    },
  };
}

/** Moves the store to "shard2" through the console, as an operator does, and waits for the move's job. */
export async function moveStore(world: MoveWorld, tenantId: string) {
  const started = await world.asOperator('POST', `/platform-api/stores/${tenantId}/move`, {
    database: 'shard2',
    reason: 'Balancing the databases.',
  });
  expect(started.statusCode, started.body).toBe(200);
  await world.t.services.jobs.drain({ timeoutMs: 120_000, dueWithinMs: 0 });
  expect(await world.placement(tenantId)).toMatchObject({ database: 'shard2', latestMove: { status: 'succeeded' } });
}
