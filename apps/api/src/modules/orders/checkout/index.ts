export { checkoutModule } from './checkout.module';
export type { CheckoutService } from './checkout.service';
export { flagPayPalCheckout } from './paypal-checkouts';
export { quote, taxRateFor } from './quote';
export { addStartingShippingMethods } from './starting-shipping';
export { mailPaidReceipt, markPaidByPayPal, STUCK_ORDER_SWEEP, type SweepResult } from './stuck-orders';
