import type { TaxClass } from '@app/contracts';
import { schema, type Tx } from '@app/db';
import { and, eq } from 'drizzle-orm';

const p = schema.products;

/**
 * Sets a product's tax class (decision 116) under its row lock, in the caller's transaction (the tax
 * module's, which audits it). Answers the class it had, or null when the store has no such product.
 * The products domain writes its table; the tax module decides what the class means.
 */
export async function writeProductTaxClass(
  tx: Tx,
  tenantId: string,
  productId: string,
  taxClass: TaxClass,
): Promise<TaxClass | null> {
  const where = and(eq(p.tenantId, tenantId), eq(p.productId, productId));
  const [before] = await tx.select({ taxClass: p.taxClass }).from(p).where(where).for('update');
  if (!before) return null;
  if (before.taxClass !== taxClass) await tx.update(p).set({ taxClass }).where(where);
  return before.taxClass;
}
