export { stripeCheckoutModule } from './stripe-checkout.module';
export { STRIPE_WEBHOOK_PATH } from './stripe-webhook.routes';
