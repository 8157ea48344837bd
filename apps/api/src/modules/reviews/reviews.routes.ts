import {
  dataEnvelope,
  errorEnvelopeSchema,
  REVIEW_TEXT_MAX,
  REVIEW_TITLE_MAX,
  reviewCreateSchema,
  reviewEligibilitySchema,
  reviewQuerySchema,
  reviewSchema,
} from '@app/contracts';
import { requireSignedIn } from '../../lib/access';
import type { App } from '../../lib/app-types';
import { tenantErrors } from '../../lib/app-types';
import { signedInUser } from '../../lib/context';
import { sendRefusal } from '../../plugins/errors';
import type { ReviewsService } from './reviews.service';

const PATH = '/skulocity/api/v1/ecommerce/product/review';

/** Product reviews by shoppers who bought the product (/ecommerce/product/review). */
export async function reviewsRoutes(app: App, { reviews }: { reviews: ReviewsService }) {
  app.get(
    PATH,
    {
      schema: {
        tags: ['catalog'],
        summary: 'Whether the signed-in shopper may review a product (and their review, if written)',
        description: "reason: 'sign-in' (nobody signed in), 'not-bought', 'already-reviewed', or null.",
        querystring: reviewQuerySchema,
        response: { 200: dataEnvelope(reviewEligibilitySchema), ...tenantErrors },
      },
    },
    async (req, reply) => {
      const user = signedInUser(req.ctx);
      reply.header('cache-control', 'private, no-store');
      return { data: await reviews.eligibility(req.ctx, user?.userId ?? null, req.query.productId) };
    },
  );

  app.post(
    PATH,
    {
      config: { signedIn: true },
      schema: {
        tags: ['catalog'],
        summary: 'Writes a review of a product the shopper bought',
        description:
          `rating: whole stars 1 to 5; title up to ${REVIEW_TITLE_MAX} characters (optional); text up to ` +
          `${REVIEW_TEXT_MAX}; both trimmed and stored as written (HTML is not interpreted). Needs a paid, ` +
          'shipped, delivered or completed order of the product (403 REVIEW_NOT_ALLOWED otherwise). One review ' +
          'per shopper and product: a second is refused (409 ALREADY_REVIEWED). The author shows as first name ' +
          'and last initial. Published at once.',
        body: reviewCreateSchema,
        response: {
          200: dataEnvelope(reviewSchema),
          ...tenantErrors,
          401: errorEnvelopeSchema,
          409: errorEnvelopeSchema,
        },
      },
    },
    async (req, reply) => {
      const user = requireSignedIn(req.ctx);
      const written = await reviews.create(req.ctx, user.userId, req.body);
      if (!written.ok) return sendRefusal(reply, written);
      return { data: written.value, message: 'Thank you! Your review is published.' };
    },
  );
}
