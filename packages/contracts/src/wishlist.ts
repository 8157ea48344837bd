import { z } from 'zod';

/**
 * A wishlist holds at most this many products: enough for any real shopper, and it keeps the list
 * (priced on every read) and the ids the pages carry for the hearts small.
 */
export const MAX_WISHLIST_ITEMS = 200;

/** The same id rule as the product pages: a hand-made id with other characters is a 400, not a query. */
export const wishlistProductIdSchema = z
  .string({ error: 'productId is required' })
  .trim()
  .min(1, 'productId is required')
  .max(64, 'productId is longer than 64 characters')
  .regex(/^[A-Za-z0-9_.-]+$/, 'productId has characters an id cannot have');

/** POST /ecommerce/wishlist/items. */
export const wishlistAddSchema = z.strictObject({ productId: wishlistProductIdSchema });
export type WishlistAdd = z.infer<typeof wishlistAddSchema>;

/** The `:productId` of DELETE /ecommerce/wishlist/items/:productId and its movetocart. */
export const wishlistItemParamsSchema = z.strictObject({ productId: wishlistProductIdSchema });

export const wishlistItemSchema = z.object({
  productId: z.string(),
  productName: z.string(),
  slug: z.string(),
  brandName: z.string().nullable(),
  imageUrl: z.string().nullable(),
  /** What the shopper pays now: the sale price when there is one. */
  price: z.number().int(),
  /** The list price when the product is on sale, for a struck-through price. */
  listPrice: z.number().int().nullable(),
  inStock: z.boolean(),
  /** Only when few are left ("Only 3 left"); null otherwise. */
  lowStock: z.number().int().nullable(),
  /** Options must be chosen on the product page: such an item cannot be moved to the cart as it is. */
  configurable: z.boolean(),
  /** False when the store took the product off sale (draft or archived): shown, but not buyable. */
  available: z.boolean(),
  addedAt: z.string(),
});
export type WishlistItem = z.infer<typeof wishlistItemSchema>;

export const wishlistSchema = z.object({
  currency: z.string(),
  /** Newest first. */
  items: z.array(wishlistItemSchema),
  /** The header badge's number. */
  count: z.number().int(),
});
export type Wishlist = z.infer<typeof wishlistSchema>;
