import type { TaxClass } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, eq, inArray } from 'drizzle-orm';
import type { TenantContext } from '../../../lib/context';
import { StoreGenerations } from '../../../lib/store-generations';

const tr = schema.taxRates;
const ts = schema.storeTaxSettings;

export type TaxRateRow = typeof tr.$inferSelect;
/** A store's tax settings as checkout prices with them (decision 116); no row: prices without tax. */
export type TaxSettingsRow = { pricesIncludeTax: boolean };

/**
 * A store's tax rates, which every checkout step prices with (decision 070). They change rarely
 * (settings), so each process keeps them per store in memory instead of reading them for every
 * quote and order (the shipping zones are kept the same way by the shipping module, decision 115). Forgotten when the store's settings change
 * (`settings.changed`, which reaches every process) and when events were missed; the TTL bounds how
 * long a write made behind the app's back (a seed, a SQL fix) goes unseen.
 */
export function createCheckoutTables(db: Db, opts: { ttlMs?: number; now?: () => number } = {}) {
  const ttlMs = opts.ttlMs ?? 60_000;
  const now = opts.now ?? Date.now;
  type Entry = { at: number; taxRates: TaxRateRow[]; taxSettings: TaxSettingsRow };
  const known = new Map<string, Entry>();
  const loading = new Map<string, Promise<Entry>>();

  async function load(tenantId: string): Promise<Entry> {
    const [taxRates, [taxSettings]] = await Promise.all([
      db.select().from(tr).where(eq(tr.tenantId, tenantId)),
      db.select({ pricesIncludeTax: ts.pricesIncludeTax }).from(ts).where(eq(ts.tenantId, tenantId)),
    ]);
    return { at: now(), taxRates, taxSettings: taxSettings ?? { pricesIncludeTax: false } };
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
          // A forget while reading means the rows read may be the old ones: do not keep them.
          if (generations.of(ctx.tenantId) === generation) known.set(ctx.tenantId, entry);
        },
        () => {},
      );
    }
    return pending;
  }

  // Moved by forget/clear, so a read that started before a change is not cached after it.
  const generations = new StoreGenerations();

  return {
    /** The store's tax rates of one country (every region's and the country's own). */
    async taxRates(ctx: TenantContext, countryGeoId: string): Promise<TaxRateRow[]> {
      return (await get(ctx)).taxRates.filter((r) => r.countryGeoId === countryGeoId);
    },
    /** The store's tax settings (decision 116). */
    async taxSettings(ctx: TenantContext): Promise<TaxSettingsRow> {
      return (await get(ctx)).taxSettings;
    },
    /**
     * The tax class of each product of a cart, read for each quote rather than kept: the product
     * editor changes it, and it is a read by key of a few rows.
     */
    async taxClasses(ctx: TenantContext, productIds: readonly string[]): Promise<Map<string, TaxClass>> {
      if (productIds.length === 0) return new Map();
      const p = schema.products;
      const rows = await db
        .select({ productId: p.productId, taxClass: p.taxClass })
        .from(p)
        .where(and(eq(p.tenantId, ctx.tenantId), inArray(p.productId, [...new Set(productIds)])));
      return new Map(rows.map((r) => [r.productId, r.taxClass]));
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
export type CheckoutTables = ReturnType<typeof createCheckoutTables>;
