export { createPayPalClient, type PayPalClient, paypalAmountMinor } from './paypal-client';
