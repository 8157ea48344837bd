export { orderListModule } from './order-list.module';
export { createOrderListService } from './order-list.service';
