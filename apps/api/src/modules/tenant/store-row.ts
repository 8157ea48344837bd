import { type Db, schema, type Tx } from '@app/db';
import { and, eq, sql } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';

const ps = schema.productStores;

/** A new store's identity, as sign-up (or the operator) opens it. */
export interface NewStore {
  tenantId: string;
  productStoreId: string;
  name: string;
  /** The store's first host, also its canonical one. */
  host: string;
}

/**
 * A new store's tenant, closed to the public until its owner goes live (invitation only, decision
 * 105). One of three steps of opening a store, each in the opening transaction.
 */
export async function openTenant(tx: Tx, store: NewStore): Promise<void> {
  await tx.insert(schema.tenants).values({ tenantId: store.tenantId, name: store.name, accessMode: 'invitation_only' });
}

/** The new store's row: its name and canonical host. */
export async function openStoreRow(tx: Tx, store: NewStore): Promise<void> {
  await tx.insert(ps).values({
    tenantId: store.tenantId,
    productStoreId: store.productStoreId,
    storeName: store.name,
    canonicalHost: store.host,
  });
}

/**
 * Binds a host name to the store. The host name is the table's key: a host another store holds
 * fails the insert (a unique violation), which is how two sign-ups racing for one name end.
 */
export async function bindStoreHost(tx: Tx, store: NewStore): Promise<void> {
  await tx
    .insert(schema.storeHosts)
    .values({ hostName: store.host, tenantId: store.tenantId, productStoreId: store.productStoreId });
}

/**
 * The store's row (product_stores: its name, currency, canonical host and low-stock threshold) is
 * the tenant domain's (decision 110); sign-up creates it (above), and the one value the dashboard
 * edits, the low-stock threshold, is written here, in the caller's transaction. The row is locked first, so two
 * changes at once audit the value each really replaced. Answers the threshold before the change
 * (nothing is written when it is the same), or null when the store has no row.
 */
export async function writeLowStockThreshold(tx: Tx, ctx: TenantContext, threshold: number): Promise<number | null> {
  const here = and(eq(ps.tenantId, ctx.tenantId), eq(ps.productStoreId, ctx.productStoreId));
  const [old] = await tx.select({ n: ps.lowStockThreshold }).from(ps).where(here).for('update');
  if (!old) return null;
  if (old.n !== threshold) await tx.update(ps).set({ lowStockThreshold: threshold }).where(here);
  return old.n;
}

/**
 * The domains module's host changes (decision 121), in its transaction: a store's own domain is
 * bound once its DNS points here, unbound when the owner removes it. The host is the table's key, so
 * a host another store holds fails the insert; binding it again to the same store changes nothing.
 */
export async function bindDomainHost(tx: Tx, ctx: TenantContext, hostName: string): Promise<void> {
  await tx
    .insert(schema.storeHosts)
    .values({ hostName, tenantId: ctx.tenantId, productStoreId: ctx.productStoreId })
    .onConflictDoNothing({ target: schema.storeHosts.hostName });
}

/** Removes the store's binding of the host; another store's binding of it stays. */
export async function unbindDomainHost(tx: Tx, ctx: TenantContext, hostName: string): Promise<void> {
  await tx
    .delete(schema.storeHosts)
    .where(
      and(
        eq(schema.storeHosts.hostName, hostName),
        eq(schema.storeHosts.tenantId, ctx.tenantId),
        eq(schema.storeHosts.productStoreId, ctx.productStoreId),
      ),
    );
}

/** Whether any store holds the host (a seeded host, a platform subdomain, another store's domain). */
export async function hostHolder(tx: Tx, hostName: string): Promise<{ tenantId: string } | null> {
  const [row] = await tx
    .select({ tenantId: schema.storeHosts.tenantId })
    .from(schema.storeHosts)
    .where(eq(schema.storeHosts.hostName, hostName))
    .limit(1);
  return row ?? null;
}

/** The store's hosts, A to Z, and which is canonical (the one links in mail, sitemaps and feeds use). */
export async function storeHostsOf(tx: Tx, ctx: TenantContext): Promise<{ hosts: string[]; canonical: string | null }> {
  const hosts = await tx
    .select({ h: schema.storeHosts.hostName })
    .from(schema.storeHosts)
    .where(and(eq(schema.storeHosts.tenantId, ctx.tenantId), eq(schema.storeHosts.productStoreId, ctx.productStoreId)))
    .orderBy(schema.storeHosts.hostName);
  const [row] = await tx
    .select({ c: ps.canonicalHost })
    .from(ps)
    .where(and(eq(ps.tenantId, ctx.tenantId), eq(ps.productStoreId, ctx.productStoreId)));
  return { hosts: hosts.map((h) => h.h), canonical: row?.c ?? null };
}

/**
 * Makes the host the store's canonical one (the owner's primary domain): canonical links, sitemaps,
 * feeds, mail and payment return URLs are built on it. The host must be bound to the store already.
 * Answers the host before, or null when the host is not the store's.
 */
export async function writeCanonicalHost(tx: Tx, ctx: TenantContext, hostName: string): Promise<string | null> {
  const here = and(eq(ps.tenantId, ctx.tenantId), eq(ps.productStoreId, ctx.productStoreId));
  const [old] = await tx.select({ c: ps.canonicalHost }).from(ps).where(here).for('update');
  if (!old) return null;
  const [bound] = await tx
    .select({ h: schema.storeHosts.hostName })
    .from(schema.storeHosts)
    .where(
      and(
        eq(schema.storeHosts.hostName, hostName),
        eq(schema.storeHosts.tenantId, ctx.tenantId),
        eq(schema.storeHosts.productStoreId, ctx.productStoreId),
      ),
    );
  if (!bound) return null;
  if (old.c !== hostName) await tx.update(ps).set({ canonicalHost: hostName }).where(here);
  return old.c;
}

/**
 * The store's own copy of its canonical host, on the database a moved store lives on (decision 123):
 * the primary host is chosen at home, where the hosts are, and the store's pages, mail and feeds read
 * its row where the store is. Written after the home transaction has committed.
 */
export async function writeCanonicalHostCopy(q: Db, ctx: TenantContext, hostName: string): Promise<void> {
  await q
    .update(ps)
    .set({ canonicalHost: hostName })
    .where(
      and(
        eq(ps.tenantId, ctx.tenantId),
        eq(ps.productStoreId, ctx.productStoreId),
        // A copy already right is not written again (the daily repair reaches every moved store).
        sql`${ps.canonicalHost} IS DISTINCT FROM ${hostName}`,
      ),
    );
}

/** The canonical host of each of the store's product stores, as the home database has it. */
export async function canonicalHostsOf(
  q: Db,
  tenantId: string,
): Promise<Array<{ productStoreId: string; host: string | null }>> {
  return q
    .select({ productStoreId: ps.productStoreId, host: ps.canonicalHost })
    .from(ps)
    .where(eq(ps.tenantId, tenantId));
}
