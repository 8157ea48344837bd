import { defineModule } from '../../../lib/module';
import { orderAdminPages } from './order-admin.pages';
import { orderAdminRoutes } from './order-admin.routes';
import { createOrderAdminService, type OrderAdminService } from './order-admin.service';

declare module '../../../lib/module' {
  interface ModuleServices {
    /** The store side of one order: its page and actions (fulfil, deliver, cancel, refund, invoice). */
    'order-admin': { orderAdmin: OrderAdminService };
  }
}

export const orderAdminModule = defineModule({
  name: 'order-admin',
  needs: ['orders', 'audit', 'mail', 'store'],
  create: ({ db, events, linkOrigin }, { refunds, orders, audit, mailer, store, invoices }) => ({
    orderAdmin: createOrderAdminService(db, { refunds, orders, audit, events, mailer, store, invoices, linkOrigin }),
  }),
  routes: (app, { orderAdmin }) => app.register(orderAdminRoutes, { orderAdmin }),
  pages: ({ orderAdmin }) => [orderAdminPages({ orderAdmin })],
});
