import { type Db, schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import type { RequestContext, TenantContext } from '../../lib/context';

const ps = schema.productStores;

type StoreIdentity = { host: string; name: string; currency: string };

/**
 * Read once per request: checkout prices the cart with the store's currency and then mails the
 * receipt with its name and host, two reads of one row a few milliseconds apart. Keyed by the
 * request's own context object, so it goes with the request; work no request started (jobs,
 * sweeps, whose context may live long) always reads.
 */
const perRequest = new WeakMap<object, Promise<StoreIdentity | null>>();

/**
 * The store's name, canonical host and currency, for pricing, mail and payment providers: links in
 * mail are built on the canonical host from the database, never on the request's Host.
 */
export function storeIdentity(db: Db, ctx: TenantContext): Promise<StoreIdentity | null> {
  const request = 'actor' in ctx && (ctx as RequestContext).actor.kind !== 'system';
  const kept = request ? perRequest.get(ctx) : undefined;
  if (kept) return kept;
  const read = readIdentity(db, ctx);
  if (request) {
    perRequest.set(ctx, read);
    read.catch(() => perRequest.delete(ctx)); // a failed read is not kept for the next caller
  }
  return read;
}

async function readIdentity(db: Db, ctx: TenantContext): Promise<StoreIdentity | null> {
  const [store] = await db
    .select({ host: ps.canonicalHost, name: ps.storeName, currency: ps.currencyUomId })
    .from(ps)
    .where(and(eq(ps.tenantId, ctx.tenantId), eq(ps.productStoreId, ctx.productStoreId)));
  return store ?? null;
}
