import { schema, type Tx } from '@app/db';
import { and, eq } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';

const ps = schema.productStores;

/**
 * The store's row (product_stores: its name, currency, canonical host and low-stock threshold) is
 * the tenant domain's (decision 110); sign-up creates it, and the one value the dashboard edits, the
 * low-stock threshold, is written here, in the caller's transaction. The row is locked first, so two
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
