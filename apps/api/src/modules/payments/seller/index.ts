export { ownSecretContext, type PaymentAccounts, type PayPalAccount } from './payment-accounts';
export { paypalSellerModule } from './paypal-seller.module';
export { transitionSeller } from './seller-state';
