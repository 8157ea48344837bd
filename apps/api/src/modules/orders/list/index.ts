export { orderListModule } from './order-list.module';
export { orderListPages } from './order-list.pages';
export { orderListRoutes } from './order-list.routes';
export { createOrderListService, ORDER_CSV_COLUMNS, type OrderListService } from './order-list.service';
