import type { TaxClass } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, eq, inArray } from 'drizzle-orm';
import type { TenantContext } from '../../../lib/context';
import { StoreValues } from '../../../lib/store-generations';

const tr = schema.taxRates;
const ts = schema.storeTaxSettings;

export type TaxRateRow = typeof tr.$inferSelect;
/** A store's tax settings as checkout prices with them (decision 116); no row: prices without tax. */
export type TaxSettingsRow = { pricesIncludeTax: boolean };

/**
 * A store's tax rates and settings, which every checkout step prices with (decision 070). They
 * change rarely (settings), so each process keeps them per store in memory instead of reading them
 * for every quote and order (the shipping module keeps the zones the same way, decision 115).
 * Forgotten when the store's settings change (`settings.changed`, which reaches every process) and
 * when events were missed; the TTL bounds how long a write made behind the app's back (a seed, a SQL
 * fix) goes unseen.
 */
export function createCheckoutTables(db: Db, opts: { ttlMs?: number; now?: () => number } = {}) {
  type Entry = { taxRates: TaxRateRow[]; taxSettings: TaxSettingsRow };
  // Bounded: a process serving thousands of stores keeps the busiest (StoreValues).
  const kept = new StoreValues<Entry>(opts.ttlMs ?? 60_000, 10_000, opts.now);

  async function load(tenantId: string): Promise<Entry> {
    const [taxRates, [taxSettings]] = await Promise.all([
      db.select().from(tr).where(eq(tr.tenantId, tenantId)),
      db.select({ pricesIncludeTax: ts.pricesIncludeTax }).from(ts).where(eq(ts.tenantId, tenantId)),
    ]);
    return { taxRates, taxSettings: taxSettings ?? { pricesIncludeTax: false } };
  }

  const get = (ctx: TenantContext): Promise<Entry> => kept.get(ctx.tenantId, () => load(ctx.tenantId));

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
    forget: (tenantId: string) => kept.drop(tenantId),
    clear: () => kept.clear(),
  };
}
export type CheckoutTables = ReturnType<typeof createCheckoutTables>;
