export { canTransition, ORDER_TRANSITIONS, STATUS_LABELS } from './order-state';
export { ordersPages } from './orders.pages';
export { ordersRoutes } from './orders.routes';
export { createOrdersService, type OrdersService } from './orders.service';
