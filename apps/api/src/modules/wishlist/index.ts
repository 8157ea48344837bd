export { wishlistModule } from './wishlist.module';
export { carryWishlistItem, wishlistPages } from './wishlist.pages';
export { wishlistRoutes } from './wishlist.routes';
export { createWishlistService, type WishlistService } from './wishlist.service';
