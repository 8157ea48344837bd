export {
  createPaymentAccounts,
  environmentOf,
  ownSecretContext,
  type PaymentAccounts,
  type PayPalAccount,
  paypalBaseUrlFor,
} from './payment-accounts';
// Seller onboarding (issue 18 point 1): the service, its routes and the payments page.
export { OUTCOME_MESSAGES, paypalSellerPages } from './paypal-seller.pages';
export { PAYMENTS_PAGE, paypalSellerRoutes } from './paypal-seller.routes';
export {
  createSellerOnboarding,
  type SellerOnboarding,
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
