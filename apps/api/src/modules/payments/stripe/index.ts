// A store's own Stripe account (decision 118): the client, the account and its checkout sessions.
// The webhook and the shopper's way back confirm orders, so they live in webhook/, which imports the
// orders domain (as PayPal's webhooks do); this file is what the payments domain's index exports.

export { stripeModule } from './stripe.module';
export type { StripeAccount, StripeCheckoutRow, StripeService } from './stripe.service';
export { createStripeClient, type StripeClient, signStripePayload, verifyStripeSignature } from './stripe-client';
