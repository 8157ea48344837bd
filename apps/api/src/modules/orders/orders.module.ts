import { defineModule } from '../../lib/module';
import { createInvoiceRenderer, type InvoiceRenderer } from './invoice/index';
import { createOrderRefunds, type OrderRefunds } from './order-refund';
import { ordersPages } from './orders.pages';
import { ordersRoutes } from './orders.routes';
import { createOrdersService, type OrdersService } from './orders.service';

declare module '../../lib/module' {
  interface ModuleServices {
    /** Orders, their invoices, and `refunds`: the one way money goes back to a shopper. */
    orders: { orders: OrdersService; invoices: InvoiceRenderer; refunds: OrderRefunds };
  }
}

export const ordersModule = defineModule({
  name: 'orders',
  needs: ['payments', 'paypal-seller', 'audit'],
  // Returns depend on orders, never the reverse: an order's returns are read through the returns module.
  uses: ['returns', 'store'],
  // A store's own Stripe account refunds the orders paid through it (decision 118).
  optional: ['stripe'],
  create: ({ db, config, events, sessionSecret }, { cards, paymentAccounts, audit }, later) => ({
    orders: createOrdersService(db, {
      secret: sessionSecret,
      returnsOf: (...args) => later().orderReturns(...args),
    }),
    // Invoices render in worker threads, off the event loop every store shares (decision 024).
    invoices: createInvoiceRenderer({ workers: config.INVOICE_PDF_WORKERS, queue: config.INVOICE_PDF_QUEUE, db }),
    refunds: createOrderRefunds(db, {
      provider: cards.provider,
      paymentAccounts,
      audit,
      events,
      otherProvider: (id) => (id === 'stripe' ? later().stripe : undefined),
    }),
  }),
  routes: (app, { orders, store, invoices }) => app.register(ordersRoutes, { orders, store, invoices }),
  pages: ({ orders }) => [ordersPages({ orders })],
  // Started with the server so the first invoice does not wait for a worker to compile; tests start them on use.
  onReady: ({ invoices }, { config }) => (config.NODE_ENV === 'test' ? undefined : invoices.warm()),
  onClose: ({ invoices }) => invoices.close(),
});
