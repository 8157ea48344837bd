import { decimalAmount } from './money';
import type { ProductStatus } from './product-admin';

/**
 * The product CSV: what the export writes and the import reads, so an exported file imports back
 * unchanged. One row per product, matched by `sku` on import. Prices are decimals in the row's
 * currency ("12.50"), categories are ids separated by `|`, `featured` is true or false, the
 * description is HTML. Documented for owners on the import page and in docs/.
 */
export const PRODUCT_CSV_COLUMNS = [
  'sku',
  'name',
  'slug',
  'status',
  'brand',
  'list_price',
  'sale_price',
  'currency',
  'stock',
  'weight_grams',
  'categories',
  'featured',
  'short_description',
  'description',
  'seo_title',
  'seo_description',
  'product_id',
] as const;
export type ProductCsvColumn = (typeof PRODUCT_CSV_COLUMNS)[number];

/** Columns a file must have; the rest may be left out (left as they are on update, defaults on create). */
export const PRODUCT_CSV_REQUIRED: readonly ProductCsvColumn[] = ['sku', 'name', 'list_price'];

/** A product as one CSV row holds it, money in minor units. */
export interface ProductCsvRecord {
  sku: string;
  productName: string;
  slug: string;
  status: ProductStatus;
  brandName: string | null;
  listPrice: number;
  salePrice: number | null;
  currencyUomId: string;
  stockQuantity: number;
  weightGrams: number | null;
  categoryIds: readonly string[];
  isFeatured: boolean;
  shortDescription: string | null;
  description: string | null;
  seoTitle: string | null;
  seoDescription: string | null;
  productId: string;
}

export const CSV_CATEGORY_SEPARATOR = '|';

/** The cells of one product's row, in PRODUCT_CSV_COLUMNS order (quoting is the CSV writer's). */
export function productCsvCells(r: ProductCsvRecord): string[] {
  const cells: Record<ProductCsvColumn, string> = {
    sku: r.sku,
    name: r.productName,
    slug: r.slug,
    status: r.status,
    brand: r.brandName ?? '',
    list_price: decimalAmount(r.listPrice, r.currencyUomId),
    sale_price: r.salePrice == null ? '' : decimalAmount(r.salePrice, r.currencyUomId),
    currency: r.currencyUomId,
    stock: String(r.stockQuantity),
    weight_grams: r.weightGrams == null ? '' : String(r.weightGrams),
    categories: [...r.categoryIds].sort().join(CSV_CATEGORY_SEPARATOR),
    featured: r.isFeatured ? 'true' : 'false',
    short_description: r.shortDescription ?? '',
    description: r.description ?? '',
    seo_title: r.seoTitle ?? '',
    seo_description: r.seoDescription ?? '',
    product_id: r.productId,
  };
  return PRODUCT_CSV_COLUMNS.map((c) => cells[c]);
}
