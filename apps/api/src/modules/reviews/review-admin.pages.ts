import {
  type ReviewAdminPages,
  type ReviewModerationResult,
  reviewAdminQuerySchema,
  reviewReplySchema,
} from '@app/contracts';
import { requireAccess } from '../../lib/access';
import { AppError } from '../../lib/errors';
import { fieldFailure, type PageModule, submitForm } from '../../lib/page-request';
import type { ReviewAdminService } from './review-admin.service';

/** The reviews page's functions; each checks the catalog permission itself. */
export function reviewAdminPages(deps: { reviewAdmin: ReviewAdminService }): PageModule<ReviewAdminPages> {
  const { reviewAdmin } = deps;
  return (page) => {
    const { ctx } = page;
    return {
      async reviewsAdminPage(raw) {
        requireAccess(ctx, 'catalog');
        // A hand-edited address shows the list unfiltered rather than an error page.
        const parsed = reviewAdminQuerySchema.safeParse({
          status: raw.status || undefined,
          rating: raw.rating || undefined,
          productId: raw.productId || undefined,
          q: raw.q || undefined,
          cursor: raw.cursor || undefined,
        });
        const query = parsed.success ? parsed.data : {};
        const products = await reviewAdmin.reviewedProducts(ctx);
        try {
          return { ...(await reviewAdmin.list(ctx, query)), query, products };
        } catch (err) {
          if (err instanceof AppError && err.field === 'cursor') {
            const { cursor: _dropped, ...rest } = query;
            return { ...(await reviewAdmin.list(ctx, rest)), query: rest, products };
          }
          throw err;
        }
      },

      async moderateReview(reviewId, fields): Promise<ReviewModerationResult> {
        requireAccess(ctx, 'catalog');
        const intent = fields.intent;
        if (intent === 'reply') {
          const parsed = reviewReplySchema.safeParse({ text: fields.text ?? '' });
          if (!parsed.success) return fieldFailure(parsed.error, ['text']);
          return submitForm(['text'], async () => {
            page.assertFormFromStore();
            const r = await reviewAdmin.reply(ctx, reviewId, parsed.data.text);
            return { ok: true as const, message: `Reply saved under ${r.authorName}'s review.` };
          });
        }
        return submitForm([], async () => {
          page.assertFormFromStore();
          if (intent === 'publish') {
            await reviewAdmin.publish(ctx, reviewId);
            return { ok: true as const, message: 'Review published: it shows on the product page.' };
          }
          if (intent === 'hide') {
            await reviewAdmin.hide(ctx, reviewId);
            return { ok: true as const, message: 'Review hidden: it no longer shows on the product page.' };
          }
          if (intent === 'delete-reply') {
            await reviewAdmin.deleteReply(ctx, reviewId);
            return { ok: true as const, message: 'Reply deleted.' };
          }
          throw AppError.badRequest('intent: publish, hide, reply or delete-reply.');
        });
      },
    };
  };
}
