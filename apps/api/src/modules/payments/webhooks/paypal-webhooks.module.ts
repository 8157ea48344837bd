import { defineModule } from '../../../lib/module';
import { paypalWebhookRoutes } from './paypal-webhooks.routes';
import { createPayPalWebhookService, type PayPalWebhookService } from './paypal-webhooks.service';

declare module '../../../lib/module' {
  interface ModuleServices {
    /** PayPal's webhooks (decision 053); the payments they report that match no order are the payments module's issues. */
    'paypal-webhooks': { paypalWebhooks: PayPalWebhookService };
  }
}

export const paypalWebhooksModule = defineModule({
  name: 'paypal-webhooks',
  // After checkout and orders: a capture PayPal reports marks an order paid through them.
  needs: ['payments', 'paypal-seller', 'orders', 'checkout'],
  create({ db, log, linkOrigin, events, config, stores }, deps) {
    const { paymentAccounts, sellerOnboarding, orders, checkout, paymentIssues } = deps;
    const paypalWebhooks = createPayPalWebhookService(db, {
      paymentAccounts,
      webhookId: config.PAYPAL_WEBHOOK_ID,
      platformBaseUrl: config.PAYPAL_BASE_URL,
      events,
      issues: paymentIssues,
      orders,
      checkout,
      log,
      linkOrigin,
      onboarding: () => sellerOnboarding,
      inStore: (tenantId, work) => stores.within(tenantId, work),
      movedDatabases: () =>
        [...stores.movedStores().keys()].flatMap((name) => {
          const moved = stores.get(name);
          return moved ? [moved.db] : [];
        }),
    });
    return { paypalWebhooks };
  },
  routes: (app, { paypalWebhooks }) => app.register(paypalWebhookRoutes, { webhooks: paypalWebhooks }),
});
