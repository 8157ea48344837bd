import { schema, type Tx } from '@app/db';
import { and, eq } from 'drizzle-orm';
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
