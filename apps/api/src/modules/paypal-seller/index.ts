export {
  createPaymentAccounts,
  environmentOf,
  ownSecretContext,
  type PaymentAccounts,
  type PayPalAccount,
  paypalBaseUrlFor,
} from './payment-accounts';
export {
  lockSeller,
  SELLER_TRANSITIONS,
  type SellerChange,
  type SellerRow,
  type SellerTransitionResult,
  trackingIdFor,
  transitionSeller,
} from './seller-state';
