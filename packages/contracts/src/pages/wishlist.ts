import type { WishlistAction, WishlistActionOutcome } from '../storefront';
import type { Wishlist } from '../wishlist';

/** The signed-in shopper's wishlist. */
export interface WishlistPages {
  /** The signed-in shopper's wishlist, priced now; empty for a guest. */
  wishlist(): Promise<Wishlist>;
  /** The product ids on the signed-in shopper's wishlist (header count, hearts); none for a guest. */
  wishlistProductIds(): Promise<string[]>;
  /** One change to the wishlist, as the wishlist page's forms and the hearts ask for it. */
  wishlistAction(action: WishlistAction): Promise<WishlistActionOutcome>;
}
