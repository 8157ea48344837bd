import type { StoreMove } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { TenantContext } from '../../lib/context';
import type { EventBus } from '../../lib/events/index';
import { ok, type Refusal, type Result, refuse } from '../../lib/result';
import { HOME_DATABASE, MAX_WRITE_HOLD_MS, type StoreDatabases } from '../../lib/store-databases';
import { type JobRunner, type JobView, jobProgressView } from '../jobs/index';
import {
  deleteOrder,
  deleteTenantRows,
  ident,
  readTenantTables,
  rowsOf,
  type TenantTable,
} from '../store-archive/index';
import { alignSequences, asReplica, deleteKeys, readKeys, readPage, upsertRows } from './row-copy';

export const MOVE_JOB = 'store-move.run';

/**
 * The platform's own rows of a store (decision 123): the home database reads them before it knows
 * where the store is (its hosts, its state) or keeps them for the platform (the operators' audit
 * log, sign-up). A move copies them to the target only where missing (so the store's own rows there
 * can refer to them), never overwrites, deletes or purges the home database's. The owner's support
 * grants and the sessions under them are not among them: they are read and written where the store
 * lives, next to the accounts they act as, and move with it (a copy kept at home would bring a
 * revoked grant back to life on a move back).
 */
export const PLATFORM_TABLES: ReadonlySet<string> = new Set([
  'tenants',
  'store_hosts',
  'store_lifecycle',
  'store_lifecycle_history',
  'platform_audit_log',
  'signup_requests',
  'operator_store_figures',
  // Written on the home database wherever the store lives: its domains (the proxy's certificate
  // question and tenancy read them before the store is known) and its cancel request (approved in
  // the transaction that moves its state to closing).
  'store_domains',
  'cancel_requests',
]);

/**
 * Rows the home database keeps of a store that moved away: the platform's, and the product stores
 * its host bindings point at (a foreign key); the copy on the store's database is the one it uses.
 */
export const KEPT_AT_HOME: ReadonlySet<string> = new Set([...PLATFORM_TABLES, 'product_stores']);

/** Tables a move leaves where they are, with the reason. */
export const NOT_MOVED: Readonly<Record<string, string>> = {
  store_placements: 'the placement itself, in the home database only',
  store_moves_under_way: "the move's own bookkeeping, in the database the store leaves",
  store_move_changes: "the move's own bookkeeping, in the database the store leaves",
  jobs: 'claimed where they were enqueued: the runner claims from every database',
  auth_attempts: 'sign-in throttling, minutes long (and without a primary key to copy by)',
};

/** The backlog of changed rows small enough to copy with the store's writes held. */
const SMALL_BACKLOG = 200;
const MAX_CATCH_UP_ROUNDS = 20;
/** How long the switch waits for the store's writes in flight to end before giving up this move. */
const DRAIN_MS = 2_000;
const CHANGES_PAGE = 5_000;

export type MoveRefusal = Refusal<
  'TENANT_NOT_FOUND' | 'UNKNOWN_DATABASE' | 'ALREADY_THERE' | 'MOVE_UNDER_WAY' | 'TARGET_NOT_EMPTY'
>;

export interface MoveResult {
  from: string;
  to: string;
  rowsCopied: number;
  changesCaughtUp: number;
  /** How long the store's writes were held at the switch, ms. */
  writeHoldMs: number;
  sourceCleared: boolean;
  /** Why the source kept the store's rows, when it did (the operator clears them by hand). */
  sourceError?: string;
}

export interface StoreMoveDeps {
  stores: StoreDatabases;
  jobs: JobRunner;
  events: EventBus;
  log: FastifyBaseLogger;
  /** How long the source keeps refusing the store's writes after the switch, before it is cleared. */
  sourceGraceMs?: number;
}

export type StoreMoveService = ReturnType<typeof createStoreMove>;

export function createStoreMove(deps: StoreMoveDeps) {
  const { stores } = deps;
  const tablesOf = new Map<string, Promise<TenantTable[]>>();
  const moved = (name: string, db: Db) => {
    let p = tablesOf.get(name);
    if (!p) {
      p = readTenantTables(db).then((all) => all.filter((t) => !(t.name in NOT_MOVED) && t.primaryKey.length > 0));
      p.catch(() => tablesOf.delete(name));
      tablesOf.set(name, p);
    }
    return p;
  };

  /** What a move of the store to `target` would meet, checked before it starts and again when it runs. */
  async function refusal(tenantId: string, target: string): Promise<MoveRefusal | null> {
    const [tenant] = await rowsOf<{ one: number }>(
      stores.home.db,
      sql`SELECT 1 AS one FROM tenants WHERE tenant_id = ${tenantId}`,
    );
    if (!tenant) return refuse(404, 'TENANT_NOT_FOUND', `There is no store ${tenantId.slice(0, 64)}.`);
    const to = stores.get(target);
    if (!to) {
      return refuse(
        422,
        'UNKNOWN_DATABASE',
        `There is no store database named ${target.slice(0, 32)}; the names are ${stores.names().join(', ')}.`,
      );
    }
    const from = stores.placementOf(tenantId);
    if (from === target) return refuse(409, 'ALREADY_THERE', `The store is already on ${target}.`);
    if (to.kind !== 'postgres') {
      // The embedded database is one process's own: no other process could follow the store there.
      return refuse(
        422,
        'UNKNOWN_DATABASE',
        `${target} is the embedded database; stores move only between PostgreSQL databases.`,
      );
    }
    const source = stores.get(from);
    if (source?.kind !== 'postgres') {
      return refuse(422, 'UNKNOWN_DATABASE', `The store's database ${from} is not one this process can move from.`);
    }
    const [busy] = await rowsOf<{ tenant_id: string }>(
      source.db,
      sql`SELECT tenant_id FROM store_moves_under_way LIMIT 1`,
    );
    if (busy) {
      return refuse(
        409,
        'MOVE_UNDER_WAY',
        `Store ${busy.tenant_id} is moving off ${from}; one store moves off a database at a time.`,
      );
    }
    for (const t of await moved(target, to.db)) {
      if (PLATFORM_TABLES.has(t.name)) continue;
      const [r] = await rowsOf<{ one: number }>(
        to.db,
        sql`SELECT 1 AS one FROM ${ident(t.name)} WHERE tenant_id = ${tenantId} LIMIT 1`,
      );
      if (r) {
        return refuse(
          409,
          'TARGET_NOT_EMPTY',
          `${target} already holds rows of this store (${t.name}); they must be cleared first.`,
        );
      }
    }
    return null;
  }

  async function run(tenantId: string, target: string, progress: (done: number, total: number) => Promise<void>) {
    const refused = await refusal(tenantId, target);
    if (refused) throw new Error(refused.message);
    const from = stores.placementOf(tenantId);
    const source = stores.get(from) as NonNullable<ReturnType<StoreDatabases['get']>>;
    const dest = stores.get(target) as NonNullable<ReturnType<StoreDatabases['get']>>;
    const tables = await moved(from, source.db);
    const byName = new Map(tables.map((t) => [t.name, t]));
    // The home database's platform rows are the truth: copied only where missing, never overwritten.
    const keepTargets = (t: TenantTable) => PLATFORM_TABLES.has(t.name) && target === HOME_DATABASE;
    const log = deps.log.child({ tenantId, from, to: target });

    // 1. Capture: from here on, every change of the store's rows on the source leaves its key.
    await source.db.execute(
      sql`INSERT INTO store_moves_under_way (tenant_id, phase, target) VALUES (${tenantId}, 'copying', ${target})`,
    );
    let switched = false;
    try {
      for (const t of tables) {
        // One table at a time: creating a trigger waits for that table's writers, briefly.
        await source.db.execute(sql`DROP TRIGGER IF EXISTS store_move_capture ON ${ident(t.name)}`);
        await source.db.execute(
          sql`CREATE TRIGGER store_move_capture AFTER INSERT OR UPDATE OR DELETE ON ${ident(t.name)}
              FOR EACH ROW EXECUTE FUNCTION store_move_capture(${sql.raw(t.primaryKey.map((c) => `'${c}'`).join(', '))})`,
        );
      }

      // 2. Copy every table by key order, a page at a time.
      let rowsCopied = 0;
      for (const [i, t] of tables.entries()) {
        let after: string | null = null;
        for (;;) {
          const page = await readPage(source.db, t, tenantId, after);
          if (page.count === 0) break;
          await asReplica(dest.db, (tx) => upsertRows(tx, t, page.json, keepTargets(t) || PLATFORM_TABLES.has(t.name)));
          rowsCopied += page.count;
          after = page.last;
          if (page.count < 500) break;
        }
        await progress(i + 1, tables.length + 2);
      }

      // 3. Catch up with the changes made meanwhile until what is left is small.
      let changesCaughtUp = 0;
      const catchUp = async (): Promise<number> => {
        let total = 0;
        for (;;) {
          // Taken off the list as they are read, not read past an id: ids are handed out when a row is
          // written but become visible when its transaction commits, so a smaller id can appear after a
          // larger one was read. A failure later fails the move, which clears the list anyway.
          const changes = await rowsOf<{ table_name: string; key: string }>(
            source.db,
            sql`DELETE FROM store_move_changes WHERE tenant_id = ${tenantId} AND id IN (
                  SELECT id FROM store_move_changes WHERE tenant_id = ${tenantId} ORDER BY id LIMIT ${CHANGES_PAGE})
                RETURNING table_name, key::text AS key`,
          );
          if (changes.length === 0) return total;
          const keys = new Map<string, Set<string>>();
          for (const c of changes) {
            const set = keys.get(c.table_name) ?? new Set<string>();
            keys.set(c.table_name, set);
            set.add(c.key);
          }
          for (const [name, set] of keys) {
            const t = byName.get(name);
            if (!t) continue;
            const list = `[${[...set].join(',')}]`;
            const rows = await readKeys(source.db, t, list);
            const platform = PLATFORM_TABLES.has(t.name);
            await asReplica(dest.db, async (tx) => {
              if (!platform) await deleteKeys(tx, t, list);
              await upsertRows(tx, t, rows, platform);
            });
          }
          total += changes.length;
          changesCaughtUp += changes.length;
          if (changes.length < CHANGES_PAGE) return total;
        }
      };
      for (let round = 0; round < MAX_CATCH_UP_ROUNDS; round++) {
        if ((await catchUp()) < SMALL_BACKLOG) break;
      }
      await progress(tables.length + 1, tables.length + 2);

      // 4. Hold the store's writes: new ones wait in this process, the source refuses any other.
      const heldAt = performance.now();
      const { drained } = await stores.holdWrites(tenantId, DRAIN_MS);
      let writeHoldMs = 0;
      try {
        if (!drained) throw new Error(`the store's writes in flight did not end within ${DRAIN_MS} ms`);
        await source.db.execute(
          sql`UPDATE store_moves_under_way SET phase = 'switching' WHERE tenant_id = ${tenantId}`,
        );
        // 5. The last changes, the sequences, then the switch.
        while ((await catchUp()) > 0) {}
        await alignSequences(source.db, dest.db, tables);
        await stores.home.db
          .insert(schema.storePlacements)
          .values({ tenantId, database: target })
          .onConflictDoUpdate({
            target: schema.storePlacements.tenantId,
            set: { database: target, movedAt: sql`now()` },
          });
        stores.place(tenantId, target);
        switched = true;
      } catch (e) {
        // The writes released below go to the source again: it must take them.
        await source.db
          .execute(sql`UPDATE store_moves_under_way SET phase = 'copying' WHERE tenant_id = ${tenantId}`)
          .catch(() => {});
        throw e;
      } finally {
        writeHoldMs = Math.round(performance.now() - heldAt);
        stores.releaseWrites(tenantId);
      }
      log.info({ rowsCopied, changesCaughtUp, writeHoldMs }, 'store moved');
      deps.events.emit('store.moved', { tenantId, database: target });
      if (writeHoldMs > MAX_WRITE_HOLD_MS) log.warn({ writeHoldMs }, "the store's writes were held past the bound");

      // 6. The source keeps refusing the store's writes for a grace period (another process may not
      // have heard of the switch yet), then forgets the store.
      if (deps.sourceGraceMs) await new Promise((r) => setTimeout(r, deps.sourceGraceMs));
      let sourceCleared = true;
      let sourceError: string | undefined;
      try {
        await clearSource(source.db, tenantId, tables, from === HOME_DATABASE);
      } catch (e) {
        sourceCleared = false;
        sourceError = ((e as { cause?: Error }).cause ?? (e as Error)).message.slice(0, 500);
        log.error({ err: e }, "the store's rows could not be cleared from the database it left");
      }
      await progress(tables.length + 2, tables.length + 2);
      return {
        from,
        to: target,
        rowsCopied,
        changesCaughtUp,
        writeHoldMs,
        sourceCleared,
        sourceError,
      } satisfies MoveResult;
    } catch (e) {
      if (switched) throw e;
      // Before the switch the store never left: it stays on the source, and the target forgets it.
      await stopCapture(source.db, tenantId, tables).catch((c) => log.error({ err: c }, 'capture not stopped'));
      await asReplica(dest.db, async (tx) => {
        for (const t of [...tables].reverse()) {
          if (keepTargets(t)) continue;
          await tx.execute(sql`DELETE FROM ${ident(t.name)} WHERE tenant_id = ${tenantId}`);
        }
      }).catch((c) => log.error({ err: c }, 'the target was not cleaned'));
      // What the operator reads: the database's own reason, not the statement (a page of SQL).
      const cause = (e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message;
      throw new Error(`The store stayed on ${from}: ${cause}`.slice(0, 500));
    }
  }

  deps.jobs.register<{ target: string }>(
    MOVE_JOB,
    async (job, tools) => run(job.tenantId, job.payload.target, (done, total) => tools.progress({ done, total })),
    { maxAttempts: 1 },
  );

  const view = (j: JobView, target?: string): StoreMove => {
    const { result, ...progress } = jobProgressView<MoveResult>(j);
    return {
      ...progress,
      database: result?.to ?? target ?? null,
      writeHoldMs: result?.writeHoldMs ?? null,
      sourceCleared: result?.sourceCleared ?? null,
      error:
        j.status === 'failed'
          ? (j.error ?? 'The move failed; the store stayed where it was.')
          : result?.sourceError
            ? `Moved, but its rows stayed on ${result.from}: ${result.sourceError}`
            : null,
    };
  };

  return {
    refusal,
    async exists(tenantId: string): Promise<boolean> {
      const [r] = await rowsOf<{ one: number }>(
        stores.home.db,
        sql`SELECT 1 AS one FROM tenants WHERE tenant_id = ${tenantId}`,
      );
      return !!r;
    },
    /** Starts moving the store to the named database (a job), or answers the move already under way. */
    async start(ctx: TenantContext, target: string): Promise<Result<StoreMove, MoveRefusal>> {
      const refused = await refusal(ctx.tenantId, target);
      if (refused) return refused;
      const job = await deps.jobs.enqueue(ctx, { type: MOVE_JOB, payload: { target }, key: 'move' });
      return ok(view(job, target));
    },
    async latest(ctx: TenantContext): Promise<StoreMove | null> {
      const job = await deps.jobs.latest(ctx, MOVE_JOB);
      return job ? view(job) : null;
    },
    /** Where the store is, and the databases it could go to. */
    placement: (tenantId: string) => ({ database: stores.placementOf(tenantId), databases: stores.names() }),
  };
}

/** Detaches the capture and forgets the store's move on the source (the triggers go when no move is left). */
async function stopCapture(source: Db, tenantId: string, tables: readonly TenantTable[]) {
  await source.execute(sql`DELETE FROM store_moves_under_way WHERE tenant_id = ${tenantId}`);
  await source.execute(sql`DELETE FROM store_move_changes WHERE tenant_id = ${tenantId}`);
  const [other] = await rowsOf<{ one: number }>(source, sql`SELECT 1 AS one FROM store_moves_under_way LIMIT 1`);
  if (other) return;
  for (const t of tables) await source.execute(sql`DROP TRIGGER IF EXISTS store_move_capture ON ${ident(t.name)}`);
}

/**
 * The store's rows leave the database it moved off, by the purge's own delete (decision 122), once
 * the capture is detached. The home database keeps the platform's rows.
 */
async function clearSource(source: Db, tenantId: string, tables: TenantTable[], home: boolean) {
  // The capture stays until the rows are gone: while it stands, the source refuses the store's
  // writes (all but the purge's own delete), so no late write lands where nobody will read it.
  const keep = new Set<string>([...Object.keys(NOT_MOVED), ...(home ? KEPT_AT_HOME : [])]);
  await source.transaction(async (tx) => {
    await deleteTenantRows(tx, tenantId, deleteOrder(tables, keep));
  });
  await stopCapture(source, tenantId, tables);
}
