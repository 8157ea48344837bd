import { defineModule } from '../../lib/module';
import { carryWishlistItem, wishlistPages } from './wishlist.pages';
import { wishlistRoutes } from './wishlist.routes';
import { createWishlistService, type WishlistService } from './wishlist.service';

declare module '../../lib/module' {
  interface ModuleServices {
    /** The wishlist; `carryWishlist` saves the item a guest chose before signing in. */
    wishlist: { wishlist: WishlistService; carryWishlist: ReturnType<typeof carryWishlistItem> };
  }
}

export const wishlistModule = defineModule({
  name: 'wishlist',
  needs: ['cart', 'inventory'],
  create({ db }, { cart, thresholds }) {
    const wishlist = createWishlistService(db, { cart, lowStockThreshold: thresholds.get });
    return { wishlist, carryWishlist: carryWishlistItem(wishlist) };
  },
  routes: (app, { wishlist, cart }) => app.register(wishlistRoutes, { wishlist, cart }),
  pages: ({ wishlist }) => [wishlistPages({ wishlist })],
});
