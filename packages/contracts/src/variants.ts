import { z } from 'zod';
import { MAX_PRICE_MINOR } from './money';
import { MAX_STOCK } from './product-admin';
import { idField as id } from './strict-input';

/**
 * Products with variants (decision 112): a product has up to three options (Finish, Size, Battery)
 * with ordered values, and one variant per combination the owner offers, each what is bought: its own
 * SKU, barcode, prices, weight, stock, pictures and enabled flag. A product without options has one,
 * default, variant whose id is the product's. Money is minor units.
 */

export const MAX_OPTIONS = 3;
export const MAX_OPTION_VALUES = 100;
export const MAX_VARIANTS = 250;

/** A product id given where a variant is needed, for a product with several variants: choose one. */
export const VARIANT_REQUIRED = 'VARIANT_REQUIRED';
/** The variant named is disabled, removed, another product's or not there. */
export const VARIANT_UNAVAILABLE = 'VARIANT_UNAVAILABLE';
export const VARIANT_REFUSALS = [VARIANT_REQUIRED, VARIANT_UNAVAILABLE] as const;
export type VariantRefusal = (typeof VARIANT_REFUSALS)[number];

export const variantIdSchema = id('variantId');

const minor = (name: string) =>
  z
    .number({ error: `${name} must be a number` })
    .int(`${name} must be whole minor units`)
    .min(0, `${name} cannot be negative`)
    .max(MAX_PRICE_MINOR, `${name} is more than a price can be`);

const label = (name: string, max: number) =>
  z.string().trim().min(1, `${name} is required`).max(max, `${name} is longer than ${max} characters`);

/** A value of an option as the owner writes it; `valueId` absent for a new one. */
export const optionValueInputSchema = z.strictObject({
  valueId: id('valueId').optional(),
  label: label('a value', 60),
  /** A swatch for the picker: a colour (#rrggbb, lower case) or one of the product's pictures. */
  swatchColor: z
    .string()
    .regex(/^#[0-9a-f]{6}$/, 'a swatch colour is #rrggbb in lower case')
    .nullish(),
  swatchMediaId: z.string().nullish(),
});
export type OptionValueInput = z.infer<typeof optionValueInputSchema>;

export const variantOptionInputSchema = z
  .strictObject({
    optionId: id('optionId').optional(),
    name: label('an option name', 40),
    /**
     * Its place, 1 to 3, as the read answers it: when every option sent has one, the options are
     * written in that order; without it the order sent is the order.
     */
    position: z
      .number({ error: 'position must be a number' })
      .int('position must be a whole number')
      .min(1, 'position is 1 to 3')
      .max(MAX_OPTIONS, 'position is 1 to 3')
      .optional(),
    values: z
      .array(optionValueInputSchema)
      .min(1, 'an option needs a value')
      .max(MAX_OPTION_VALUES, `an option has at most ${MAX_OPTION_VALUES} values`),
  })
  .refine((o) => new Set(o.values.map((v) => v.label.toLowerCase())).size === o.values.length, {
    message: 'an option names each value once',
    path: ['values'],
  });
export type VariantOptionInput = z.infer<typeof variantOptionInputSchema>;

export const variantOptionsInputSchema = z
  .array(variantOptionInputSchema)
  .max(MAX_OPTIONS, `a product has at most ${MAX_OPTIONS} options`)
  .refine((os) => new Set(os.map((o) => o.name.toLowerCase())).size === os.length, {
    message: 'each option has its own name',
  })
  .refine(
    (os) =>
      os.every((o) => o.position === undefined) ||
      (os.every((o) => o.position !== undefined) && new Set(os.map((o) => o.position)).size === os.length),
    { message: 'give every option its own position, or none (then the order sent is the order)' },
  );

/** A variant as the owner writes it: its values are labels, one per option, in the options' order. */
export const variantInputSchema = z
  .strictObject({
    variantId: variantIdSchema.optional(),
    values: z.array(label('a value', 60)).max(MAX_OPTIONS),
    sku: z
      .string()
      .trim()
      .min(1, 'sku is required')
      .max(64, 'sku is longer than 64 characters')
      .regex(/^[A-Za-z0-9_.\-/]+$/, 'sku may hold only letters, digits and . _ - /'),
    barcode: z
      .string()
      .trim()
      .regex(/^[0-9]{8,14}$/, 'a barcode is 8 to 14 digits (GTIN, UPC or EAN)')
      .nullish(),
    listPrice: minor('listPrice'),
    salePrice: minor('salePrice').nullish(),
    weightGrams: z
      .number()
      .int('weightGrams must be whole grams')
      .min(0, 'weightGrams cannot be negative')
      .max(10_000_000, 'weightGrams is more than a parcel can weigh')
      .nullish(),
    enabled: z.boolean().default(true),
    imageIds: z.array(z.string()).max(20, 'a variant has at most 20 pictures').default([]),
  })
  .refine((v) => v.salePrice == null || v.salePrice <= v.listPrice, {
    message: 'salePrice cannot be more than listPrice',
    path: ['salePrice'],
  });
export type VariantInput = z.infer<typeof variantInputSchema>;

export const optionValueViewSchema = z.object({
  valueId: z.string(),
  label: z.string(),
  swatchColor: z.string().nullable(),
  swatchMediaId: z.string().nullable(),
});
export const variantOptionViewSchema = z.object({
  optionId: z.string(),
  name: z.string(),
  position: z.number().int(),
  values: z.array(optionValueViewSchema),
});
export type VariantOptionView = z.infer<typeof variantOptionViewSchema>;

export const variantViewSchema = z.object({
  variantId: z.string(),
  productId: z.string(),
  /** "Brass / Large"; '' for a default variant. */
  title: z.string(),
  /** The value ids, one per option in order. */
  valueIds: z.array(z.string()),
  sku: z.string(),
  barcode: z.string().nullable(),
  listPrice: z.number().int(),
  salePrice: z.number().int().nullable(),
  weightGrams: z.number().int().nullable(),
  stock: z.number().int().min(0).max(MAX_STOCK),
  enabled: z.boolean(),
  removed: z.boolean(),
  imageIds: z.array(z.string()),
});
export type VariantView = z.infer<typeof variantViewSchema>;

/** A variant's title from its value labels in the options' order: "Brass / Large"; '' without options. */
export function variantTitle(labels: readonly (string | null | undefined)[]): string {
  return labels
    .filter((l): l is string => !!l && l.trim() !== '')
    .map((l) => l.trim())
    .join(' / ');
}

/** "Pendant, Brass / Large", or the product's name alone for a default variant. */
export function variantDisplayName(productName: string, title: string): string {
  return title ? `${productName}, ${title}` : productName;
}
