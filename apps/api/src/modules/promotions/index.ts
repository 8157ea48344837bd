export { givePromoUsesBack, recordPromoRedemption, takePromoUse } from './promo-uses';
export { promotionsModule } from './promotions.module';
export { promotionsPages } from './promotions.pages';
export { promotionsRoutes } from './promotions.routes';
export { createPromotionsService, type PromotionsService } from './promotions.service';
