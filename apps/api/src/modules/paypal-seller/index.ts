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
export {
  lockSeller,
  SELLER_TRANSITIONS,
  type SellerChange,
  type SellerRow,
  type SellerTransitionResult,
  trackingIdFor,
  transitionSeller,
} from './seller-state';
