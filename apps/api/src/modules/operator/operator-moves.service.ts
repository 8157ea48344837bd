import type { PlatformDatabase, PlatformDatabases } from '@app/contracts';
import { schema } from '@app/db';
import { eq, isNull, ne, or, sql } from 'drizzle-orm';
import { HOME_DATABASE, type StoreDatabases } from '../../lib/store-databases';

const placements = schema.storePlacements;
const lifecycle = schema.storeLifecycle;

/**
 * The operator's view of the deployment's databases (decision 123): which there are and how many
 * stores each holds, so the operator can see where room is before moving a store. Placements and
 * stores are platform rows, read from the home database whatever store a caller serves.
 */
export function createOperatorMoves(deps: { stores: StoreDatabases }) {
  const { stores } = deps;
  return {
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
  };
}

export type OperatorMoves = ReturnType<typeof createOperatorMoves>;
