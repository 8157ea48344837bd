export { reviewsPages } from './reviews.pages';
export { reviewsRoutes } from './reviews.routes';
export {
  createReviewsService,
  REVIEWABLE_ORDER_STATUSES,
  type ReviewsService,
  reviewAuthorName,
} from './reviews.service';
