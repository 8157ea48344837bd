export { checkoutPages } from './checkout.pages';
export { checkoutRoutes } from './checkout.routes';
export { type Buyer, buyerOf, type CheckoutService, createCheckoutService } from './checkout.service';
export { quote, shippingRate, shipsTo, taxRateFor } from './quote';
export {
  mailPaidReceipt,
  markPaidByPayPal,
  registerStuckOrderSweep,
  STUCK_ORDER_SWEEP,
  type SweepResult,
} from './stuck-orders';
