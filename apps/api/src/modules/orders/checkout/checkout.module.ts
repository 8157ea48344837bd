import { defineModule } from '../../../lib/module';
import { checkoutPages } from './checkout.pages';
import { checkoutRoutes } from './checkout.routes';
import { type CheckoutService, createCheckoutService } from './checkout.service';
import { type CheckoutTables, createCheckoutTables } from './checkout-tables';
import { registerPayPalHousekeeping } from './paypal-housekeeping';
import { registerStuckOrderSweep } from './stuck-orders';

declare module '../../../lib/module' {
  interface ModuleServices {
    /** Checkout (tests call its page functions) and the store tables it reads (shipping, tax). */
    checkout: { checkout: CheckoutService; checkoutTables: CheckoutTables };
  }
}

export const checkoutModule = defineModule({
  name: 'checkout',
  needs: ['paypal-seller', 'addresses', 'cart', 'orders', 'payments', 'mail', 'jobs', 'shipping'],
  // Live carrier rates (decision 117) and stores' own Stripe accounts (decision 118), when booted.
  optional: ['carriers', 'stripe'],
  create({ db, log, linkOrigin, events, config, options }, deps, later) {
    const { paymentAccounts, addresses, cart, orders, cards, paymentIssues, mailer, jobs, shipping } = deps;
    const checkoutTables = createCheckoutTables(db);
    const checkout = createCheckoutService(db, {
      tables: checkoutTables,
      shipping,
      paymentAccounts,
      addresses,
      cart,
      orders,
      cards,
      mailer,
      log,
      linkOrigin,
      events,
      liveRates: () => later().liveRates,
      stripe: () => later().stripe,
    });
    registerStuckOrderSweep(db, {
      jobs,
      checkout,
      orders,
      paymentAccounts,
      log,
      afterMinutes: config.STUCK_ORDER_MINUTES,
      dailyAtUtc: config.NIGHTLY_JOBS_AT,
      startupDelayMs: options.jobs?.startupSweepDelayMs,
      events,
    });
    // PayPal checkouts the shopper never came back from: closed, or flagged as a payment issue when
    // PayPal has the money.
    registerPayPalHousekeeping(db, {
      jobs,
      paymentAccounts,
      issues: paymentIssues,
      log,
      dailyAtUtc: config.NIGHTLY_JOBS_AT,
      startupDelayMs: options.jobs?.startupSweepDelayMs,
    });
    return { checkout, checkoutTables };
  },
  routes: (app, { checkout, addresses, cards }) => app.register(checkoutRoutes, { checkout, addresses, cards }),
  pages: ({ checkout, addresses, cards }) => [checkoutPages({ checkout, addresses, cards })],
  events: ({ checkoutTables }) => ({
    'settings.changed': ({ tenantId }) => checkoutTables.forget(tenantId),
    'events.missed': () => checkoutTables.clear(),
  }),
});
