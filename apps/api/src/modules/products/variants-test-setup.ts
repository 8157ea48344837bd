import { type Db, schema } from '@app/db';
import { and, eq, sql } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';
import { refreshProductRollup } from './admin/variant-rollup';
import { changeStock } from './inventory/stock';

/** One variant of a one-option product, as a test wants it. */
export interface VariantSpec {
  label: string;
  stock: number;
  listPrice?: number;
  enabled?: boolean;
}

/**
 * Gives a product one option (`option`, "Finish") and a variant per value, the way the product writer
 * will (decision 112) until it does: the product's default variant becomes the first value's, the
 * others are new rows (`{productId}-2`, ...), the rollup is made again and each variant's stock is
 * set through changeStock (RECEIVED), so the books add up from the start. Returns the variant ids in
 * the values' order.
 */
export async function givenVariants(
  db: Db,
  ctx: TenantContext,
  productId: string,
  option: string,
  variants: readonly VariantSpec[],
): Promise<string[]> {
  const t = ctx.tenantId;
  return db.transaction(async (tx) => {
    const [product] = await tx
      .select()
      .from(schema.products)
      .where(and(eq(schema.products.tenantId, t), eq(schema.products.productId, productId)));
    if (!product) throw new Error(`givenVariants: no product ${productId}`);
    await tx
      .insert(schema.productOptions)
      .values({ tenantId: t, productId, optionId: 'O1', name: option, position: 1 });
    await tx.insert(schema.productOptionValues).values(
      variants.map((v, i) => ({
        tenantId: t,
        productId,
        optionId: 'O1',
        valueId: `O1V${i + 1}`,
        label: v.label,
        position: i + 1,
      })),
    );
    const ids = variants.map((_, i) => (i === 0 ? productId : `${productId}-${i + 1}`));
    for (const [i, v] of variants.entries()) {
      const row = {
        option1ValueId: `O1V${i + 1}`,
        title: v.label,
        listPrice: v.listPrice ?? product.listPrice,
        salePrice: null,
        enabled: v.enabled ?? true,
      };
      if (i === 0) {
        await tx
          .update(schema.productVariants)
          .set(row)
          .where(and(eq(schema.productVariants.tenantId, t), eq(schema.productVariants.variantId, productId)));
      } else {
        await tx.insert(schema.productVariants).values({
          tenantId: t,
          productId,
          variantId: ids[i] as string,
          position: i + 1,
          sku: `${product.sku}-${i + 1}`,
          weightGrams: product.weightGrams,
          ...row,
        });
      }
    }
    await refreshProductRollup(tx, ctx, [productId]);
    const stocked = await changeStock(
      tx,
      ctx,
      variants.map((v, i) => ({
        variantId: ids[i] as string,
        set: v.stock,
        reason: 'RECEIVED' as const,
        note: 'test',
      })),
    );
    if (!stocked.ok) throw new Error(`givenVariants: ${stocked.code}`);
    return ids;
  });
}

/** A product's variants' counts, and its totals, as the database holds them. */
export async function booksOf(db: Db, tenantId: string, productId: string) {
  const rows = (await db.execute(sql`
    SELECT p.stock_quantity AS total, p.sellable_stock AS sellable,
      (SELECT coalesce(sum(stock_quantity), 0) FROM product_variants v
        WHERE v.tenant_id = p.tenant_id AND v.product_id = p.product_id)::int AS sum_all,
      (SELECT coalesce(sum(stock_quantity), 0) FROM product_variants v
        WHERE v.tenant_id = p.tenant_id AND v.product_id = p.product_id AND v.enabled AND v.removed_at IS NULL)::int AS sum_sellable
    FROM products p WHERE p.tenant_id = ${tenantId} AND p.product_id = ${productId}`)) as unknown as {
    rows: { total: number; sellable: number; sum_all: number; sum_sellable: number }[];
  };
  return rows.rows[0];
}
