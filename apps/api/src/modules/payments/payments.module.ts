import { defineModule } from '../../lib/module';
import {
  type CardsService,
  cardsPages,
  cardsRoutes,
  createCardsService,
  createTestPaymentProvider,
  type PaymentProvider,
} from './cards/index';
import {
  createPaymentIssuesService,
  type PaymentIssuesService,
  paymentIssuesPages,
  paymentIssuesRoutes,
} from './issues/index';
import { createPayPalClient, type PayPalClient } from './paypal/index';

declare module '../../lib/module' {
  interface ModuleServices {
    /**
     * Saved cards and their provider; `paypal`: the platform's PayPal app, when configured;
     * `paymentIssues`: money PayPal reported that matches no order (decision 053), raised by the
     * webhooks and by checkout's PayPal housekeeping, both of which build after this module.
     */
    payments: { cards: CardsService; paypal: PayPalClient | undefined; paymentIssues: PaymentIssuesService };
  }
  interface BuildOptions {
    /** The card payment provider; by default the built-in test provider. */
    paymentProvider?: PaymentProvider;
  }
}

export const paymentsModule = defineModule({
  name: 'payments',
  needs: ['audit'],
  uses: ['addresses'],
  create: ({ db, config, options }, { audit }) => ({
    // The card provider is the built-in test provider unless the build names another.
    cards: createCardsService(db, options.paymentProvider ?? createTestPaymentProvider()),
    paypal:
      config.PAYPAL_BASE_URL && config.PAYPAL_CLIENT_ID && config.PAYPAL_CLIENT_SECRET
        ? createPayPalClient({
            baseUrl: config.PAYPAL_BASE_URL,
            clientId: config.PAYPAL_CLIENT_ID,
            clientSecret: config.PAYPAL_CLIENT_SECRET,
            partnerAttributionId: config.PAYPAL_BN_CODE,
          })
        : undefined,
    paymentIssues: createPaymentIssuesService(db, { audit }),
  }),
  async routes(app, { cards, paymentIssues }) {
    await app.register(cardsRoutes, { cards });
    await app.register(paymentIssuesRoutes, { issues: paymentIssues });
  },
  pages: ({ cards, addresses, paymentIssues }) => [
    cardsPages({ cards, addresses }),
    paymentIssuesPages({ issues: paymentIssues }),
  ],
});
