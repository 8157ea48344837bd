import { z } from 'zod';
// The price parser and its ceiling live in money.ts (zod-free) so the dashboard's money input
// checks a price in the browser with the same rule the server applies.
import { MAX_PRICE_MINOR } from './money';

// Re-exported for the contracts that read prices next to a product's fields (promo codes, the CSV).
export { MAX_PRICE_MINOR, type ParsedMoney, parseDecimalMoney } from './money';

/**
 * The product fields an owner writes, defined once for every way in: the product editor, the CSV
 * import and the API. Money is integer minor units; the CSV and the editor's
 * text boxes take decimals, turned into minor units by parseDecimalMoney.
 */

export const PRODUCT_STATUSES = ['DRAFT', 'ACTIVE', 'ARCHIVED'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** Why an owner changed stock by hand (the reasons the issue names); orders write SOLD and RELEASED. */
export const STOCK_ADJUST_REASONS = ['RECEIVED', 'CORRECTION', 'DAMAGED', 'RETURNED'] as const;
export type StockAdjustReason = (typeof STOCK_ADJUST_REASONS)[number];
export const STOCK_REASONS = [...STOCK_ADJUST_REASONS, 'SOLD', 'RELEASED'] as const;
export type StockReason = (typeof STOCK_REASONS)[number];

export const STOCK_REASON_LABELS: Record<StockReason, string> = {
  RECEIVED: 'Received',
  CORRECTION: 'Correction',
  DAMAGED: 'Damaged',
  RETURNED: 'Returned',
  SOLD: 'Sold',
  RELEASED: 'Order cancelled',
};

/** A description holding one of these is an HTML document (the editor's); without, it is paragraphs of text. */
const BLOCK_TAG = /<(p|div|h[1-6]|ul|ol|table|blockquote|pre|figure|section|article|hr)[\s/>]/i;

/**
 * A product description as HTML paragraphs, as the product page reads it (decision 074): one written
 * as HTML as it is; one without block tags (the demo catalog's, a spreadsheet's) split at blank lines.
 * The editor opens it the same way, so the owner edits the paragraphs shoppers see.
 */
export function descriptionParagraphs(description: string): string {
  if (BLOCK_TAG.test(description)) return description;
  return description
    .split(/\r?\n\s*\r?\n/)
    .map((para) => para.trim())
    .filter(Boolean)
    .map((para) => `<p>${para}</p>`)
    .join('\n');
}

/** Stock a product may hold; a number past this is a typo, not a warehouse. */
export const MAX_STOCK = 10_000_000;
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** "Brass Floor Lamp, 60\"" -> "brass-floor-lamp-60": the slug a new product gets from its name. */
export function slugifyName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120)
    .replace(/-+$/g, '');
}

const text = (name: string, max: number) => z.string().trim().max(max, `${name} is longer than ${max} characters`);
const optionalText = (name: string, max: number) =>
  text(name, max)
    .nullish()
    .transform((v) => (v ? v : null));
const minor = (name: string) =>
  z
    .number({ error: `${name} must be a number of minor units (cents)` })
    .int(`${name} must be a whole number of minor units (cents)`)
    .min(0, `${name} cannot be negative`)
    .max(MAX_PRICE_MINOR, `${name} is more than a price can be`);
export const categoryIdSchema = z
  .string()
  .trim()
  .min(1, 'category id is required')
  .max(64, 'category id is longer than 64 characters')
  .regex(/^[A-Za-z0-9_.-]+$/, 'category id has characters an id cannot have');

/**
 * A product's own fields (its row), as the editor and the import write them. Images, options,
 * features, related products and downloads are written by the editor beside these; stock is not
 * here: it changes only through the inventory's changeStock, with a reason.
 */
export const productFieldsSchema = z
  .strictObject({
    productName: text('productName', 200).min(1, 'productName is required'),
    /** Empty on create: made from the name. */
    slug: z
      .string()
      .trim()
      .max(120, 'slug is longer than 120 characters')
      .refine((s) => s === '' || SLUG_PATTERN.test(s), 'slug may hold only a-z, 0-9 and single hyphens')
      .optional(),
    sku: text('sku', 64)
      .min(1, 'sku is required')
      .regex(/^[A-Za-z0-9_.\-/]+$/, 'sku may hold only letters, digits and . _ - /'),
    brandName: optionalText('brandName', 120),
    shortDescription: optionalText('shortDescription', 1000),
    /** Rich text (HTML); sanitised by the server before it is stored. */
    description: optionalText('description', 100_000),
    listPrice: minor('listPrice'),
    salePrice: minor('salePrice').nullish(),
    currencyUomId: z
      .string()
      .regex(/^[A-Z]{3}$/, 'currencyUomId must be a three-letter ISO 4217 code')
      .optional(),
    status: z.enum(PRODUCT_STATUSES, { error: `status must be one of ${PRODUCT_STATUSES.join(', ')}` }),
    weightGrams: z
      .number()
      .int('weightGrams must be whole grams')
      .min(0, 'weightGrams cannot be negative')
      .max(10_000_000, 'weightGrams is more than a parcel can weigh')
      .nullish(),
    isFeatured: z.boolean().optional(),
    seoTitle: optionalText('seoTitle', 70),
    seoDescription: optionalText('seoDescription', 320),
    /** The categories the product sits in, in no order; absent leaves them as they are. */
    categoryIds: z.array(categoryIdSchema).max(50, 'a product may sit in at most 50 categories').optional(),
  })
  .refine((p) => p.salePrice == null || p.salePrice <= p.listPrice, {
    message: 'salePrice cannot be more than listPrice',
    path: ['salePrice'],
  });
/** The fields after parsing (what writeProduct takes); ProductFieldsInput is what a client sends. */
export type ProductFields = z.infer<typeof productFieldsSchema>;
export type ProductFieldsInput = z.input<typeof productFieldsSchema>;
