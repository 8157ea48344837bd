export { invoiceData } from './invoice-data';
export { createInvoiceRenderer, defaultInvoiceWorkers, type InvoiceRenderer } from './invoice-pdf-pool';
export { type OrderEventInput, recordOrderEvent } from './order-events';
export {
  createOrderRefunds,
  type OrderRefundDeps,
  type OrderRefunds,
  type RefundInput,
  type RefundOutcome,
  type RefundRefusal,
  refundRefused,
  refundView,
} from './order-refund';
export { canTransition, ORDER_TRANSITIONS, STATUS_LABELS } from './order-state';
export {
  historyActor,
  type OrderHistoryRow,
  type OrderRow,
  type TransitionOptions,
  type TransitionRefusal,
  type TransitionResult,
  transitionOrder,
  transitionRefused,
} from './order-transition';
export { ordersModule } from './orders.module';
export { ordersPages } from './orders.pages';
export { ordersRoutes } from './orders.routes';
export { createOrdersService, type OrderReturnsReader, type OrdersService } from './orders.service';
