// The payments domain (decision 111): cards and the payment port (cards/), the platform's PayPal
// client (paypal/), money PayPal reported that matches no order (issues/), a store's PayPal seller
// account and settings (seller/, decisions 049 and 051), and PayPal's webhooks (webhooks/, decision
// 053). Each sub-folder's index.ts is what its siblings import; other modules import this file only.
// The webhooks are left out of it: they mark orders paid, so they import the orders domain, which
// imports this file.
export {
  type CardsService,
  createCardsService,
  createTestPaymentProvider,
  type PaymentProvider,
  type RefundRequest,
  type RefundResult,
  TEST_CARDS,
} from './cards/index';
export { paymentsModule } from './payments.module';
export { createPayPalClient, type PayPalClient } from './paypal/index';
export { ownSecretContext, type PaymentAccounts, type PayPalAccount, transitionSeller } from './seller/index';
export {
  type StripeAccount,
  type StripeCheckoutRow,
  type StripeService,
  signStripePayload,
  stripeModule,
} from './stripe/index';
