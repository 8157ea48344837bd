import { sql } from 'drizzle-orm';
import type { Db } from './client';

/**
 * Gives products just inserted their default variant (decision 112): id = the product's id, no
 * option values, title '', and the product's SKU, prices, weight and stock; and sets the products'
 * rollup of it (highest price, one variant, sellable stock). The same rows migration 0044 wrote for
 * every product before it: the seed, store provisioning and tests that insert product rows directly
 * use it, so a product never lacks a variant. `productIds` undefined: every product of the store
 * without a variant. Products that have a variant already are left as they are.
 */
export async function insertDefaultVariants(
  db: Pick<Db, 'execute'>,
  tenantId: string,
  productIds?: readonly string[],
): Promise<void> {
  if (productIds && productIds.length === 0) return;
  const which = productIds
    ? sql`AND p.product_id IN (${sql.join(
        productIds.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  await db.execute(sql`
    WITH added AS (
      INSERT INTO product_variants (tenant_id, variant_id, product_id, position, title, sku, list_price, sale_price,
        weight_grams, stock_quantity, enabled)
      SELECT p.tenant_id, p.product_id, p.product_id, 1, '', p.sku, p.list_price, p.sale_price, p.weight_grams,
        p.stock_quantity, true
      FROM products p
      WHERE p.tenant_id = ${tenantId} ${which}
        AND NOT EXISTS (SELECT 1 FROM product_variants v WHERE v.tenant_id = p.tenant_id AND v.product_id = p.product_id)
      RETURNING product_id
    )
    UPDATE products SET price_max = effective_price, variant_count = 1, sellable_stock = stock_quantity
    FROM added
    WHERE products.tenant_id = ${tenantId} AND products.product_id = added.product_id`);
}
