import {
  type PaymentIssueResolveResult,
  type PaymentIssuesPages,
  paymentIssueResolveSchema,
  paymentIssuesQuerySchema,
} from '@app/contracts';
import { requireAccess } from '../../../lib/access';
import { AppError } from '../../../lib/errors';
import { fieldFailure, type PageModule, submitForm } from '../../../lib/page-request';
import type { PaymentIssuesService } from './payment-issues.service';

/** "Payments needing attention" (/manage-store/payments/issues); the payments permission. */
export function paymentIssuesPages(deps: { issues: PaymentIssuesService }): PageModule<PaymentIssuesPages> {
  const { issues } = deps;
  return (page) => {
    const { ctx } = page;
    return {
      async paymentIssuesPage(raw) {
        requireAccess(ctx, 'payments');
        const status = raw.status === 'resolved' ? 'resolved' : 'open';
        const parsed = paymentIssuesQuerySchema.safeParse({ status, cursor: raw.cursor || undefined });
        const cursor = parsed.success ? (parsed.data.cursor ?? null) : null;
        try {
          return { ...(await issues.list(ctx, { status, ...(cursor ? { cursor } : {}) })), status, cursor };
        } catch (err) {
          // A hand-edited cursor shows the first page rather than an error page.
          if (err instanceof AppError && err.field === 'cursor') {
            return { ...(await issues.list(ctx, { status })), status, cursor: null };
          }
          throw err;
        }
      },

      async resolvePaymentIssue(issueId, input): Promise<PaymentIssueResolveResult> {
        requireAccess(ctx, 'payments');
        const parsed = paymentIssueResolveSchema.safeParse({ note: input.note });
        if (!parsed.success) return fieldFailure(parsed.error, ['note']);
        return submitForm(['note'], async () => {
          page.assertFormFromStore();
          const issue = await issues.resolve(ctx, issueId, parsed.data.note);
          return { ok: true as const, message: 'Marked resolved.', issue };
        });
      },
    };
  };
}
