export { checkoutModule } from './checkout.module';
export { checkoutPages } from './checkout.pages';
export { checkoutRoutes } from './checkout.routes';
export { type Buyer, buyerOf, type CheckoutService, createCheckoutService } from './checkout.service';
export { type CheckoutTables, createCheckoutTables } from './checkout-tables';
export {
  type HousekeepingResult,
  PAYPAL_CHECKOUT_STALE_HOURS,
  PAYPAL_HOUSEKEEPING,
  registerPayPalHousekeeping,
} from './paypal-housekeeping';
export { quote, shippingRate, shipsTo, taxRateFor } from './quote';
export {
  mailPaidReceipt,
  markPaidByPayPal,
  registerStuckOrderSweep,
  STUCK_ORDER_SWEEP,
  type SweepResult,
} from './stuck-orders';
