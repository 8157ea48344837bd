import { defineModule } from '../../../lib/module';
import { orderListPages } from './order-list.pages';
import { orderListRoutes } from './order-list.routes';
import { createOrderListService, type OrderListService } from './order-list.service';

declare module '../../../lib/module' {
  interface ModuleServices {
    'order-list': { orderList: OrderListService };
  }
}

export const orderListModule = defineModule({
  name: 'order-list',
  needs: ['audit'],
  create: ({ db }, { audit }) => ({ orderList: createOrderListService(db, { audit }) }),
  routes: (app, { orderList }) => app.register(orderListRoutes, { orderList }),
  pages: ({ orderList }) => [orderListPages({ orderList })],
});
