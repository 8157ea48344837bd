import {
  PRODUCT_CSV_COLUMNS,
  type ProductListFilter,
  type ProductStatus,
  productCsvCells,
  type TaxClass,
} from '@app/contracts';
import { type Db, variantOptionsOf, variantOptionsSql } from '@app/db';
import { stringify } from 'csv-stringify/sync';
import { sql } from 'drizzle-orm';
import type { TenantContext } from '../../../lib/context';
import { encodeCursor, filterWhereFor, keyset } from './product-list.query';

/** Rows read per query by the export: memory stays flat whatever the catalog's size. */
const EXPORT_BATCH = 500;

type Rows<T> = { rows: T[] };
const rowsOf = <T>(r: unknown) => (r as Rows<T>).rows;

/**
 * The (filtered) list as CSV in the product CSV format (contracts/product-csv.ts), with a UTF-8 BOM
 * so spreadsheets read it as UTF-8. Read and written EXPORT_BATCH rows at a time: the whole list is
 * never in memory. Quoting is csv-stringify's (commas, quotes and newlines inside cells).
 */
export async function* exportProductsCsv(
  db: Db,
  ctx: TenantContext,
  filter: ProductListFilter,
  low: number,
): AsyncGenerator<string> {
  yield `\uFEFF${stringify([[...PRODUCT_CSV_COLUMNS]])}`;
  let cursor: string | undefined;
  const base = await filterWhereFor(db, ctx.tenantId, filter, low);
  for (;;) {
    const k = keyset({ sort: filter.sort, dir: filter.dir, cursor });
    const rows = rowsOf<{
      product_id: string;
      sku: string;
      product_name: string;
      slug: string;
      status: ProductStatus;
      brand_name: string | null;
      list_price: number;
      sale_price: number | null;
      currency_uom_id: string;
      stock_quantity: number;
      weight_grams: number | null;
      is_featured: boolean;
      short_description: string | null;
      description: string | null;
      seo_title: string | null;
      seo_description: string | null;
      tax_class: TaxClass;
      category_ids: string | null;
      k: string;
    }>(
      await db.execute(sql`
        SELECT p.product_id, p.sku, p.product_name, p.slug, p.status, p.brand_name, p.list_price, p.sale_price,
          p.currency_uom_id, p.stock_quantity, p.weight_grams, p.is_featured, p.short_description, p.description,
          p.seo_title, p.seo_description, p.tax_class, ${k.keyText} AS k,
          (SELECT string_agg(pc.product_category_id, '|') FROM product_categories pc
            WHERE pc.tenant_id = p.tenant_id AND pc.product_id = p.product_id) AS category_ids
        FROM products p WHERE ${k.after ? sql`${base} AND ${k.after}` : base}
        ORDER BY ${k.orderBy} LIMIT ${EXPORT_BATCH}`),
    );
    if (!rows.length) return;
    const variants = await variantsOf(
      db,
      ctx.tenantId,
      rows.map((r) => r.product_id),
    );
    const out: string[][] = [];
    for (const r of rows) {
      const product = {
        productName: r.product_name,
        slug: r.slug,
        status: r.status,
        brandName: r.brand_name,
        currencyUomId: r.currency_uom_id,
        categoryIds: r.category_ids ? r.category_ids.split('|') : [],
        isFeatured: r.is_featured,
        shortDescription: r.short_description,
        description: r.description,
        seoTitle: r.seo_title,
        seoDescription: r.seo_description,
        productId: r.product_id,
        images: variants.images.get(r.product_id) ?? [],
        taxClass: r.tax_class,
      };
      const own = variants.byProduct.get(r.product_id) ?? [];
      const names = variants.options.get(r.product_id) ?? [];
      if (own.length === 0) {
        // A product row without variants (written before them, or by a tool): its own columns, as before.
        out.push(
          productCsvCells({
            ...product,
            sku: r.sku,
            listPrice: Number(r.list_price),
            salePrice: r.sale_price == null ? null : Number(r.sale_price),
            stockQuantity: Number(r.stock_quantity),
            weightGrams: r.weight_grams == null ? null : Number(r.weight_grams),
          }),
        );
        continue;
      }
      own.forEach((v, i) => {
        out.push(
          productCsvCells({
            ...product,
            continued: i > 0,
            options: names.map((name, n) => ({ name, value: v.labels[n] ?? '' })),
            variantId: v.variant_id,
            sku: v.sku,
            barcode: v.barcode,
            listPrice: Number(v.list_price),
            salePrice: v.sale_price == null ? null : Number(v.sale_price),
            stockQuantity: Number(v.stock_quantity),
            weightGrams: v.weight_grams == null ? null : Number(v.weight_grams),
            enabled: v.enabled,
            variantImages: v.images,
          }),
        );
      });
    }
    yield stringify(out);
    if (rows.length < EXPORT_BATCH) return;
    const last = rows[rows.length - 1] as (typeof rows)[number];
    cursor = encodeCursor({ sort: filter.sort, dir: k.dir, key: last.k, id: last.product_id });
  }
}

interface VariantRow {
  product_id: string;
  variant_id: string;
  sku: string;
  barcode: string | null;
  list_price: number;
  sale_price: number | null;
  stock_quantity: number;
  weight_grams: number | null;
  enabled: boolean;
  /** Read as `options` (variantOptionsSql), kept as the labels in the options' order. */
  options?: unknown;
  labels: string[];
  images: string[];
}

const idList = (ids: readonly string[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

/**
 * The live variants of a page of products with their option labels and pictures (as media URLs),
 * the options' names, and the products' pictures: three reads per page, whatever its size.
 */
async function variantsOf(db: Db, tenantId: string, productIds: readonly string[]) {
  const [variants, options, images] = await Promise.all([
    db.execute(sql`
      SELECT v.product_id, v.variant_id, v.sku, v.barcode, v.list_price, v.sale_price, v.stock_quantity,
        v.weight_grams, v.enabled,
        ${variantOptionsSql('v')} AS options,
        coalesce((SELECT array_agg('/media/' || m.storage_key ORDER BY vi.position)
          FROM product_variant_images vi JOIN media m ON m.tenant_id = vi.tenant_id AND m.media_id = vi.media_id
          WHERE vi.tenant_id = v.tenant_id AND vi.variant_id = v.variant_id), '{}') AS images
      FROM product_variants v
      WHERE v.tenant_id = ${tenantId} AND v.product_id IN (${idList(productIds)}) AND v.removed_at IS NULL
      ORDER BY v.product_id, v.position, v.variant_id`),
    db.execute(sql`
      SELECT product_id, name FROM product_options
      WHERE tenant_id = ${tenantId} AND product_id IN (${idList(productIds)})
      ORDER BY product_id, position`),
    db.execute(sql`
      SELECT pi.product_id, '/media/' || m.storage_key AS url FROM product_images pi
        JOIN media m ON m.tenant_id = pi.tenant_id AND m.media_id = pi.media_id
      WHERE pi.tenant_id = ${tenantId} AND pi.product_id IN (${idList(productIds)})
      ORDER BY pi.product_id, pi.sequence_num, pi.media_id`),
  ]);
  const byProduct = new Map<string, VariantRow[]>();
  for (const v of rowsOf<VariantRow>(variants)) {
    const row = { ...v, labels: variantOptionsOf(v.options).map(([, label]) => label), images: v.images ?? [] };
    byProduct.set(v.product_id, [...(byProduct.get(v.product_id) ?? []), row]);
  }
  const names = new Map<string, string[]>();
  for (const o of rowsOf<{ product_id: string; name: string }>(options)) {
    names.set(o.product_id, [...(names.get(o.product_id) ?? []), o.name]);
  }
  const pictures = new Map<string, string[]>();
  for (const i of rowsOf<{ product_id: string; url: string }>(images)) {
    pictures.set(i.product_id, [...(pictures.get(i.product_id) ?? []), i.url]);
  }
  return { byProduct, options: names, images: pictures };
}
