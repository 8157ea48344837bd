import { PRODUCT_CSV_COLUMNS, type ProductListFilter, type ProductStatus, productCsvCells } from '@app/contracts';
import type { Db } from '@app/db';
import { stringify } from 'csv-stringify/sync';
import { sql } from 'drizzle-orm';
import type { TenantContext } from '../../../lib/context';
import { encodeCursor, filterWhere, keyset } from './product-list.query';

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
  for (;;) {
    const k = keyset({ sort: filter.sort, dir: filter.dir, cursor });
    const base = filterWhere(ctx.tenantId, filter, low);
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
      category_ids: string | null;
      k: string;
    }>(
      await db.execute(sql`
        SELECT p.product_id, p.sku, p.product_name, p.slug, p.status, p.brand_name, p.list_price, p.sale_price,
          p.currency_uom_id, p.stock_quantity, p.weight_grams, p.is_featured, p.short_description, p.description,
          p.seo_title, p.seo_description, ${k.keyText} AS k,
          (SELECT string_agg(pc.product_category_id, '|') FROM product_categories pc
            WHERE pc.tenant_id = p.tenant_id AND pc.product_id = p.product_id) AS category_ids
        FROM products p WHERE ${k.after ? sql`${base} AND ${k.after}` : base}
        ORDER BY ${k.orderBy} LIMIT ${EXPORT_BATCH}`),
    );
    if (!rows.length) return;
    yield stringify(
      rows.map((r) =>
        productCsvCells({
          sku: r.sku,
          productName: r.product_name,
          slug: r.slug,
          status: r.status,
          brandName: r.brand_name,
          listPrice: Number(r.list_price),
          salePrice: r.sale_price == null ? null : Number(r.sale_price),
          currencyUomId: r.currency_uom_id,
          stockQuantity: Number(r.stock_quantity),
          weightGrams: r.weight_grams == null ? null : Number(r.weight_grams),
          categoryIds: r.category_ids ? r.category_ids.split('|') : [],
          isFeatured: r.is_featured,
          shortDescription: r.short_description,
          description: r.description,
          seoTitle: r.seo_title,
          seoDescription: r.seo_description,
          productId: r.product_id,
        }),
      ),
    );
    if (rows.length < EXPORT_BATCH) return;
    const last = rows[rows.length - 1] as (typeof rows)[number];
    cursor = encodeCursor({ sort: filter.sort, dir: k.dir, key: last.k, id: last.product_id });
  }
}
