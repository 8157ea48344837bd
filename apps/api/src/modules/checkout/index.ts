export { buyerOf, checkoutRoutes } from './checkout.routes';
export { type Buyer, type CheckoutService, createCheckoutService } from './checkout.service';
