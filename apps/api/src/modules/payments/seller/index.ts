export {
  createPaymentAccounts,
  environmentOf,
  ownSecretContext,
  type PaymentAccounts,
  type PayPalAccount,
  paypalBaseUrlFor,
} from './payment-accounts';
// PP_CONFIG: the store's PayPal settings and its own app (decision 051).
export { paypalConfigPages } from './paypal-config.pages';
export { paypalConfigRoutes } from './paypal-config.routes';
export {
  type CredentialCheck,
  checkPayPalCredentials,
  createPaypalConfigService,
  PAYPAL_REFUSED_MESSAGE,
  type PaypalConfigService,
} from './paypal-config.service';
export { paypalSellerModule } from './paypal-seller.module';
// Seller onboarding: the service, its routes and the payments page.
export { OUTCOME_MESSAGES, paypalSellerPages } from './paypal-seller.pages';
export { PAYMENTS_PAGE, paypalSellerRoutes } from './paypal-seller.routes';
export {
  createSellerOnboarding,
  type SellerOnboarding,
  type SellerOnboardingRefusal,
  type SellerOutcome,
} from './seller-onboarding';
export {
  lockSeller,
  SELLER_TRANSITIONS,
  type SellerChange,
  type SellerRow,
  type SellerTransitionResult,
  trackingIdFor,
  transitionSeller,
} from './seller-state';
