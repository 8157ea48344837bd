export { createInvoiceRenderer, defaultInvoiceWorkers, type InvoiceRenderer } from './invoice-pdf-pool';
export { canTransition, ORDER_TRANSITIONS, STATUS_LABELS } from './order-state';
export {
  historyActor,
  type OrderRow,
  type TransitionOptions,
  type TransitionResult,
  transitionOrder,
  transitionRefused,
} from './order-transition';
export { ordersPages } from './orders.pages';
export { ordersRoutes } from './orders.routes';
export { createOrdersService, type OrderReturnsReader, type OrdersService } from './orders.service';
