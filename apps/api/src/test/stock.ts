import type { Db } from '@app/db';
import { sql } from 'drizzle-orm';

/**
 * Stages a stock count for a test, around the books (no movement), as tests that need "5 left" do:
 * the count lives on the variant and the product keeps its totals (decision 112), so both are set, on
 * products whose only variant is their default one (id = the product's). `tenantId` alone: every
 * such product of the store.
 */
export async function setTestStock(
  db: Pick<Db, 'execute'>,
  n: number,
  where: { tenantId?: string; productId?: string },
): Promise<void> {
  const conditions = [
    sql`variant_id = product_id`,
    ...(where.tenantId ? [sql`tenant_id = ${where.tenantId}`] : []),
    ...(where.productId ? [sql`product_id = ${where.productId}`] : []),
  ];
  const pConditions = [
    ...(where.tenantId ? [sql`tenant_id = ${where.tenantId}`] : []),
    ...(where.productId ? [sql`product_id = ${where.productId}`] : []),
  ];
  if (pConditions.length === 0) throw new Error('setTestStock: name a store or a product');
  await db.execute(sql`UPDATE product_variants SET stock_quantity = ${n} WHERE ${sql.join(conditions, sql` AND `)}`);
  await db.execute(
    sql`UPDATE products SET stock_quantity = ${n}, sellable_stock = ${n} WHERE ${sql.join(pConditions, sql` AND `)}`,
  );
}
