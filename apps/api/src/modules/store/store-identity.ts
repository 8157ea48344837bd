import { type Db, schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';

const ps = schema.productStores;

/**
 * The store's name, canonical host and currency, for pricing, mail and payment providers: links in
 * mail are built on the canonical host from the database, never on the request's Host.
 */
export async function storeIdentity(
  db: Db,
  ctx: TenantContext,
): Promise<{ host: string; name: string; currency: string } | null> {
  const [store] = await db
    .select({ host: ps.canonicalHost, name: ps.storeName, currency: ps.currencyUomId })
    .from(ps)
    .where(and(eq(ps.tenantId, ctx.tenantId), eq(ps.productStoreId, ctx.productStoreId)));
  return store ?? null;
}
