import { type Db, schema } from '@app/db';
import { asc, eq } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';
import { StoreValues } from '../../lib/store-generations';
import type { MethodRow, ZoneRow } from './rate-table';

const sz = schema.shippingZones;
const sm = schema.shippingMethods;

export type ZoneWithMethods = ZoneRow & { methods: MethodRow[] };

/**
 * A store's zones and methods, which every checkout step prices with. Kept per process and store
 * as checkout kept its tables (decision 070): forgotten on the store's `settings.changed` (the
 * owner's writes emit it; it reaches every process) and when events were missed; the TTL bounds how
 * long a write made behind the app's back (a seed, a SQL fix) goes unseen.
 */
export function createShippingTables(db: Db, opts: { ttlMs?: number; now?: () => number } = {}) {
  // Bounded: a process serving thousands of stores keeps the busiest (StoreValues).
  const kept = new StoreValues<ZoneWithMethods[]>(opts.ttlMs ?? 60_000, 10_000, opts.now);

  async function load(tenantId: string): Promise<ZoneWithMethods[]> {
    const [zones, methods] = await Promise.all([
      db.select().from(sz).where(eq(sz.tenantId, tenantId)).orderBy(asc(sz.sequenceNum), asc(sz.zoneId)),
      db.select().from(sm).where(eq(sm.tenantId, tenantId)).orderBy(asc(sm.sequenceNum), asc(sm.methodId)),
    ]);
    return zones.map((z) => ({ ...z, methods: methods.filter((m) => m.zoneId === z.zoneId) }));
  }

  return {
    /** The store's zones in the order the owner lists them, each with its methods in order. */
    zones: (ctx: TenantContext): Promise<ZoneWithMethods[]> => kept.get(ctx.tenantId, () => load(ctx.tenantId)),
    forget: (tenantId: string) => kept.drop(tenantId),
    clear: () => kept.clear(),
  };
}
export type ShippingTables = ReturnType<typeof createShippingTables>;
