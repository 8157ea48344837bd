import { defineModule } from '../../../../lib/module';
import { stripeCheckoutRoutes } from './stripe-checkout.routes';
import { stripeReturnPages } from './stripe-return.pages';
import { stripeWebhookRoutes } from './stripe-webhook.routes';
import { createStripeWebhookService, type StripeWebhookService } from './stripe-webhook.service';

declare module '../../../../lib/module' {
  interface ModuleServices {
    /** Stripe's webhook and the shopper's way back from Stripe's page: both confirm orders (decision 118). */
    'stripe-checkout': { stripeWebhooks: StripeWebhookService };
  }
}

export const stripeCheckoutModule = defineModule({
  name: 'stripe-checkout',
  // After checkout: a paid session confirms its order through it.
  needs: ['stripe', 'checkout', 'tenant'],
  create: ({ log, stores }, { stripe, checkout, tenants }) => ({
    stripeWebhooks: createStripeWebhookService({
      stripe,
      checkout,
      tenants,
      log,
      inStore: (tenantId, work) => stores.within(tenantId, work),
    }),
  }),
  async routes(app, { stripeWebhooks, checkout }) {
    await app.register(stripeWebhookRoutes, { webhooks: stripeWebhooks });
    await app.register(stripeCheckoutRoutes, { checkout });
  },
  pages: ({ checkout }) => [stripeReturnPages({ checkout })],
});
