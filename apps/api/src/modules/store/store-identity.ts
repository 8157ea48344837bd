import { type Db, schema } from '@app/db';
import { eq } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';
import { StoreValues } from '../../lib/store-generations';

const ps = schema.productStores;

type StoreIdentity = { host: string; name: string; currency: string };

/**
 * Every cart view and checkout needs the store's currency, and checkout its name and host again for
 * the receipt: kept per tenant (all its product stores, a handful) for as long as the host bindings
 * are (tenant.service's 30 s), and dropped with them on `settings.changed`. Nothing in the app
 * changes these three columns; an operator's change by hand shows within the TTL. Per database, so
 * two apps in one process (tests) never share what they read.
 */
const IDENTITY_TTL_MS = 30_000;
const kept = new WeakMap<Db, StoreValues<Map<string, StoreIdentity>>>();

function valuesOf(db: Db) {
  let values = kept.get(db);
  if (!values) {
    values = new StoreValues<Map<string, StoreIdentity>>(IDENTITY_TTL_MS, 10_000);
    kept.set(db, values);
  }
  return values;
}

/**
 * The store's name, canonical host and currency, for pricing, mail and payment providers: links in
 * mail are built on the canonical host from the database, never on the request's Host.
 */
export async function storeIdentity(db: Db, ctx: TenantContext): Promise<StoreIdentity | null> {
  const stores = await valuesOf(db).get(ctx.tenantId, async () => {
    const rows = await db
      .select({ id: ps.productStoreId, host: ps.canonicalHost, name: ps.storeName, currency: ps.currencyUomId })
      .from(ps)
      .where(eq(ps.tenantId, ctx.tenantId));
    return new Map(rows.map(({ id, ...identity }) => [id, identity]));
  });
  return stores.get(ctx.productStoreId) ?? null;
}

/** The tenant's stores changed (`settings.changed`), or every tenant's (`events.missed`, no id). */
export function forgetStoreIdentity(db: Db, tenantId?: string) {
  const values = kept.get(db);
  if (tenantId) values?.drop(tenantId);
  else values?.clear();
}
