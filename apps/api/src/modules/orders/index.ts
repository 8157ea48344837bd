// The orders domain (decision 111): an order's life from checkout to its returns, for the shopper and
// the store. The order itself (its state machine, refunds, events, the shopper's order pages) sits
// at this folder's top, its invoices in invoice/; the flows and screens around it in sub-folders:
// checkout/ (cart to paid order, PayPal's checkout, the sweep of stuck orders, shipping and tax
// tables), admin/ (the owner's order page), list/ (the owner's order list, saved views, CSV),
// returns/ (the shopper's return requests) and return-admin/ (the owner's returns). Each
// sub-folder's index.ts is what its siblings import; other modules import this file only.
export {
  addStartingShippingMethods,
  type CheckoutService,
  flagPayPalCheckout,
  mailPaidReceipt,
  markPaidByPayPal,
  STUCK_ORDER_SWEEP,
  type SweepResult,
} from './checkout/index';
export { createOrderListService } from './list/index';
export { recordOrderEvent } from './order-events';
export { transitionOrder } from './order-transition';
export { ordersModule } from './orders.module';
export type { OrdersService } from './orders.service';
