import type { Tx } from '@app/db';
import { sql } from 'drizzle-orm';
import type { TenantContext } from '../../../lib/context';

const idList = (ids: readonly string[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

/**
 * Recomputes the products' copy of their variants (decision 112) from the variants, in the caller's
 * transaction, after its variant writes: `list_price` and `sale_price` (the cheapest enabled live
 * variant's, so `effective_price` and every price sort and filter mean "from"), `price_max`, `sku`
 * and `weight_grams` (the first live variant's, for older clients), `variant_count`, the two stock
 * totals and `variant_words` (option names and value labels, for search). With no enabled variant
 * the prices are the cheapest live variant's, so the row still has a price to show the owner.
 *
 * Two statements: the products' rows are locked first, in id order as changeStock locks them, and
 * only then are the variants read. In READ COMMITTED the read then sees every stock change committed
 * before the lock was ours, and none can commit until we do: the totals written are the sums, not
 * a snapshot that a concurrent order's `stock_quantity + delta` has moved on from.
 */
export async function refreshProductRollup(tx: Tx, ctx: TenantContext, productIds: readonly string[]): Promise<void> {
  const ids = [...new Set(productIds)].sort();
  if (ids.length === 0) return;
  const t = ctx.tenantId;
  await tx.execute(sql`
    SELECT 1 FROM products WHERE tenant_id = ${t} AND product_id IN (${idList(ids)})
    ORDER BY product_id FOR UPDATE`);
  await tx.execute(sql`
    UPDATE products p SET
      list_price = r.list_price, sale_price = r.sale_price, price_max = r.price_max, sku = r.sku,
      weight_grams = r.weight_grams, variant_count = r.variant_count, stock_quantity = r.stock,
      sellable_stock = r.sellable,
      variant_words = coalesce((
        SELECT string_agg(w, ' ' ORDER BY k) FROM (
          SELECT o.name AS w, o.position * 1000 AS k FROM product_options o
          WHERE o.tenant_id = p.tenant_id AND o.product_id = p.product_id
          UNION ALL
          SELECT v.label, o.position * 1000 + v.position FROM product_option_values v
          JOIN product_options o ON o.tenant_id = v.tenant_id AND o.product_id = v.product_id AND o.option_id = v.option_id
          WHERE v.tenant_id = p.tenant_id AND v.product_id = p.product_id
        ) words), '')
    FROM (
      SELECT product_id,
        count(*) FILTER (WHERE removed_at IS NULL)::smallint AS variant_count,
        coalesce(sum(stock_quantity), 0)::integer AS stock,
        coalesce(sum(stock_quantity) FILTER (WHERE enabled AND removed_at IS NULL), 0)::integer AS sellable,
        coalesce(max(effective_price) FILTER (WHERE enabled AND removed_at IS NULL),
          max(effective_price) FILTER (WHERE removed_at IS NULL)) AS price_max,
        coalesce(
          (array_agg(variant_id ORDER BY effective_price, position, variant_id) FILTER (WHERE enabled AND removed_at IS NULL))[1],
          (array_agg(variant_id ORDER BY effective_price, position, variant_id) FILTER (WHERE removed_at IS NULL))[1]
        ) AS cheapest,
        (array_agg(variant_id ORDER BY position, variant_id) FILTER (WHERE removed_at IS NULL))[1] AS first
      FROM product_variants
      WHERE tenant_id = ${t} AND product_id IN (${idList(ids)})
      GROUP BY product_id
    ) g
    JOIN product_variants c ON c.tenant_id = ${t} AND c.variant_id = g.cheapest
    JOIN product_variants f ON f.tenant_id = ${t} AND f.variant_id = g.first
    CROSS JOIN LATERAL (
      SELECT g.product_id, g.variant_count, g.stock, g.sellable, g.price_max, c.list_price, c.sale_price, f.sku,
        f.weight_grams
    ) r
    WHERE p.tenant_id = ${t} AND p.product_id = r.product_id`);
}

/**
 * Part A's bridge (decision 112) until the product writer writes variants: a product whose only
 * variant is its default one (id = the product's) sells what its own fields say, so the writer's
 * SKU, prices and weight are copied to that variant, then the rollup is made again. Products with
 * options are left to the variant writer.
 */
export async function syncDefaultVariants(tx: Tx, ctx: TenantContext, productIds: readonly string[]): Promise<void> {
  const ids = [...new Set(productIds)].sort();
  if (ids.length === 0) return;
  const t = ctx.tenantId;
  await tx.execute(sql`
    UPDATE product_variants v SET sku = p.sku, list_price = p.list_price, sale_price = p.sale_price,
      weight_grams = p.weight_grams, updated_at = now()
    FROM products p
    WHERE v.tenant_id = ${t} AND v.product_id IN (${idList(ids)}) AND v.variant_id = v.product_id
      AND p.tenant_id = v.tenant_id AND p.product_id = v.product_id
      AND NOT EXISTS (SELECT 1 FROM product_options o WHERE o.tenant_id = p.tenant_id AND o.product_id = p.product_id)
      AND (v.sku, v.list_price, v.sale_price, v.weight_grams) IS DISTINCT FROM (p.sku, p.list_price, p.sale_price, p.weight_grams)`);
  await refreshProductRollup(tx, ctx, ids);
}
