import type { PlatformDatabase, PlatformDatabases, StoreMoveRequest, StoreWhereabouts } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, desc, eq, isNull, ne, or, sql } from 'drizzle-orm';
import { HOME_DATABASE, type StoreDatabases } from '../../lib/store-databases';
import { platformContext } from '../store-archive/index';
import type { StoreMoveService } from '../store-move/index';
import type { OperatorRequest } from './operator-principal';
import type { PlatformAudit } from './platform-audit.service';

const placements = schema.storePlacements;
const lifecycle = schema.storeLifecycle;
const pal = schema.platformAuditLog;

/**
 * The operator's moves of stores between databases (decision 123), as the API and the console use
 * them: which databases there are and how many stores each holds, so the operator can see where
 * room is; where a store is; and the move itself, recorded with the operator's reason. Placements
 * and stores are platform rows, read from the home database whatever store a caller serves.
 */
export function createOperatorMoves(deps: {
  stores: StoreDatabases;
  db: Db;
  audit: PlatformAudit;
  /** The store-move module's service; absent when a test boots without it. */
  readonly move: StoreMoveService | undefined;
}) {
  const { stores } = deps;
  const mover = () => {
    if (!deps.move) throw new Error('The store-move module is not booted.');
    return deps.move;
  };
  /** The database the operator named when starting the move `jobId` (its platform audit entry). */
  const targetOf = async (tenantId: string, jobId: string) => {
    const [entry] = await stores.home.db
      .select({ database: sql<string | null>`${pal.details} ->> 'database'` })
      .from(pal)
      .where(and(eq(pal.tenantId, tenantId), eq(pal.action, 'store.move'), sql`${pal.details} ->> 'jobId' = ${jobId}`))
      .orderBy(desc(pal.createdAt))
      .limit(1);
    return entry?.database ?? null;
  };
  const self = {
    async databases(): Promise<PlatformDatabases> {
      const rows = await stores.home.db
        .select({ placed: placements.database, stores: sql<number>`count(*)::int` })
        .from(schema.tenants)
        .leftJoin(placements, eq(placements.tenantId, schema.tenants.tenantId))
        .leftJoin(lifecycle, eq(lifecycle.tenantId, schema.tenants.tenantId))
        // A purged store's rows are gone wherever it was: it weighs on no database.
        .where(or(isNull(lifecycle.state), ne(lifecycle.state, 'purged')))
        .groupBy(placements.database);
      // No placement row: the home database.
      const counted = new Map<string, number>();
      for (const r of rows) {
        const name = r.placed ?? HOME_DATABASE;
        counted.set(name, (counted.get(name) ?? 0) + Number(r.stores));
      }
      const configured = stores.names();
      const list: PlatformDatabase[] = configured.map((name) => ({
        name,
        home: name === HOME_DATABASE,
        configured: true,
        stores: counted.get(name) ?? 0,
      }));
      // Placed on a database this process was not given: shown, so the operator sees the stores stranded.
      for (const [name, n] of counted) {
        if (!configured.includes(name)) list.push({ name, home: false, configured: false, stores: n });
      }
      return { databases: list };
    },

    /** Null: no such store. */
    async whereabouts(tenantId: string): Promise<StoreWhereabouts | null> {
      const move = mover();
      if (!(await move.exists(tenantId))) return null;
      const [{ databases }, latestMove] = await Promise.all([self.databases(), move.latest(platformContext(tenantId))]);
      // A move under way does not name its target until it is done; the audit entry that started it does.
      if (latestMove && latestMove.database === null) latestMove.database = await targetOf(tenantId, latestMove.jobId);
      return { database: move.placement(tenantId).database, databases, latestMove };
    },

    /**
     * Starts the move (a job) or answers the one under way; a started move is audited with its reason,
     * once: a repeated POST (a double click, a retry) answers the same job and adds no entry.
     */
    async start(req: OperatorRequest, tenantId: string, body: StoreMoveRequest) {
      const started = await mover().start(platformContext(tenantId), body.database);
      if (!started.ok) return started;
      if (await targetOf(tenantId, started.value.jobId)) return started;
      await deps.audit.record(deps.db, req, {
        action: 'store.move',
        tenantId,
        reason: body.reason,
        details: { jobId: started.value.jobId, database: body.database },
      });
      return started;
    },
  };
  return self;
}

export type OperatorMoves = ReturnType<typeof createOperatorMoves>;
