export { wishlistRoutes } from './wishlist.routes';
export { createWishlistService, type WishlistService } from './wishlist.service';
