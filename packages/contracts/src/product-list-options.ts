import type { ProductStatus, StockAdjustReason } from './product-admin';

/**
 * The product list's choices and labels, without zod, for the dashboard's browser code as well
 * (exported from client.ts); the schemas are in product-list.ts.
 */

export const PRODUCT_LIST_SORTS = ['updated', 'name', 'price', 'stock', 'created'] as const;
export type ProductListSort = (typeof PRODUCT_LIST_SORTS)[number];
export const PRODUCT_LIST_SORT_LABELS: Record<ProductListSort, string> = {
  updated: 'Last updated',
  name: 'Name',
  price: 'Price',
  stock: 'Stock',
  created: 'Date added',
};
/** in: at least one unit; low: at least one and at or below the store's low-stock threshold; out: none. */
export const PRODUCT_STOCK_FILTERS = ['in', 'low', 'out'] as const;
export type ProductStockFilter = (typeof PRODUCT_STOCK_FILTERS)[number];

/** A page holds at most this many rows: with the compact row below, a page stays under 50 KB. */
export const PRODUCT_LIST_PAGE_MAX = 50;
/** A selection up to this size is changed at once; more (or "the whole filtered list" past it) runs as a job. */
export const PRODUCT_BULK_INLINE_MAX = 200;

/** Name and date sort from A and oldest first by default; the rest (updated, price, stock) from the top. */
export function adminProductDefaultDir(sort: ProductListSort): 'asc' | 'desc' {
  return sort === 'name' ? 'asc' : 'desc';
}

/** Columns an owner can show or hide (the name and the checkbox are always there). */
export const PRODUCT_LIST_COLUMNS = [
  'image',
  'status',
  'sku',
  'brand',
  'categories',
  'price',
  'stock',
  'updated',
] as const;
export type ProductListColumn = (typeof PRODUCT_LIST_COLUMNS)[number];
export const PRODUCT_LIST_COLUMN_LABELS: Record<ProductListColumn, string> = {
  image: 'Picture',
  status: 'Status',
  sku: 'SKU',
  brand: 'Brand',
  categories: 'Categories',
  price: 'Price',
  stock: 'Stock',
  updated: 'Updated',
};
export const PRODUCT_LIST_DEFAULT_COLUMNS: readonly ProductListColumn[] = [
  'image',
  'status',
  'sku',
  'price',
  'stock',
  'updated',
];
/** "image,status,price" -> the known columns in table order; anything else is dropped. */
export function parseProductListColumns(text: string | null | undefined): ProductListColumn[] {
  if (text == null) return [...PRODUCT_LIST_DEFAULT_COLUMNS];
  const want = new Set(text.split(','));
  return PRODUCT_LIST_COLUMNS.filter((c) => want.has(c));
}

/** The statuses and stock reasons as the list's menus offer them (the same values as product-admin.ts). */
export const PRODUCT_STATUS_LABELS: Record<ProductStatus, string> = {
  ACTIVE: 'Active',
  DRAFT: 'Draft',
  ARCHIVED: 'Archived',
};
export const STOCK_ADJUST_REASON_LABELS: Record<StockAdjustReason, string> = {
  RECEIVED: 'Received',
  CORRECTION: 'Correction',
  DAMAGED: 'Damaged',
  RETURNED: 'Returned',
};
