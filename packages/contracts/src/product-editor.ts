import { z } from 'zod';
import { MAX_STOCK, PRODUCT_STATUSES, type ProductStatus, productFieldsSchema } from './product-admin';
import type { FormOutcome } from './storefront';
import { type TaxClass, taxClassSchema } from './tax';
import {
  variantIdSchema,
  variantInputSchema,
  variantOptionsInputSchema,
  variantOptionViewSchema,
  variantViewSchema,
} from './variants';

/**
 * The product editor's payload: a product's own fields (productFieldsSchema,
 * defined once) and what the editor writes beside them: pictures in order with alt text, features,
 * options with price changes, related products, and the first stock on create. Money is minor units.
 */

const mediaId = z.string().regex(/^[0-9a-f]{32}$/, 'images: a picture id is not one of the media library');
const productIdSchema = z
  .string()
  .trim()
  .min(1, 'product id is required')
  .max(64, 'product id is longer than 64 characters')
  .regex(/^[A-Za-z0-9_.-]+$/, 'product id has characters an id cannot have');

export const productImageInputSchema = z.strictObject({
  mediaId,
  altText: z.string().trim().max(300, 'images: alt text is longer than 300 characters').nullish(),
});

export const productFeatureInputSchema = z.strictObject({
  label: z
    .string()
    .trim()
    .min(1, 'features: a feature needs a label')
    .max(80, 'features: a label is at most 80 characters'),
  value: z
    .string()
    .trim()
    .min(1, 'features: a feature needs a value')
    .max(300, 'features: a value is at most 300 characters'),
});

/** A price change of a choice, minor units; a choice may also make the product cheaper. */
export const MAX_PRICE_DELTA = 100_000_000;
export const productChoiceInputSchema = z.strictObject({
  label: z
    .string()
    .trim()
    .min(1, 'options: a choice needs a label')
    .max(80, 'options: a choice label is at most 80 characters'),
  priceDelta: z
    .number()
    .int('options: a price change is whole minor units')
    .min(-MAX_PRICE_DELTA, 'options: a price change is too large')
    .max(MAX_PRICE_DELTA, 'options: a price change is too large')
    .default(0),
  isDefault: z.boolean().optional(),
});
export const productOptionInputSchema = z.strictObject({
  optionName: z
    .string()
    .trim()
    .min(1, 'options: an option needs a name')
    .max(80, 'options: a name is at most 80 characters'),
  choices: z
    .array(productChoiceInputSchema)
    .min(1, 'options: an option needs at least one choice')
    .max(50, 'options: at most 50 choices per option'),
});

export const productEditorInputSchema = z
  .strictObject({
    fields: productFieldsSchema,
    /** In order: the first is the product's main picture. Absent leaves them as they are. */
    images: z.array(productImageInputSchema).max(20, 'images: at most 20 pictures per product').optional(),
    features: z.array(productFeatureInputSchema).max(50, 'features: at most 50 features').optional(),
    /** A product with options is CONFIGURABLE; none makes it a plain product again. */
    options: z.array(productOptionInputSchema).max(10, 'options: at most 10 options').optional(),
    relatedProductIds: z.array(productIdSchema).max(20, 'relatedProductIds: at most 20 related products').optional(),
    /** Create only: the stock received with the new product (written through the inventory, reason RECEIVED). */
    initialStock: z
      .number()
      .int('initialStock must be a whole number')
      .min(0, 'initialStock cannot be negative')
      .max(MAX_STOCK, `initialStock is at most ${MAX_STOCK}`)
      .optional(),
  })
  .superRefine((v, ctx) => {
    const ids = v.images?.map((i) => i.mediaId) ?? [];
    if (new Set(ids).size !== ids.length)
      ctx.addIssue({ code: 'custom', path: ['images'], message: 'images: a picture is listed twice' });
    const names = v.options?.map((o) => o.optionName.toLowerCase()) ?? [];
    if (new Set(names).size !== names.length)
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'options: two options have the same name' });
  });
export type ProductEditorInput = z.infer<typeof productEditorInputSchema>;
export type ProductEditorPayload = z.input<typeof productEditorInputSchema>;

export const productDuplicateInputSchema = z.strictObject({
  /** The copy's SKU; absent: the original's with -COPY (then -COPY-2...). */
  sku: productFieldsSchema.shape.sku.optional(),
});

export const productIdParamsSchema = z.strictObject({ productId: productIdSchema });

export interface ProductEditorImage {
  mediaId: string;
  url: string;
  altText: string | null;
  width: number;
  height: number;
}
export interface ProductEditorContent {
  contentId: string;
  title: string;
  fileName: string;
  url: string;
  contentType: string;
}

/** A product as the editor shows it (GET /catalog/products/:productId). */
export interface ProductEditorView {
  productId: string;
  productName: string;
  slug: string;
  sku: string;
  brandName: string | null;
  shortDescription: string | null;
  description: string | null;
  listPrice: number;
  salePrice: number | null;
  currencyUomId: string;
  status: ProductStatus;
  productType: string;
  weightGrams: number | null;
  /** Which tax rate the product pays (decision 116); set through the Taxes module's own write. */
  taxClass?: TaxClass;
  seoTitle: string | null;
  seoDescription: string | null;
  stockQuantity: number;
  categoryIds: string[];
  images: ProductEditorImage[];
  features: { label: string; value: string }[];
  options: {
    optionId: string;
    optionName: string;
    choices: { choiceId: string; label: string; priceDelta: number; isDefault: boolean }[];
  }[];
  related: { productId: string; productName: string; sku: string }[];
  contents: ProductEditorContent[];
  /** Orders name this product: it cannot be deleted, only archived. */
  hasOrders: boolean;
  updatedAt: string;
}

const imageView = z.object({
  mediaId: z.string(),
  url: z.string(),
  altText: z.string().nullable(),
  width: z.number(),
  height: z.number(),
});
export const productEditorViewSchema = z.object({
  productId: z.string(),
  productName: z.string(),
  slug: z.string(),
  sku: z.string(),
  brandName: z.string().nullable(),
  shortDescription: z.string().nullable(),
  description: z.string().nullable(),
  listPrice: z.number(),
  salePrice: z.number().nullable(),
  currencyUomId: z.string(),
  status: z.enum(PRODUCT_STATUSES),
  productType: z.string(),
  weightGrams: z.number().nullable(),
  taxClass: taxClassSchema.optional(),
  seoTitle: z.string().nullable(),
  seoDescription: z.string().nullable(),
  stockQuantity: z.number(),
  categoryIds: z.array(z.string()),
  images: z.array(imageView),
  features: z.array(z.object({ label: z.string(), value: z.string() })),
  options: z.array(
    z.object({
      optionId: z.string(),
      optionName: z.string(),
      choices: z.array(
        z.object({ choiceId: z.string(), label: z.string(), priceDelta: z.number(), isDefault: z.boolean() }),
      ),
    }),
  ),
  related: z.array(z.object({ productId: z.string(), productName: z.string(), sku: z.string() })),
  contents: z.array(
    z.object({
      contentId: z.string(),
      title: z.string(),
      fileName: z.string(),
      url: z.string(),
      contentType: z.string(),
    }),
  ),
  hasOrders: z.boolean(),
  updatedAt: z.string(),
});

export const productDeleteResultSchema = z.object({
  productId: z.string(),
  /** Deleted for good (no orders name it), or archived (orders do). */
  outcome: z.enum(['deleted', 'archived']),
});
export type ProductDeleteResult = z.infer<typeof productDeleteResultSchema>;

/** Downloadable content: PDFs and ZIP archives, told by their bytes. */
export const PRODUCT_CONTENT_MAX_BYTES = 20 * 1024 * 1024;
export const PRODUCT_CONTENT_ACCEPT = '.pdf,.zip,application/pdf,application/zip';

/** The editor page's form fields (the names its inputs carry and its errors are keyed by). */
export const PRODUCT_EDITOR_FIELDS = [
  'productName',
  'slug',
  'sku',
  'brandName',
  'shortDescription',
  'description',
  'listPrice',
  'salePrice',
  'currencyUomId',
  'status',
  'weightGrams',
  'seoTitle',
  'seoDescription',
  'categoryIds',
  'images',
  'features',
  'options',
  'relatedProductIds',
  'initialStock',
  'newImages',
  'contentFile',
  'productId',
  'variants',
] as const;
export type ProductEditorField = (typeof PRODUCT_EDITOR_FIELDS)[number];

export interface ProductEditorPageData {
  product: ProductEditorView | null;
  categories: { productCategoryId: string; name: string }[];
  currency: string;
  library: { mediaId: string; url: string; altText: string | null }[];
  /** The product's options and variants for the grid (decision 112); null for a new product. */
  variants?: ProductVariantsView | null;
}

/** The editor form as it came: every field a string (lists as arrays), kept to show again on error. */
export type ProductEditorForm = Record<string, string | string[]>;

export type ProductEditorSaveResult =
  | { ok: true; message: string; productId: string }
  | FormOutcome<ProductEditorField>;

/** The product editor pages (/manage-store/products/new and /:productId); each needs the catalog permission. */
export interface ProductEditorPages {
  productEditor(productId: string | null): Promise<ProductEditorPageData | null>;
  /** Creates (productId null) or updates a product from the editor's form; uploads posted files first. */
  saveProductForm(
    productId: string | null,
    form: ProductEditorForm,
    files: { images: Uint8Array[]; content: { bytes: Uint8Array; fileName: string; title: string } | null },
  ): Promise<ProductEditorSaveResult>;
  duplicateProduct(productId: string, sku: string | null): Promise<ProductEditorSaveResult>;
  deleteProduct(
    productId: string,
  ): Promise<{ ok: true; outcome: 'deleted' | 'archived'; message: string } | FormOutcome<'productId'>>;
  removeProductContent(productId: string, contentId: string): Promise<ProductEditorSaveResult>;
}

// ---- Products with variants: the owner's API (decision 112, part B) ----

/** The path of one variant of one product. */
export const productVariantParamsSchema = z.strictObject({
  productId: productIdSchema,
  variantId: variantIdSchema,
});

/** PUT .../options: the product's options whole, in order (values matched by id, else by label). */
export const productOptionsInputSchema = z.strictObject({ options: variantOptionsInputSchema });
export type ProductOptionsInput = z.infer<typeof productOptionsInputSchema>;

/**
 * POST .../variants and PUT .../variants/:variantId: a variant as the owner writes it, with its stock
 * as a count. `stockSeen` is the count the owner's form was showing: the difference is saved as an
 * adjustment (CORRECTION), so an order placed meanwhile is not undone (decision 087). On create the
 * stock is the first count (RECEIVED) and `stockSeen` is not read.
 */
export const productVariantInputSchema = variantInputSchema.extend({
  stock: z
    .number({ error: 'stock must be a number' })
    .int('stock must be a whole number')
    .min(0, 'stock cannot be negative')
    .max(MAX_STOCK, 'stock is more than the inventory can count')
    .optional(),
  stockSeen: z.number().int().min(0).max(MAX_STOCK).optional(),
});
export type ProductVariantInput = z.infer<typeof productVariantInputSchema>;

/** What every variant route answers: the product's options and its variants (removed ones last, marked). */
export const productVariantsViewSchema = z.object({
  productId: z.string(),
  options: z.array(variantOptionViewSchema),
  variants: z.array(variantViewSchema),
});
export type ProductVariantsView = z.infer<typeof productVariantsViewSchema>;

/** DELETE .../variants/:variantId: deleted (never sold nor moved) or removed (kept for its history). */
export const variantDeleteResultSchema = z.object({
  outcome: z.enum(['deleted', 'removed']),
  view: productVariantsViewSchema,
});
export type VariantDeleteResult = z.infer<typeof variantDeleteResultSchema>;

/**
 * A variant write as the API takes it: its values either as labels (`values`) or as the value ids the
 * GET answers (`valueIds`), one of the two, one per option in order, so what GET answers can be PUT back.
 */
export const productVariantWriteSchema = z
  .strictObject({
    ...productVariantInputSchema.shape,
    values: productVariantInputSchema.shape.values.optional(),
    valueIds: z.array(variantIdSchema).max(3, 'a variant has at most 3 values').optional(),
  })
  .refine((v) => v.salePrice == null || v.salePrice <= v.listPrice, {
    message: 'salePrice cannot be more than listPrice',
    path: ['salePrice'],
  })
  .refine((v) => (v.values === undefined) !== (v.valueIds === undefined), {
    message: 'give the values either as labels (values) or as ids (valueIds), one of the two',
    path: ['values'],
  });
export type ProductVariantWrite = z.infer<typeof productVariantWriteSchema>;

/** The cells of the editor's variant grid that a refusal can name. */
export const VARIANT_GRID_CELLS = ['values', 'sku', 'listPrice', 'salePrice', 'stock', 'imageIds', 'enabled'] as const;
export type VariantGridCell = (typeof VARIANT_GRID_CELLS)[number];
/**
 * The key of a grid cell's error in a refused editor save's `fieldErrors` ("variants.3.sku": row 4's
 * SKU), beside `variants` (the card's message).
 */
export const variantGridErrorKey = (row: number, cell: VariantGridCell) => `variants.${row}.${cell}`;
