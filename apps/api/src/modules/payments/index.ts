export { cardsRoutes } from './cards.routes';
export { type CardsService, createCardsService } from './cards.service';
export type { PaymentProvider } from './provider';
export { createTestPaymentProvider, TEST_CARDS } from './test-provider';
