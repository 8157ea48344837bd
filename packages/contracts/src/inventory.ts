import { z } from 'zod';
import {
  MAX_STOCK,
  PRODUCT_STATUSES,
  STOCK_ADJUST_REASONS,
  STOCK_REASON_LABELS,
  STOCK_REASONS,
  type StockAdjustReason,
  type StockReason,
} from './product-admin';
import type { FormOutcome } from './storefront';
import { textInt } from './strict-input';
import { variantIdSchema } from './variants';

/**
 * The owner's inventory: each product's stock, its books (every movement, with
 * who, when, before, after and why) and adjustments by hand with a reason. Stock changes only
 * through the inventory module's changeStock, so the books always add up.
 */

/** The highest low-stock threshold a store may set. */
export const MAX_LOW_STOCK_THRESHOLD = 100_000;
export const INVENTORY_PAGE_SIZE = 50;
export const STOCK_HISTORY_PAGE_SIZE = 50;

export const INVENTORY_STOCK_FILTERS = ['in', 'low', 'out'] as const;
export type InventoryStockFilter = (typeof INVENTORY_STOCK_FILTERS)[number];
export const INVENTORY_SORTS = ['stock-asc', 'stock-desc'] as const;
export type InventorySort = (typeof INVENTORY_SORTS)[number];

const cursor = z.string().min(1).max(300);

export const inventoryListQuerySchema = z.object({
  /** Part of the name, or the start of the SKU. */
  q: z.string().trim().max(200, 'q is longer than 200 characters').optional(),
  /** in: some left; low: some left, at or below the store's threshold; out: none left. */
  stock: z.enum(INVENTORY_STOCK_FILTERS, { error: 'stock must be one of in, low, out' }).optional(),
  sort: z.enum(INVENTORY_SORTS, { error: 'sort must be stock-asc or stock-desc' }).optional(),
  cursor: cursor.optional(),
  limit: textInt('limit', { min: 1, max: 100 }).optional(),
});
export type InventoryListQuery = z.infer<typeof inventoryListQuerySchema>;

export const inventoryItemSchema = z.object({
  productId: z.string(),
  productName: z.string(),
  sku: z.string(),
  status: z.enum(PRODUCT_STATUSES),
  stock: z.number().int(),
  /** The product's small picture, or null. */
  imageUrl: z.string().nullable(),
  /**
   * The variant this row counts (a row per live variant, decision 112; a product with one variant has
   * one row, its id the product's). null only in a history of a product with several variants that is
   * not filtered to one: then `stock` is the product's total and `sku` its first variant's.
   */
  variantId: z.string().nullable(),
  /** "Brass / 3000 K"; '' for a product's only (default) variant. */
  variantTitle: z.string(),
  /** false: the variant is kept and counted here, but not sold (and not counted as low in stock). */
  enabled: z.boolean(),
});
export type InventoryItem = z.infer<typeof inventoryItemSchema>;

export const inventoryPageSchema = z.object({
  items: z.array(inventoryItemSchema),
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: z.string().nullable(),
  /** The store's low-stock threshold the "low" filter uses. */
  lowStockThreshold: z.number().int(),
});
export type InventoryPage = z.infer<typeof inventoryPageSchema>;

/** One line of a product's books. */
export const stockMovementSchema = z.object({
  movementId: z.string(),
  createdAt: z.string(),
  reason: z.enum(STOCK_REASONS),
  delta: z.number().int(),
  before: z.number().int(),
  after: z.number().int(),
  note: z.string().nullable(),
  orderId: z.string().nullable(),
  returnId: z.string().nullable(),
  /** Who: a person's first name, or the job or checkout that moved it; null when unknown. */
  actor: z.object({ id: z.string().nullable(), name: z.string().nullable() }),
  /** The variant whose stock moved, and its title ('' for a product's default variant). */
  variantId: z.string(),
  variantTitle: z.string(),
});
export type StockMovement = z.infer<typeof stockMovementSchema>;

export const stockHistoryQuerySchema = z.object({
  cursor: cursor.optional(),
  /** Only this variant's movements (one of the product's; another is 404). */
  variantId: variantIdSchema.optional(),
  limit: textInt('limit', { min: 1, max: 100 }).optional(),
});

export const stockHistorySchema = z.object({
  product: inventoryItemSchema,
  lowStockThreshold: z.number().int(),
  /** Newest first. */
  movements: z.array(stockMovementSchema),
  nextCursor: z.string().nullable(),
  /** The product's live variants in their order, each with its stock (one for a product without options). */
  variants: z.array(
    z.object({
      variantId: z.string(),
      title: z.string(),
      sku: z.string(),
      stock: z.number().int(),
      enabled: z.boolean(),
    }),
  ),
});
export type StockHistory = z.infer<typeof stockHistorySchema>;

const quantity = (name: string, min: number) =>
  z
    .number({ error: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min}`)
    .max(MAX_STOCK, `${name} must be at most ${MAX_STOCK}`);

/** An adjustment by hand: by `delta` units (negative takes), or to exactly `set` units (a count). */
export const stockAdjustSchema = z
  .strictObject({
    reason: z.enum(STOCK_ADJUST_REASONS, { error: 'reason must be one of RECEIVED, CORRECTION, DAMAGED, RETURNED' }),
    delta: quantity('delta', -MAX_STOCK)
      .refine((n) => n !== 0, 'delta must not be 0')
      .optional(),
    set: quantity('set', 0).optional(),
    note: z.string().trim().max(500, 'note is longer than 500 characters').optional(),
    /**
     * The variant to adjust, one of the product's live variants. Required when the product has
     * several (422 VARIANT_REQUIRED without it); without it a product's only variant is adjusted.
     */
    variantId: variantIdSchema.optional(),
  })
  .superRefine((v, ctx) => {
    if ((v.delta === undefined) === (v.set === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['delta'], message: 'give either delta or set' });
    }
  });
export type StockAdjust = z.infer<typeof stockAdjustSchema>;

export const stockAdjustResultSchema = z.object({
  productId: z.string(),
  /** The variant adjusted, and its title ('' for a product's default variant). */
  variantId: z.string(),
  variantTitle: z.string(),
  before: z.number().int(),
  after: z.number().int(),
  delta: z.number().int(),
});
export type StockAdjustResult = z.infer<typeof stockAdjustResultSchema>;

export const lowStockSettingSchema = z.strictObject({
  lowStockThreshold: z
    .number({ error: 'lowStockThreshold must be a whole number' })
    .int('lowStockThreshold must be a whole number')
    .min(0, 'lowStockThreshold must be at least 0')
    .max(MAX_LOW_STOCK_THRESHOLD, `lowStockThreshold must be at most ${MAX_LOW_STOCK_THRESHOLD}`),
});
export type LowStockSetting = z.infer<typeof lowStockSettingSchema>;

/** The adjust form's fields (the inventory page's rows): "delta" adds or takes, "set" counts. */
export const STOCK_ADJUST_FIELDS = ['reason', 'mode', 'quantity', 'note'] as const;
export type StockAdjustField = (typeof STOCK_ADJUST_FIELDS)[number];
export type StockAdjustFormResult =
  | { ok: true; message: string; productId: string; after: number; variantId?: string }
  | FormOutcome<StockAdjustField>;
export type LowStockFormResult = { ok: true; message: string } | FormOutcome<'lowStockThreshold'>;

/**
 * The labels of every reason, handed to the pages with their data: the browser bundle takes no zod,
 * so it cannot import STOCK_REASON_LABELS itself.
 */
export interface StockReasonLabels {
  /** The reasons an owner may pick, in order. */
  adjustReasons: { value: StockAdjustReason; label: string }[];
  reasonLabels: Record<StockReason, string>;
}

/** The inventory pages; each function needs the catalog permission. */
export interface InventoryPages {
  inventoryPage(
    query: Record<string, string | undefined>,
  ): Promise<InventoryPage & StockReasonLabels & { query: InventoryListQuery }>;
  /** null: no such product in this store (or `variantId` is not one of its variants). */
  stockHistoryPage(
    productId: string,
    cursor?: string | null,
    variantId?: string | null,
  ): Promise<(StockHistory & StockReasonLabels) | null>;
  /** `fields.variantId` names the variant (required for a product with several). */
  adjustStock(productId: string, fields: Record<string, string>): Promise<StockAdjustFormResult>;
  saveLowStockThreshold(fields: Record<string, string>): Promise<LowStockFormResult>;
}

export const STOCK_REASON_TEXT: StockReasonLabels = {
  adjustReasons: STOCK_ADJUST_REASONS.map((value) => ({ value, label: STOCK_REASON_LABELS[value] })),
  reasonLabels: STOCK_REASON_LABELS,
};
