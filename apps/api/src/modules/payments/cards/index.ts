export { cardsPages } from './cards.pages';
export { cardsRoutes } from './cards.routes';
export { type CardsService, createCardsService } from './cards.service';
export type { PaymentProvider, RefundRequest, RefundResult } from './provider';
export { createTestPaymentProvider, TEST_CARDS } from './test-provider';
