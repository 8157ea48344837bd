import { defineModule } from '../../../lib/module';
import { createPaymentAccounts, type PaymentAccounts } from './payment-accounts';
import { paypalConfigPages } from './paypal-config.pages';
import { paypalConfigRoutes } from './paypal-config.routes';
import { createPaypalConfigService, type PaypalConfigService } from './paypal-config.service';
import { paypalSellerPages } from './paypal-seller.pages';
import { paypalSellerRoutes } from './paypal-seller.routes';
import { createSellerOnboarding, type SellerOnboarding } from './seller-onboarding';

declare module '../../../lib/module' {
  interface ModuleServices {
    /**
     * Whose PayPal account each store's checkout pays into (decision 049), the seller onboarding
     * that connects one, and PayPal on or off per store with its own app (decision 051).
     */
    'paypal-seller': {
      paymentAccounts: PaymentAccounts;
      sellerOnboarding: SellerOnboarding;
      paypalConfig: PaypalConfigService;
    };
  }
}

export const paypalSellerModule = defineModule({
  name: 'paypal-seller',
  needs: ['payments', 'audit'],
  uses: ['auth'],
  create({ db, config, events, secrets }, { paypal, audit }) {
    const paymentAccounts = createPaymentAccounts(db, {
      platform: paypal,
      platformBaseUrl: config.PAYPAL_BASE_URL,
      partnerId: config.PAYPAL_PARTNER_ID,
      partnerAttributionId: config.PAYPAL_BN_CODE,
      secrets,
    });
    return {
      paymentAccounts,
      sellerOnboarding: createSellerOnboarding(db, { paymentAccounts, audit, events }),
      paypalConfig: createPaypalConfigService(db, {
        audit,
        events,
        secrets,
        platformBaseUrl: config.PAYPAL_BASE_URL,
        defaultEnvironment: paymentAccounts.environment,
      }),
    };
  },
  async routes(app, { sellerOnboarding, paypalConfig, auth }) {
    await app.register(paypalSellerRoutes, { onboarding: sellerOnboarding, csrf: auth.csrf });
    await app.register(paypalConfigRoutes, { paypalConfig });
  },
  pages: ({ sellerOnboarding, paypalConfig }) => [
    paypalSellerPages({ onboarding: sellerOnboarding }),
    paypalConfigPages({ paypalConfig }),
  ],
  events: ({ paymentAccounts }) => ({
    'payments.changed': ({ tenantId }) => paymentAccounts.forget(tenantId),
  }),
});
