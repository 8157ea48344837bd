import { z } from 'zod';
import { PAYMENT_ISSUE_NOTE_MAX } from './payment-issues-display';
import { type PaymentIssue, paymentIssueSchema } from './paypal-seller';
import type { FormOutcome } from './storefront';
import { textInt } from './strict-input';

/** GET /api/paypal/issues: open ones (the default) or resolved ones, newest first, keyset pages. */
export const paymentIssuesQuerySchema = z.strictObject({
  status: z.enum(['open', 'resolved'], { error: 'status must be open or resolved.' }).optional(),
  cursor: z.string().trim().min(1).max(200).optional(),
  limit: textInt('limit', { min: 1, max: 100 }).optional(),
});
export type PaymentIssuesQuery = z.infer<typeof paymentIssuesQuerySchema>;

export const paymentIssuesPageSchema = z.object({
  items: z.array(paymentIssueSchema),
  nextCursor: z.string().nullable(),
  /** How many are open, whichever list is shown (the page's heading and the tab say it). */
  openCount: z.number().int(),
});
export type PaymentIssuesPage = z.infer<typeof paymentIssuesPageSchema>;

export const paymentIssueIdParamsSchema = z.object({ issueId: z.string().trim().min(1).max(64) });

/** POST /api/paypal/issues/{issueId}/resolve: what the owner did about it (refunded at PayPal, matched by hand). */
export const paymentIssueResolveSchema = z.strictObject({
  note: z
    .string({ error: 'Please say how the payment was settled.' })
    .trim()
    .min(1, 'Please say how the payment was settled.')
    .max(PAYMENT_ISSUE_NOTE_MAX, `Please keep the note under ${PAYMENT_ISSUE_NOTE_MAX} characters.`),
});
export type PaymentIssueResolve = z.infer<typeof paymentIssueResolveSchema>;

export type PaymentIssueResolveResult = { ok: true; message: string; issue: PaymentIssue } | FormOutcome<'note'>;

export interface PaymentIssuesPages {
  /** "Payments needing attention"; the payments permission. */
  paymentIssuesPage(query: {
    status?: string;
    cursor?: string;
  }): Promise<PaymentIssuesPage & { status: 'open' | 'resolved'; cursor: string | null }>;
  resolvePaymentIssue(issueId: string, input: { note: string }): Promise<PaymentIssueResolveResult>;
}
