export { paypalWebhooksModule } from './paypal-webhooks.module';
