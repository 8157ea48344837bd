import type { IncomingHttpHeaders } from 'node:http';
import type { TenantContext } from '../../lib/context';
import { defineModule } from '../../lib/module';
import { cartPages } from './cart.pages';
import { cartRoutes, guestCartToken, mergeGuestCartOnLogin } from './cart.routes';
import { type CartService, createCartService } from './cart.service';

declare module '../../lib/module' {
  interface ModuleServices {
    /** The cart; a guest's cart token, and the merge of a guest's cart into the account on sign-in. */
    cart: {
      cart: CartService;
      guestCartToken: (headers: IncomingHttpHeaders) => string | null;
      mergeGuestCart: (ctx: TenantContext, headers: IncomingHttpHeaders, userId: string) => Promise<string[]>;
    };
  }
}

export const cartModule = defineModule({
  name: 'cart',
  needs: ['products'],
  // Buy again (its route and the cart page's action) reads the shopper's order; orders never uses the cart.
  uses: ['orders'],
  create({ db }, { products }) {
    const cart = createCartService(db, { products });
    return { cart, guestCartToken, mergeGuestCart: mergeGuestCartOnLogin(cart) };
  },
  routes: (app, { cart, orders }) => app.register(cartRoutes, { cart, orders }),
  pages: ({ cart, orders }) => [cartPages({ cart, orders })],
});
