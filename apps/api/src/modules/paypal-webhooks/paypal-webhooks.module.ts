import { defineModule } from '../../lib/module';
import { registerPayPalHousekeeping } from '../checkout/index';
import { paymentIssuesPages } from './payment-issues.pages';
import { createPaymentIssuesService, type PaymentIssuesService } from './payment-issues.service';
import { paypalWebhookRoutes } from './paypal-webhooks.routes';
import { createPayPalWebhookService, type PayPalWebhookService } from './paypal-webhooks.service';

declare module '../../lib/module' {
  interface ModuleServices {
    /** PayPal's webhooks, and the payments they report that match no order (decision 053). */
    'paypal-webhooks': { paypalWebhooks: PayPalWebhookService; paymentIssues: PaymentIssuesService };
  }
}

export const paypalWebhooksModule = defineModule({
  name: 'paypal-webhooks',
  needs: ['paypal-seller', 'jobs', 'orders', 'checkout', 'audit'],
  create({ db, log, linkOrigin, events, config, options }, deps) {
    const { paymentAccounts, sellerOnboarding, jobs, orders, checkout, audit } = deps;
    const paymentIssues = createPaymentIssuesService(db, { audit });
    // PayPal checkouts the shopper never came back from: closed, or flagged when PayPal has the money.
    registerPayPalHousekeeping(db, {
      jobs,
      paymentAccounts,
      issues: paymentIssues,
      log,
      dailyAtUtc: config.NIGHTLY_JOBS_AT,
      startupDelayMs: options.jobs?.startupSweepDelayMs,
    });
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
    });
    return { paypalWebhooks, paymentIssues };
  },
  routes: (app, { paypalWebhooks, paymentIssues }) =>
    app.register(paypalWebhookRoutes, { webhooks: paypalWebhooks, issues: paymentIssues }),
  pages: ({ paymentIssues }) => [paymentIssuesPages({ issues: paymentIssues })],
});
