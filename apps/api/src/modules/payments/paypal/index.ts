export { createPayPalClient, type PayPalClient, type PayPalConfig, paypalAmountMinor } from './paypal-client';
