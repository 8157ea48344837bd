import type { TaxClass } from '@app/contracts';
import { schema, type Tx } from '@app/db';
import { and, eq } from 'drizzle-orm';
import type { RequestContext } from '../../../lib/context';
import type { AuditService } from '../../audit/index';

const p = schema.products;

/**
 * Sets a product's tax class (decision 116) under its row lock, in the caller's transaction, and
 * audits a change on the product: the one writer of the class for the product editor (through the tax
 * module) and the CSV import. Answers the class it had, or null when the store has no such product.
 * The products domain writes its table; the tax module decides what the class means.
 */
export async function writeProductTaxClass(
  tx: Tx,
  ctx: RequestContext,
  audit: Pick<AuditService, 'record'>,
  productId: string,
  taxClass: TaxClass,
): Promise<TaxClass | null> {
  const where = and(eq(p.tenantId, ctx.tenantId), eq(p.productId, productId));
  const [before] = await tx.select({ taxClass: p.taxClass }).from(p).where(where).for('update');
  if (!before) return null;
  if (before.taxClass === taxClass) return before.taxClass;
  await tx.update(p).set({ taxClass }).where(where);
  await audit.record(tx, ctx, {
    entity: 'product',
    entityId: productId,
    action: 'update',
    before: { taxClass: before.taxClass },
    after: { taxClass },
  });
  return before.taxClass;
}
