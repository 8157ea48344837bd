import { type Db, schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';
import { refreshProductRollup } from './admin/variant-rollup';
import { changeStock } from './inventory/stock';

/** A variant of a product with several options, as a storefront test wants it. */
export interface StorefrontVariantSpec {
  /** One label per option, in the options' order. */
  values: string[];
  stock: number;
  listPrice: number;
  salePrice?: number | null;
  enabled?: boolean;
  /** Its pictures, by their index among the product's pictures. */
  pictures?: number[];
}

/**
 * Gives a product pictures (`pictures` media rows of its own), options with values (a value's swatch
 * colour when given) and one variant per spec, the way the product writer will (decision 112), for
 * the storefront's tests, which need what `givenVariants` does not make: two options, combinations
 * left out, swatches and variant pictures. The default variant becomes the first spec's; the rollup
 * is made again and stock set through changeStock, so the books add up. Returns the variant ids in
 * the specs' order, the value ids per option and the pictures' media ids.
 */
export async function givenStorefrontVariants(
  db: Db,
  ctx: TenantContext,
  productId: string,
  spec: {
    options: { name: string; values: { label: string; swatchColor?: string }[] }[];
    variants: StorefrontVariantSpec[];
    pictures?: number;
  },
): Promise<{ variantIds: string[]; valueIds: Record<string, string>[]; mediaIds: string[] }> {
  const t = ctx.tenantId;
  return db.transaction(async (tx) => {
    const [product] = await tx
      .select()
      .from(schema.products)
      .where(and(eq(schema.products.tenantId, t), eq(schema.products.productId, productId)));
    if (!product) throw new Error(`givenStorefrontVariants: no product ${productId}`);
    const mediaIds = Array.from({ length: spec.pictures ?? 0 }, (_, i) => `${productId}-pic-${i + 1}`);
    for (const [i, mediaId] of mediaIds.entries()) {
      await tx.insert(schema.media).values({
        tenantId: t,
        mediaId,
        storageKey: `${t}/${mediaId}.webp`,
        contentType: 'image/webp',
        width: 800,
        height: 800,
        bytes: 1000,
        sourceFormat: 'webp',
        altText: `Picture ${i + 1}`,
      });
      await tx.insert(schema.productImages).values({ tenantId: t, productId, mediaId, sequenceNum: i + 1 });
    }
    const valueIds: Record<string, string>[] = [];
    for (const [o, option] of spec.options.entries()) {
      const optionId = `O${o + 1}`;
      await tx
        .insert(schema.productOptions)
        .values({ tenantId: t, productId, optionId, name: option.name, position: o + 1 });
      const ids: Record<string, string> = {};
      for (const [v, value] of option.values.entries()) {
        ids[value.label] = `${optionId}V${v + 1}`;
        await tx.insert(schema.productOptionValues).values({
          tenantId: t,
          productId,
          optionId,
          valueId: `${optionId}V${v + 1}`,
          label: value.label,
          position: v + 1,
          swatchColor: value.swatchColor ?? null,
        });
      }
      valueIds.push(ids);
    }
    const variantIds = spec.variants.map((_, i) => (i === 0 ? productId : `${productId}-v${i + 1}`));
    for (const [i, v] of spec.variants.entries()) {
      const value = (o: number) => (v.values[o] === undefined ? null : (valueIds[o]?.[v.values[o] as string] ?? null));
      const row = {
        option1ValueId: value(0),
        option2ValueId: value(1),
        option3ValueId: value(2),
        title: v.values.join(' / '),
        listPrice: v.listPrice,
        salePrice: v.salePrice ?? null,
        enabled: v.enabled ?? true,
        position: i + 1,
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
          variantId: variantIds[i] as string,
          sku: `${product.sku}-V${i + 1}`,
          weightGrams: product.weightGrams,
          ...row,
        });
      }
      for (const [n, picture] of (v.pictures ?? []).entries()) {
        await tx.insert(schema.productVariantImages).values({
          tenantId: t,
          productId,
          variantId: variantIds[i] as string,
          mediaId: mediaIds[picture] as string,
          position: n + 1,
        });
      }
    }
    await refreshProductRollup(tx, ctx, [productId]);
    const stocked = await changeStock(
      tx,
      ctx,
      spec.variants.map((v, i) => ({
        variantId: variantIds[i] as string,
        set: v.stock,
        reason: 'RECEIVED' as const,
        note: 'test',
      })),
    );
    if (!stocked.ok) throw new Error(`givenStorefrontVariants: ${stocked.code}`);
    return { variantIds, valueIds, mediaIds };
  });
}
