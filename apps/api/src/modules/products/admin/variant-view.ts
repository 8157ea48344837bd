import { randomBytes } from 'node:crypto';
import type { ProductVariantsView } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { RequestContext } from '../../../lib/context';
import { Refused, refuseField } from '../../../lib/result';

/**
 * A product's options, values and variants as read (readVariants: the editor's grid, the variant
 * API's GET, the import), and what the two writers beside it share: the locked read every write
 * starts from (lockProduct), the audited form of a variant, new ids and the refusals. Separate so
 * that variant-writer.ts (the variants) and option-writer.ts (the options) both take it without
 * importing each other.
 */

const po = schema.productOptions;
const pv = schema.productOptionValues;
const vr = schema.productVariants;
const vi = schema.productVariantImages;
const p = schema.products;

const OPTION_COLUMNS = ['option1ValueId', 'option2ValueId', 'option3ValueId'] as const;

export const newId = (prefix: string) => `${prefix}${randomBytes(8).toString('hex').toUpperCase()}`;
export const conflict = (field: string, message: string) => new Refused(refuseField(409, 'CONFLICT', field, message));
export const unprocessable = (field: string, message: string) =>
  new Refused(refuseField(422, 'UNPROCESSABLE', field, message));

/** The product's options, values and variants as the editor's grid shows them; null when not this store's. */
export async function readVariants(
  db: Db | Tx,
  tenantId: string,
  productId: string,
): Promise<ProductVariantsView | null> {
  const [product] = await db
    .select({ productId: p.productId })
    .from(p)
    .where(and(eq(p.tenantId, tenantId), eq(p.productId, productId)));
  if (!product) return null;
  const options = await db
    .select()
    .from(po)
    .where(and(eq(po.tenantId, tenantId), eq(po.productId, productId)))
    .orderBy(asc(po.position));
  const values = await db
    .select()
    .from(pv)
    .where(and(eq(pv.tenantId, tenantId), eq(pv.productId, productId)))
    .orderBy(asc(pv.position), asc(pv.valueId));
  const variants = await db
    .select()
    .from(vr)
    .where(and(eq(vr.tenantId, tenantId), eq(vr.productId, productId)))
    .orderBy(sql`${vr.removedAt} IS NOT NULL`, asc(vr.position), asc(vr.variantId));
  const images = await db
    .select()
    .from(vi)
    .where(and(eq(vi.tenantId, tenantId), eq(vi.productId, productId)))
    .orderBy(asc(vi.position));
  return variantsViewOf(productId, { options, values, variants, images });
}

/**
 * A product's options, values and variants as the API shows them, from their rows in order. One
 * shape for the single read above and the import's read of a whole batch (import/product-facts.ts),
 * which passes the rows of many products: each list is narrowed to this product here.
 */
export function variantsViewOf(
  productId: string,
  rows: {
    options: readonly (typeof po.$inferSelect)[];
    values: readonly (typeof pv.$inferSelect)[];
    variants: readonly (typeof vr.$inferSelect)[];
    images: readonly (typeof vi.$inferSelect)[];
  },
): ProductVariantsView {
  return {
    productId,
    options: rows.options
      .filter((o) => o.productId === productId)
      .map((o) => ({
        optionId: o.optionId,
        name: o.name,
        position: o.position,
        values: rows.values
          .filter((v) => v.productId === productId && v.optionId === o.optionId)
          .map((v) => ({
            valueId: v.valueId,
            label: v.label,
            swatchColor: v.swatchColor,
            swatchMediaId: v.swatchMediaId,
          })),
      })),
    variants: rows.variants
      .filter((v) => v.productId === productId)
      .map((v) => ({
        variantId: v.variantId,
        productId: v.productId,
        title: v.title,
        valueIds: OPTION_COLUMNS.map((c) => v[c]).filter((x): x is string => !!x),
        sku: v.sku,
        barcode: v.barcode,
        listPrice: v.listPrice,
        salePrice: v.salePrice,
        weightGrams: v.weightGrams,
        stock: v.stockQuantity,
        enabled: v.enabled,
        removed: v.removedAt !== null,
        imageIds: rows.images.filter((i) => i.variantId === v.variantId).map((i) => i.mediaId),
      })),
  };
}

/** Locks the product's row (the lock changeStock and the rollup take) and reads what the writes decide on. */
export async function lockProduct(tx: Tx, ctx: RequestContext, productId: string) {
  const [product] = await tx
    .select({ productId: p.productId, productName: p.productName })
    .from(p)
    .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, productId)))
    .for('update');
  if (!product) throw unprocessable('productId', 'this product does not exist.');
  const view = (await readVariants(tx, ctx.tenantId, productId)) as ProductVariantsView;
  return { product, view };
}

type AuditedFields = 'variantId' | 'title' | 'sku' | 'barcode' | 'listPrice' | 'salePrice' | 'weightGrams' | 'enabled';
/** The audited form of a variant: its own fields (stock is the inventory's, audited by its movements). */
export function auditedVariant(
  v:
    | (Pick<ProductVariantsView['variants'][number], AuditedFields> & { imageIds: string[]; removed: boolean })
    | undefined,
) {
  if (!v) return undefined;
  return {
    variantId: v.variantId,
    title: v.title,
    sku: v.sku,
    barcode: v.barcode,
    listPrice: v.listPrice,
    salePrice: v.salePrice,
    weightGrams: v.weightGrams,
    enabled: v.enabled,
    imageIds: v.imageIds.join(' '),
    removed: v.removed,
  };
}
