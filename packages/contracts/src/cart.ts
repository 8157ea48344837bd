import { z } from 'zod';
import { variantIdSchema } from './variants';

/** A cart line holds at most this many of one product (and configuration). */
export const MAX_LINE_QUANTITY = 99;
/** A cart holds at most this many lines. */
export const MAX_CART_LINES = 50;

const quantity = z
  .number({ error: 'quantity must be a whole number' })
  .int('quantity must be a whole number')
  .min(1, 'quantity must be at least 1')
  .max(MAX_LINE_QUANTITY, `quantity is at most ${MAX_LINE_QUANTITY}`);
const productId = z.string().trim().min(1, 'productId is required').max(64);

/**
 * What a line is of (decision 112): a variant by its id, or a product by its id when it has one
 * variant to sell. Either is enough; both given must name the same product (the service checks, 422).
 */
const whatIsBought = {
  productId: productId.optional(),
  variantId: variantIdSchema.optional(),
};
const namesSomething = { message: 'productId or variantId is required', path: ['productId'] };
const named = (v: { productId?: string; variantId?: string }) => v.productId !== undefined || v.variantId !== undefined;

/** POST /public/ecommerce/product/addToCart. Prices never come from the client. */
export const addToCartSchema = z
  .strictObject({
    ...whatIsBought,
    quantity: quantity.default(1),
  })
  .refine(named, namesSomething);
export type AddToCart = z.infer<typeof addToCartSchema>;

/** POST /crmsfa/orders/addConfigItemsToCart: a configurable product with one choice per option. */
export const addConfigToCartSchema = z
  .strictObject({
    ...whatIsBought,
    quantity: quantity.default(1),
    selections: z.record(z.string().max(64), z.string().max(64)),
  })
  .refine(named, namesSomething);
export type AddConfigToCart = z.infer<typeof addConfigToCartSchema>;

/** PUT /public/ecommerce/cart/modifycart: a new quantity for a line. */
export const modifyCartSchema = z.strictObject({
  lineId: z.string().trim().min(1, 'lineId is required').max(64),
  quantity,
});
export type ModifyCart = z.infer<typeof modifyCartSchema>;

export const cartLineQuerySchema = z.strictObject({
  lineId: z.string().trim().min(1, 'lineId is required').max(64),
});

export const promoCodeRequestSchema = z.strictObject({
  promoCode: z
    .string()
    .trim()
    .min(1, 'Please enter a promo code.')
    .max(40, 'That promo code is too long.')
    .transform((v) => v.toUpperCase()),
});

export const cartLineSchema = z.object({
  lineId: z.string(),
  productId: z.string(),
  /** The variant bought; a product without options has one, whose id is the product's. */
  variantId: z.string(),
  /** "Brass / Large"; '' for a default variant. */
  variantTitle: z.string(),
  sku: z.string(),
  productName: z.string(),
  slug: z.string(),
  imageUrl: z.string().nullable(),
  /** "Finish: Brass, Length: 24 in" for a configured product. */
  optionsText: z.string().nullable(),
  quantity: z.number().int(),
  unitPrice: z.number().int(),
  /** The list price when the product is on sale, for a struck-through price. */
  listUnitPrice: z.number().int().nullable(),
  lineTotal: z.number().int(),
  /** The variant's stock. */
  stockQuantity: z.number().int(),
  /**
   * Set when the line cannot be bought as it is (out of stock, fewer left than asked, the variant
   * disabled or removed).
   */
  problem: z.string().nullable(),
});
export type CartLine = z.infer<typeof cartLineSchema>;

export const cartSchema = z.object({
  currency: z.string(),
  lines: z.array(cartLineSchema),
  /** The header badge reads data.cart.shoppingCartSize (the number of items). */
  shoppingCartSize: z.number().int(),
  subtotal: z.number().int(),
  discount: z.number().int(),
  promo: z.object({ code: z.string(), description: z.string() }).nullable(),
  /** Why a promo code on the cart does not apply right now (minimum not reached, expired). */
  promoProblem: z.string().nullable(),
  /** Subtotal less discount; shipping and tax come at checkout. */
  total: z.number().int(),
  /** Weight of the goods, for weight-based shipping. */
  weightGrams: z.number().int(),
});
export type Cart = z.infer<typeof cartSchema>;
