import type { Cart } from '../cart';
import type { CartAction, CartActionOutcome } from '../storefront';

/** The cart, read and changed from the cart and product pages. */
export interface CartPages {
  cartSize(): Promise<number>;
  /** The request's cart (the account's, else the guest cookie's), priced now. */
  cart(): Promise<Cart>;
  /** One change to the cart, as the cart page's and product page's forms ask for it. */
  cartAction(action: CartAction): Promise<CartActionOutcome>;
}
