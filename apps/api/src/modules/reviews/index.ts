export { reviewAdminPages } from './review-admin.pages';
export { reviewAdminRoutes } from './review-admin.routes';
export { createReviewAdminService, type ReviewAdminService } from './review-admin.service';
export { reviewsModule } from './reviews.module';
export { reviewsPages } from './reviews.pages';
export { reviewsRoutes } from './reviews.routes';
export {
  createReviewsService,
  REVIEWABLE_ORDER_STATUSES,
  type ReviewsService,
  reviewAuthorName,
} from './reviews.service';
