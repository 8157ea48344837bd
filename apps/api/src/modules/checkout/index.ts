export { checkoutModule } from './checkout.module';
export type { CheckoutService } from './checkout.service';
export { registerPayPalHousekeeping } from './paypal-housekeeping';
export { quote, shippingRate, taxRateFor } from './quote';
export { mailPaidReceipt, markPaidByPayPal, STUCK_ORDER_SWEEP, type SweepResult } from './stuck-orders';
