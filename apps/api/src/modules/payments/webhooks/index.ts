export { paypalWebhooksModule } from './paypal-webhooks.module';
export { PAYPAL_WEBHOOK_PATH, paypalWebhookRoutes, WEBHOOK_BODY_LIMIT_BYTES } from './paypal-webhooks.routes';
export {
  createPayPalWebhookService,
  type PayPalWebhookService,
  type SellerOnboardingConfirmer,
  TRANSMISSION_MAX_AGE_MS,
  type WebhookOutcome,
} from './paypal-webhooks.service';
