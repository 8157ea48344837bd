export {
  CART_COOKIE,
  cartCookie,
  cartOwner,
  cartRoutes,
  clearedCartCookie,
  mergeGuestCartOnLogin,
} from './cart.routes';
export { type CartOwner, type CartService, createCartService } from './cart.service';
export { evaluatePromo } from './promo';
