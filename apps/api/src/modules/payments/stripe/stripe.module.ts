import { defineModule } from '../../../lib/module';
import { stripePages } from './stripe.pages';
import { stripeRoutes } from './stripe.routes';
import { createStripeService, type StripeService } from './stripe.service';

declare module '../../../lib/module' {
  interface ModuleServices {
    /** Stores' own Stripe accounts, the sessions of checkouts paid through them, their webhook events (decision 118). */
    stripe: { stripe: StripeService };
  }
  interface BuildOptions {
    /** Shorter per-request timeout towards Stripe (tests of a Stripe that hangs). */
    stripeTimeoutMs?: number;
  }
}

export const stripeModule = defineModule({
  name: 'stripe',
  needs: ['audit'],
  create: ({ db, config, events, secrets, options }, { audit }) => ({
    stripe: createStripeService(db, {
      secrets,
      audit,
      events,
      baseUrl: config.STRIPE_BASE_URL ?? 'https://api.stripe.com',
      ...(options.stripeTimeoutMs ? { timeoutMs: options.stripeTimeoutMs } : {}),
    }),
  }),
  routes: (app, { stripe }) => app.register(stripeRoutes, { stripe }),
  pages: ({ stripe }) => [stripePages({ stripe })],
  events: ({ stripe }) => ({
    'payments.changed': ({ tenantId }) => stripe.forget(tenantId),
    'events.missed': () => stripe.clear(),
  }),
});
