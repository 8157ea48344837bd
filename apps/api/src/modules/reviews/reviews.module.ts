import { defineModule } from '../../lib/module';
import { reviewAdminPages } from './review-admin.pages';
import { reviewAdminRoutes } from './review-admin.routes';
import { createReviewAdminService, type ReviewAdminService } from './review-admin.service';
import { reviewsPages } from './reviews.pages';
import { reviewsRoutes } from './reviews.routes';
import { createReviewsService, type ReviewsService } from './reviews.service';

declare module '../../lib/module' {
  interface ModuleServices {
    reviews: { reviews: ReviewsService; reviewAdmin: ReviewAdminService };
  }
}

export const reviewsModule = defineModule({
  name: 'reviews',
  needs: ['audit'],
  create: ({ db, events }, { audit }) => ({
    reviews: createReviewsService(db, { events }),
    reviewAdmin: createReviewAdminService(db, { audit, events }),
  }),
  async routes(app, { reviews, reviewAdmin }) {
    await app.register(reviewsRoutes, { reviews });
    await app.register(reviewAdminRoutes, { reviewAdmin });
  },
  pages: ({ reviews, reviewAdmin }) => [reviewsPages({ reviews }), reviewAdminPages({ reviewAdmin })],
});
