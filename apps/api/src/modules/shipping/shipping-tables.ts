import { type Db, schema } from '@app/db';
import { asc, eq } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';
import { StoreGenerations } from '../../lib/store-generations';
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
  const ttlMs = opts.ttlMs ?? 60_000;
  const now = opts.now ?? Date.now;
  type Entry = { at: number; zones: ZoneWithMethods[] };
  const known = new Map<string, Entry>();
  const loading = new Map<string, Promise<Entry>>();
  // Moved by forget/clear, so a read that started before a change is not cached after it.
  const generations = new StoreGenerations();

  async function load(tenantId: string): Promise<Entry> {
    const [zones, methods] = await Promise.all([
      db.select().from(sz).where(eq(sz.tenantId, tenantId)).orderBy(asc(sz.sequenceNum), asc(sz.zoneId)),
      db.select().from(sm).where(eq(sm.tenantId, tenantId)).orderBy(asc(sm.sequenceNum), asc(sm.methodId)),
    ]);
    return { at: now(), zones: zones.map((z) => ({ ...z, methods: methods.filter((m) => m.zoneId === z.zoneId) })) };
  }

  async function get(ctx: TenantContext): Promise<Entry> {
    const hit = known.get(ctx.tenantId);
    if (hit && now() - hit.at < ttlMs) return hit;
    // Concurrent checkouts of a cold store share one read.
    let pending = loading.get(ctx.tenantId);
    if (!pending) {
      pending = load(ctx.tenantId).finally(() => loading.delete(ctx.tenantId));
      loading.set(ctx.tenantId, pending);
      const generation = generations.of(ctx.tenantId);
      pending.then(
        (entry) => {
          if (generations.of(ctx.tenantId) === generation) known.set(ctx.tenantId, entry);
        },
        () => {},
      );
    }
    return pending;
  }

  return {
    /** The store's zones in the order the owner lists them, each with its methods in order. */
    async zones(ctx: TenantContext): Promise<ZoneWithMethods[]> {
      return (await get(ctx)).zones;
    },
    forget(tenantId: string) {
      known.delete(tenantId);
      loading.delete(tenantId);
      generations.changed(tenantId);
    },
    clear() {
      known.clear();
      loading.clear();
      generations.allChanged();
    },
  };
}
export type ShippingTables = ReturnType<typeof createShippingTables>;
