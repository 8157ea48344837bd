export { cardsPages } from './cards.pages';
export { cardsRoutes } from './cards.routes';
export { type CardsService, createCardsService } from './cards.service';
export { paymentsModule } from './payments.module';
export { createPayPalClient, type PayPalClient, type PayPalConfig, paypalAmountMinor } from './paypal-client';
export type { PaymentProvider, RefundRequest, RefundResult } from './provider';
export { createTestPaymentProvider, TEST_CARDS } from './test-provider';
