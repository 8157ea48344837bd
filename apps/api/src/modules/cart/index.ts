export { cartModule } from './cart.module';
export { cartPages } from './cart.pages';
export {
  CART_COOKIE,
  cartCookie,
  cartRoutes,
  clearedCartCookie,
  guestCartToken,
  mergeGuestCartOnLogin,
} from './cart.routes';
export { type CartOwner, type CartService, cartOwnerOf, createCartService } from './cart.service';
export { cartEmptiedAlong } from './cart-emptied';
export { evaluatePromo } from './promo';
