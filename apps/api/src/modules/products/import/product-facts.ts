/**
 * What the product plans compare a batch of the file's products with: the products the rows name
 * (by product_id, variant_id, SKU or slug) with their options, live variants and pictures, the
 * SKUs and slugs other products hold, and the store's categories, read in one query per table
 * whatever the batch's size. Separate from product-plan.ts because this is the plan's only read of
 * the database: the dry run reads it outside any transaction, the run inside the batch's.
 */
import { type ProductVariantsView, variantDisplayName } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import { variantsViewOf } from '../admin/variant-view';
import type { DataRow } from './csv-file';
import { c, existingOf, FIELD_COLUMNS, type ProductState, p, pc, type StoreFacts } from './row-plan';

const vr = schema.productVariants;
const vi = schema.productVariantImages;
const po = schema.productOptions;
const pov = schema.productOptionValues;
const pim = schema.productImages;
const md = schema.media;

/** The rows of one product: its first row and the variants after it. */
export interface ProductGroup {
  rows: DataRow[];
}

/** What a product holds today beyond its own fields: options, live variants, pictures. */
export interface ProductFull extends ProductState {
  view: ProductVariantsView;
  /** The product's pictures in order: media id and its URL (`/media/<key>`). */
  images: { mediaId: string; url: string }[];
}

/** What the plan reads about the store for a batch of products. */
export interface GroupFacts extends StoreFacts {
  slugHolders: Map<string, string | null>;
  byId: Map<string, ProductFull>;
  /** Live variants of the store met by the file's variant ids and SKUs: variant → product. */
  variantOwner: Map<string, string>;
  /** SKU → the live variant holding it (with its product and a name for the refusal). */
  skuHolder: Map<string, { variantId: string; productId: string; name: string }>;
  slugProduct: Map<string, string>;
}

/** A cell of the row, trimmed ("" when the file has no such column). */
export const cellOf = (r: DataRow, col: keyof DataRow['cells']) => (r.cells[col] ?? '').trim();

/** Reads what planProduct compares a batch of products with: one query per table, whatever the batch's size. */
export async function readGroupFacts(
  q: Db | Tx,
  tenantId: string,
  groups: readonly ProductGroup[],
): Promise<GroupFacts> {
  const rows = groups.flatMap((g) => g.rows);
  const uniq = (xs: string[]) => [...new Set(xs.filter(Boolean))];
  const productIds = uniq(groups.map((g) => cellOf(g.rows[0] as DataRow, 'product_id')));
  const variantIds = uniq(rows.map((r) => cellOf(r, 'variant_id')));
  const skus = uniq(rows.map((r) => cellOf(r, 'sku')));
  const slugs = uniq(rows.map((r) => cellOf(r, 'slug').toLowerCase()));
  const held =
    variantIds.length || skus.length
      ? await q
          .select({
            variantId: vr.variantId,
            productId: vr.productId,
            sku: vr.sku,
            title: vr.title,
            name: p.productName,
          })
          .from(vr)
          .innerJoin(p, and(eq(p.tenantId, vr.tenantId), eq(p.productId, vr.productId)))
          .where(
            and(
              eq(vr.tenantId, tenantId),
              isNull(vr.removedAt),
              or(
                variantIds.length ? inArray(vr.variantId, variantIds) : undefined,
                skus.length ? inArray(vr.sku, skus) : undefined,
              ),
            ),
          )
      : [];
  const slugRows = slugs.length
    ? await q
        .select({ slug: p.slug, productId: p.productId })
        .from(p)
        .where(and(eq(p.tenantId, tenantId), inArray(p.slug, slugs)))
    : [];
  const ids = uniq([...productIds, ...held.map((h) => h.productId), ...slugRows.map((s) => s.productId)]);
  const found = ids.length
    ? await q
        .select(FIELD_COLUMNS)
        .from(p)
        .where(and(eq(p.tenantId, tenantId), inArray(p.productId, ids)))
    : [];
  const foundIds = found.map((r) => r.productId as string);
  const [links, options, values, variants, vimages, images, cats] = await Promise.all([
    foundIds.length
      ? q
          .select({ productId: pc.productId, id: pc.productCategoryId })
          .from(pc)
          .where(and(eq(pc.tenantId, tenantId), inArray(pc.productId, foundIds)))
      : [],
    foundIds.length
      ? q
          .select()
          .from(po)
          .where(and(eq(po.tenantId, tenantId), inArray(po.productId, foundIds)))
          .orderBy(asc(po.position))
      : [],
    foundIds.length
      ? q
          .select()
          .from(pov)
          .where(and(eq(pov.tenantId, tenantId), inArray(pov.productId, foundIds)))
          .orderBy(asc(pov.position), asc(pov.valueId))
      : [],
    foundIds.length
      ? q
          .select()
          .from(vr)
          .where(and(eq(vr.tenantId, tenantId), inArray(vr.productId, foundIds), isNull(vr.removedAt)))
          .orderBy(asc(vr.position), asc(vr.variantId))
      : [],
    foundIds.length
      ? q
          .select()
          .from(vi)
          .where(and(eq(vi.tenantId, tenantId), inArray(vi.productId, foundIds)))
          .orderBy(asc(vi.position))
      : [],
    foundIds.length
      ? q
          .select({ productId: pim.productId, mediaId: pim.mediaId, key: md.storageKey })
          .from(pim)
          .innerJoin(md, and(eq(md.tenantId, pim.tenantId), eq(md.mediaId, pim.mediaId)))
          .where(and(eq(pim.tenantId, tenantId), inArray(pim.productId, foundIds)))
          .orderBy(asc(pim.sequenceNum), asc(pim.mediaId))
      : [],
    q.select({ id: c.productCategoryId }).from(c).where(eq(c.tenantId, tenantId)),
  ]);
  const byId = new Map<string, ProductFull>();
  for (const r of found) {
    const id = r.productId as string;
    const state = existingOf(
      r,
      links.filter((l) => l.productId === id).map((l) => l.id),
    );
    // Only live variants were read, so none of them is `removed`.
    const view = variantsViewOf(id, { options, values, variants, images: vimages });
    byId.set(id, {
      ...state,
      view,
      images: images.filter((i) => i.productId === id).map((i) => ({ mediaId: i.mediaId, url: `/media/${i.key}` })),
    });
  }
  const slugHolders = new Map<string, string | null>(
    slugRows.map((s): [string, string | null] => [s.slug, s.productId]),
  );
  return {
    categoryIds: new Set(cats.map((x) => x.id)),
    slugHolders,
    byId,
    variantOwner: new Map(held.filter((h) => variantIds.includes(h.variantId)).map((h) => [h.variantId, h.productId])),
    skuHolder: new Map(
      held.map((h) => [
        h.sku,
        { variantId: h.variantId, productId: h.productId, name: variantDisplayName(h.name, h.title) },
      ]),
    ),
    slugProduct: new Map(slugRows.map((s) => [s.slug, s.productId])),
  };
}
