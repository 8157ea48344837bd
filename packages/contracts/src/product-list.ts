import { z } from 'zod';
import { categoryIdSchema, MAX_PRICE_MINOR, MAX_STOCK, PRODUCT_STATUSES, STOCK_ADJUST_REASONS } from './product-admin';
import { PRODUCT_LIST_PAGE_MAX, PRODUCT_LIST_SORTS, PRODUCT_STOCK_FILTERS } from './product-list-options';
import type { FormOutcome } from './storefront';
import { textInt } from './strict-input';

/**
 * The dashboard's product list: one query schema for the page, the API,
 * the export and "the whole filtered list" of a bulk action, so the four always mean the same rows.
 */

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const opt = <T extends z.ZodType>(s: T) => z.preprocess(blankToUndefined, s.optional());

/** The list's filters and sort (query string of the page, the API and the export). */
export const productListFilterSchema = z.object({
  /** Name, brand or description words (prefixes match), part of a name, or an exact SKU. */
  q: opt(z.string().trim().max(200, 'q is longer than 200 characters')),
  category: opt(categoryIdSchema),
  brand: opt(z.string().trim().max(120, 'brand is longer than 120 characters')),
  status: opt(z.enum(PRODUCT_STATUSES, { error: `status must be one of ${PRODUCT_STATUSES.join(', ')}` })),
  stock: opt(z.enum(PRODUCT_STOCK_FILTERS, { error: `stock must be one of ${PRODUCT_STOCK_FILTERS.join(', ')}` })),
  sort: z.preprocess(
    blankToUndefined,
    z.enum(PRODUCT_LIST_SORTS, { error: `sort must be one of ${PRODUCT_LIST_SORTS.join(', ')}` }).default('updated'),
  ),
  dir: z.preprocess(blankToUndefined, z.enum(['asc', 'desc'], { error: 'dir must be asc or desc' }).optional()),
});
export type ProductListFilter = z.infer<typeof productListFilterSchema>;

export const adminProductQuerySchema = productListFilterSchema.extend({
  /** Opaque: the nextCursor of the page before. */
  cursor: opt(z.string().max(600, 'cursor is not valid')),
  limit: z.preprocess(
    blankToUndefined,
    textInt('limit', { min: 1, max: PRODUCT_LIST_PAGE_MAX }).default(PRODUCT_LIST_PAGE_MAX),
  ),
});
export type AdminProductQuery = z.infer<typeof adminProductQuerySchema>;

/** One row of the list: only what the table shows (the editor reads the rest). */
export const productListRowSchema = z.object({
  productId: z.string(),
  name: z.string(),
  sku: z.string(),
  brand: z.string().nullable(),
  status: z.enum(PRODUCT_STATUSES),
  listPrice: z.number().int(),
  salePrice: z.number().int().nullable(),
  currency: z.string(),
  stock: z.number().int(),
  /**
   * Products with variants (decision 112), present only on a product with more than one live
   * variant, so a page of single-variant products stays as small as before (the 50 KB bound):
   * `priceMax` the dearest enabled variant's price when the prices differ (the row shows "from
   * salePrice ?? listPrice to priceMax"), `variantCount` the live variants. `stock` is already the
   * total of all of them.
   */
  priceMax: z.number().int().optional(),
  variantCount: z.number().int().optional(),
  /** The product's small picture (a /media/ path or an http URL), or null. */
  image: z.string().nullable(),
  /** Names of up to three categories, for the column; `categoryCount` says how many there are. */
  categories: z.array(z.string()),
  categoryCount: z.number().int(),
  updatedAt: z.string(),
  createdAt: z.string(),
});
export type ProductListRow = z.infer<typeof productListRowSchema>;

export const productListPageSchema = z.object({
  rows: z.array(productListRowSchema),
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: z.string().nullable(),
  /** The store's low-stock threshold (the "low" filter and the stock column's warning). */
  lowStockThreshold: z.number().int(),
});
export type ProductListPage = z.infer<typeof productListPageSchema>;

/** What a bulk action does to each product. */
export const productBulkActionSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('status'), to: z.enum(PRODUCT_STATUSES, { error: 'choose a status' }) }),
  z.strictObject({ kind: z.literal('category.add'), categoryId: categoryIdSchema }),
  z.strictObject({ kind: z.literal('category.remove'), categoryId: categoryIdSchema }),
  z.strictObject({
    kind: z.literal('price'),
    /** Which price: the list price, or the sale price (a product without one starts from its list price). */
    field: z.enum(['list', 'sale'], { error: 'field must be list or sale' }),
    /**
     * set: to `value` minor units; amount: plus `value` minor units (negative lowers); percent: plus
     * `value` hundredths of a percent (-1000 is 10 % off), rounded to the nearest minor unit, halves
     * away from zero. A result below zero is zero.
     */
    mode: z.enum(['set', 'amount', 'percent'], { error: 'mode must be set, amount or percent' }),
    value: z
      .number({ error: 'value must be a number' })
      .int('value must be a whole number')
      .min(-MAX_PRICE_MINOR, 'value is too small')
      .max(MAX_PRICE_MINOR, 'value is too large'),
  }),
  z.strictObject({
    kind: z.literal('stock'),
    /** delta: add (negative takes; a product that would go below zero is skipped); set: count to exactly. */
    mode: z.enum(['delta', 'set'], { error: 'mode must be delta or set' }),
    value: z
      .number({ error: 'value must be a number' })
      .int('value must be a whole number')
      .min(-MAX_STOCK, 'value is too small')
      .max(MAX_STOCK, 'value is too large'),
    reason: z.enum(STOCK_ADJUST_REASONS, { error: `reason must be one of ${STOCK_ADJUST_REASONS.join(', ')}` }),
  }),
  /** Deletes products that were never ordered; archives those that were (orders keep their product). */
  z.strictObject({ kind: z.literal('delete') }),
]);
export type ProductBulkAction = z.infer<typeof productBulkActionSchema>;

export const productBulkRequestSchema = z
  .strictObject({
    action: productBulkActionSchema,
    /** The chosen products, or the whole list as `filter` selects it. */
    productIds: z.array(z.string().min(1).max(64)).min(1, 'choose at least one product').max(1000).optional(),
    filter: productListFilterSchema.optional(),
  })
  .refine((b) => (b.productIds ? !b.filter : !!b.filter), {
    message: 'give either productIds or filter',
    path: ['productIds'],
  });
export type ProductBulkRequest = z.infer<typeof productBulkRequestSchema>;

export interface ProductBulkResult {
  /** Products changed (or deleted). */
  changed: number;
  /** Products the action left as they were (already so, or not possible: see `notes`). */
  unchanged: number;
  /** Products that had orders and were archived instead of deleted. */
  archivedInstead: number;
  deleted: number;
  /** Why some were skipped, a few examples ("SKU-1: only 2 in stock"). */
  notes: string[];
}
export const productBulkResultSchema = z.object({
  changed: z.number().int(),
  unchanged: z.number().int(),
  archivedInstead: z.number().int(),
  deleted: z.number().int(),
  notes: z.array(z.string()),
});

export const productBulkAnswerSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('done'), result: productBulkResultSchema }),
  z.object({ mode: z.literal('job'), jobId: z.string(), total: z.number().int() }),
]);
export type ProductBulkAnswer = z.infer<typeof productBulkAnswerSchema>;

export const productBulkJobSchema = z.object({
  jobId: z.string(),
  status: z.enum(['pending', 'running', 'succeeded', 'failed']),
  done: z.number().int(),
  total: z.number().int(),
  result: productBulkResultSchema.nullable(),
  error: z.string().nullable(),
});
export type ProductBulkJob = z.infer<typeof productBulkJobSchema>;

/** The list page as the dashboard loads it. */
export interface ProductListPageData {
  query: AdminProductQuery;
  page: ProductListPage;
  categories: { id: string; name: string }[];
  brands: string[];
}

/** The bulk form's fields that can be refused (the message shows next to them). */
export type ProductBulkField = 'action' | 'categoryId' | 'value' | 'reason' | 'productIds';
/** A bulk action posted by the page's form; `message` is the toast. */
export type ProductBulkFormResult =
  | { ok: true; message: string; jobId: string | null; result: ProductBulkResult | null }
  | FormOutcome<ProductBulkField>;
