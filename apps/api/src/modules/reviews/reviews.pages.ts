import { type ReviewsPages, reviewCreateSchema } from '@app/contracts';
import { requireSignedIn } from '../../lib/access';
import { signedInUser } from '../../lib/context';
import { fieldFailure, nullIfNotFound, type PageModule, submitForm } from '../../lib/page-request';
import { formRefusal } from '../../lib/result';
import type { ReviewsService } from './reviews.service';

export function reviewsPages(deps: { reviews: ReviewsService }): PageModule<ReviewsPages> {
  return (page) => ({
    reviewEligibility: (productId) =>
      deps.reviews
        .eligibility(page.ctx, signedInUser(page.ctx)?.userId ?? null, productId.slice(0, 64))
        .catch(nullIfNotFound),
    async writeReview(input) {
      const fields = ['rating', 'title', 'text'] as const;
      const parsed = reviewCreateSchema.safeParse({
        productId: input.productId,
        rating: Number(input.rating || '0'),
        title: input.title,
        text: input.text,
      });
      if (!parsed.success) return fieldFailure(parsed.error, fields);
      return submitForm(fields, async () => {
        page.assertFormFromStore();
        const me = requireSignedIn(page.ctx);
        const written = await deps.reviews.create(page.ctx, me.userId, parsed.data);
        if (!written.ok) return formRefusal(written, fields);
        return { ok: true as const, message: 'Thank you! Your review is published.' };
      });
    },
  });
}
