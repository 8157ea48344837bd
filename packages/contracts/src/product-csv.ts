import { decimalAmount } from './money';
import type { ProductStatus } from './product-admin';
import type { TaxClass } from './tax-display';

/**
 * The product CSV: what the export writes and the import reads, so an exported file imports back
 * unchanged. One row per variant (decision 112, Shopify's layout): the product's columns are filled
 * on its first row and left blank on the others, then the variant's columns. A single-variant
 * product is one row with the option columns empty. Prices are decimals in the row's currency
 * ("12.50"), categories are ids separated by `|`, pictures are the store's media URLs separated by
 * `|`, `featured` and `enabled` are true or false, `tax_class` is standard, reduced or exempt
 * (decision 116), the description is HTML. The layout before
 * variants (no option or variant columns, one row per product matched by `sku`) still imports.
 * Documented for owners on the import page and in docs/.
 */
export const PRODUCT_CSV_PRODUCT_COLUMNS = [
  'product_id',
  'slug',
  'name',
  'status',
  'brand',
  'currency',
  'categories',
  'featured',
  'short_description',
  'description',
  'seo_title',
  'seo_description',
  'images',
  'tax_class',
] as const;
export const PRODUCT_CSV_VARIANT_COLUMNS = [
  'option1_name',
  'option1_value',
  'option2_name',
  'option2_value',
  'option3_name',
  'option3_value',
  'variant_id',
  'sku',
  'barcode',
  'list_price',
  'sale_price',
  'stock',
  'weight_grams',
  'enabled',
  'variant_images',
] as const;
export const PRODUCT_CSV_COLUMNS = [...PRODUCT_CSV_PRODUCT_COLUMNS, ...PRODUCT_CSV_VARIANT_COLUMNS] as const;
export type ProductCsvColumn = (typeof PRODUCT_CSV_COLUMNS)[number];
export type ProductCsvProductColumn = (typeof PRODUCT_CSV_PRODUCT_COLUMNS)[number];

/** The option columns by position: name (on the product's first row) and value (on every row). */
export const CSV_OPTION_COLUMNS = [
  ['option1_name', 'option1_value'],
  ['option2_name', 'option2_value'],
  ['option3_name', 'option3_value'],
] as const;

/** Columns a file must have; the rest may be left out (left as they are on update, defaults on create). */
export const PRODUCT_CSV_REQUIRED: readonly ProductCsvColumn[] = ['sku', 'name', 'list_price'];

/** A product as one CSV row holds it, money in minor units (a single-variant product, or a variant's row). */
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
  /** The product's pictures as media URLs, in order. */
  images?: readonly string[];
  /** The product's tax class (decision 116); the export always gives it. */
  taxClass?: TaxClass;
  /** Option names (first row only) and this variant's values, by position. */
  options?: readonly { name: string; value: string }[];
  variantId?: string;
  barcode?: string | null;
  enabled?: boolean;
  variantImages?: readonly string[];
  /** A later row of the same product: its product columns are left blank. */
  continued?: boolean;
}

export const CSV_CATEGORY_SEPARATOR = '|';
export const CSV_IMAGE_SEPARATOR = '|';

/** The cells of one row, in PRODUCT_CSV_COLUMNS order (quoting is the CSV writer's). */
export function productCsvCells(r: ProductCsvRecord): string[] {
  const first = !r.continued;
  const opt = (i: number) => r.options?.[i];
  const cells: Record<ProductCsvColumn, string> = {
    product_id: first ? r.productId : '',
    slug: first ? r.slug : '',
    name: first ? r.productName : '',
    status: first ? r.status : '',
    brand: first ? (r.brandName ?? '') : '',
    currency: first ? r.currencyUomId : '',
    categories: first ? [...r.categoryIds].sort().join(CSV_CATEGORY_SEPARATOR) : '',
    featured: first ? (r.isFeatured ? 'true' : 'false') : '',
    short_description: first ? (r.shortDescription ?? '') : '',
    description: first ? (r.description ?? '') : '',
    seo_title: first ? (r.seoTitle ?? '') : '',
    seo_description: first ? (r.seoDescription ?? '') : '',
    images: first ? (r.images ?? []).join(CSV_IMAGE_SEPARATOR) : '',
    tax_class: first ? (r.taxClass ?? '') : '',
    option1_name: first ? (opt(0)?.name ?? '') : '',
    option1_value: opt(0)?.value ?? '',
    option2_name: first ? (opt(1)?.name ?? '') : '',
    option2_value: opt(1)?.value ?? '',
    option3_name: first ? (opt(2)?.name ?? '') : '',
    option3_value: opt(2)?.value ?? '',
    variant_id: r.variantId ?? '',
    sku: r.sku,
    barcode: r.barcode ?? '',
    list_price: decimalAmount(r.listPrice, r.currencyUomId),
    sale_price: r.salePrice == null ? '' : decimalAmount(r.salePrice, r.currencyUomId),
    stock: String(r.stockQuantity),
    weight_grams: r.weightGrams == null ? '' : String(r.weightGrams),
    enabled: r.enabled === false ? 'false' : 'true',
    variant_images: (r.variantImages ?? []).join(CSV_IMAGE_SEPARATOR),
  };
  return PRODUCT_CSV_COLUMNS.map((c) => cells[c]);
}
