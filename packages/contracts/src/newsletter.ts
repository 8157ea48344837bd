import { z } from 'zod';
import type { FormOutcome } from './storefront';
import { textInt } from './strict-input';

/** The footer's subscribe form (ours: the product's rules does not show its submit behaviour). */
export const newsletterSubscribeSchema = z.strictObject({
  email: z
    .string()
    .trim()
    .max(254, 'The email address is too long.')
    .pipe(z.email('Please enter a valid email address.')),
});
export type NewsletterSubscribeRequest = z.infer<typeof newsletterSubscribeSchema>;

/**
 * The one answer to a subscribe request, whether the address is new, waiting or already confirmed:
 * the answer must not tell a stranger who is subscribed.
 */
export const NEWSLETTER_SUBSCRIBE_MESSAGE =
  'Thanks! Please check your inbox and confirm your subscription with the link we sent.';

/** The link tokens of the confirmation and unsubscribe mails. */
export const newsletterTokenSchema = z.strictObject({ token: z.string().min(16).max(200) });

export const NEWSLETTER_STATUSES = ['pending', 'confirmed', 'unsubscribed'] as const;
export type NewsletterStatus = (typeof NEWSLETTER_STATUSES)[number];
export const NEWSLETTER_PAGE_MAX = 200;

export const newsletterSubscribersQuerySchema = z.strictObject({
  status: z.enum(NEWSLETTER_STATUSES).optional(),
  /** `nextCursor` of the previous page. */
  cursor: z.string().min(1).max(200).optional(),
  limit: textInt('limit', { min: 1, max: NEWSLETTER_PAGE_MAX }).default(50),
});
export type NewsletterSubscribersQuery = z.infer<typeof newsletterSubscribersQuerySchema>;

export const newsletterSubscriberSchema = z.object({
  id: z.string(),
  email: z.string(),
  status: z.enum(NEWSLETTER_STATUSES),
  createdAt: z.string(),
  confirmedAt: z.string().nullable(),
  unsubscribedAt: z.string().nullable(),
});
export type NewsletterSubscriber = z.infer<typeof newsletterSubscriberSchema>;

export const newsletterSubscribersPageSchema = z.object({
  subscribers: z.array(newsletterSubscriberSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type NewsletterSubscribersPage = z.infer<typeof newsletterSubscribersPageSchema>;

export type NewsletterSubscribeResult = { ok: true; message: string } | FormOutcome<'email'>;
/** What a confirmation or unsubscribe link did: `invalid` covers used, expired and foreign links alike. */
export type NewsletterLinkResult = { ok: true; email: string } | { ok: false; code: 'invalid' };
