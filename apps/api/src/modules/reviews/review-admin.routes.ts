import {
  dataEnvelope,
  reviewAdminItemSchema,
  reviewAdminPageSchema,
  reviewAdminQuerySchema,
  reviewIdParamsSchema,
  reviewReplySchema,
} from '@app/contracts';
import type { App } from '../../lib/app-types';
import { changeErrors } from '../../lib/app-types';
import type { ReviewAdminService } from './review-admin.service';

const noStore = { 'cache-control': 'private, no-store' };
const R = '/api/v1/reviews';

/** The store's moderation of reviews (decision 047). Each needs the catalog permission. */
export async function reviewAdminRoutes(app: App, { reviewAdmin }: { reviewAdmin: ReviewAdminService }) {
  app.get(
    R,
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog'],
        summary: "The store's reviews, newest first (filter status, rating, product; search q; keyset cursor)",
        querystring: reviewAdminQuerySchema,
        response: { 200: dataEnvelope(reviewAdminPageSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await reviewAdmin.list(req.ctx, req.query) };
    },
  );

  for (const [action, summary] of [
    ['publish', 'Publish a review: it shows on the product page and counts in its rating'],
    ['hide', 'Hide a review: it leaves the product page and its rating at once'],
  ] as const) {
    app.post(
      `${R}/:reviewId/${action}`,
      {
        config: { permission: 'catalog' },
        schema: {
          tags: ['catalog'],
          summary,
          params: reviewIdParamsSchema,
          response: { 200: dataEnvelope(reviewAdminItemSchema), ...changeErrors },
        },
      },
      async (req, reply) => {
        reply.headers(noStore);
        return { data: await reviewAdmin[action](req.ctx, req.params.reviewId) };
      },
    );
  }

  app.put(
    `${R}/:reviewId/reply`,
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog'],
        summary: "Write or change the store's reply, shown under the review on the product page",
        params: reviewIdParamsSchema,
        body: reviewReplySchema,
        response: { 200: dataEnvelope(reviewAdminItemSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await reviewAdmin.reply(req.ctx, req.params.reviewId, req.body.text) };
    },
  );

  app.delete(
    `${R}/:reviewId/reply`,
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog'],
        summary: "Delete the store's reply to a review",
        params: reviewIdParamsSchema,
        response: { 200: dataEnvelope(reviewAdminItemSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await reviewAdmin.deleteReply(req.ctx, req.params.reviewId) };
    },
  );
}
