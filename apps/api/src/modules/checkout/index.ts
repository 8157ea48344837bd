export { buyerOf, checkoutRoutes } from './checkout.routes';
export { type Buyer, type CheckoutService, createCheckoutService } from './checkout.service';
export { registerStuckOrderSweep, STUCK_ORDER_SWEEP, type SweepResult } from './stuck-orders';
