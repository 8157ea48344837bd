import { defineModule } from '../../lib/module';
import { cardsPages } from './cards.pages';
import { cardsRoutes } from './cards.routes';
import { type CardsService, createCardsService } from './cards.service';
import { createPayPalClient, type PayPalClient } from './paypal-client';
import type { PaymentProvider } from './provider';
import { createTestPaymentProvider } from './test-provider';

declare module '../../lib/module' {
  interface ModuleServices {
    /** Saved cards and their provider; `paypal`: the platform's PayPal app, when configured. */
    payments: { cards: CardsService; paypal: PayPalClient | undefined };
  }
  interface BuildOptions {
    /** The card payment provider; by default the built-in test provider. */
    paymentProvider?: PaymentProvider;
  }
}

export const paymentsModule = defineModule({
  name: 'payments',
  needs: [],
  uses: ['addresses'],
  create: ({ db, config, options }) => ({
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
  }),
  routes: (app, { cards }) => app.register(cardsRoutes, { cards }),
  pages: ({ cards, addresses }) => [cardsPages({ cards, addresses })],
});
