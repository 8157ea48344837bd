import { z } from 'zod';
import { REVIEW_FILTER_STATUSES, REVIEW_REPLY_MAX, REVIEW_STATUSES } from './moderation-display';
import type { FormOutcome } from './storefront';
import { textInt } from './strict-input';

/**
 * The store's side of product reviews (decision 047): a list to moderate,
 * publish and hide, and one public reply per review shown under it on the product page.
 */
export const REVIEW_ADMIN_PAGE_SIZE = 25;

export const reviewAdminQuerySchema = z.strictObject({
  status: z.enum(REVIEW_FILTER_STATUSES).optional(),
  rating: textInt('rating', { min: 1, max: 5 }).optional(),
  productId: z.string().trim().min(1).max(64).optional(),
  q: z.string().trim().max(200).optional(),
  cursor: z.string().max(500).optional(),
  limit: textInt('limit', { min: 1, max: 100 }).optional(),
});
export type ReviewAdminQuery = z.infer<typeof reviewAdminQuerySchema>;

export const reviewIdParamsSchema = z.strictObject({ reviewId: z.string().min(1).max(64) });

export const reviewReplySchema = z.strictObject({
  text: z
    .string({ error: 'Write the reply.' })
    .trim()
    .min(1, 'Write the reply.')
    .max(REVIEW_REPLY_MAX, `Use at most ${REVIEW_REPLY_MAX} characters.`),
});
export type ReviewReplyInput = z.infer<typeof reviewReplySchema>;

export const reviewAdminItemSchema = z.object({
  reviewId: z.string(),
  productId: z.string(),
  productName: z.string(),
  authorName: z.string(),
  rating: z.number().int(),
  title: z.string().nullable(),
  body: z.string().nullable(),
  status: z.enum(REVIEW_STATUSES),
  createdAt: z.string(),
  reply: z.object({ text: z.string(), at: z.string(), byName: z.string().nullable() }).nullable(),
  /** The variant the reviewer bought, as their order line named it ("Brass / Large"); null for a default variant. */
  boughtVariant: z.string().nullable(),
});
export type ReviewAdminItem = z.infer<typeof reviewAdminItemSchema>;

export const reviewAdminPageSchema = z.object({
  items: z.array(reviewAdminItemSchema),
  nextCursor: z.string().nullable(),
});
export type ReviewAdminPage = z.infer<typeof reviewAdminPageSchema>;

export type ReviewModerationResult = { ok: true; message: string } | FormOutcome<'text'>;

/** The reviews page's functions (each checks the catalog permission). */
export interface ReviewAdminPages {
  reviewsAdminPage(
    query: Record<string, string | undefined>,
  ): Promise<ReviewAdminPage & { query: ReviewAdminQuery; products: { productId: string; productName: string }[] }>;
  /** intent: publish | hide | reply | delete-reply. */
  moderateReview(reviewId: string, fields: Record<string, string>): Promise<ReviewModerationResult>;
}
