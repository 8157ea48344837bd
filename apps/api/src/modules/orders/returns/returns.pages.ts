import { createReturnSchema, type ReturnsPages } from '@app/contracts';
import { signedInUser } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import { fieldFailure, type PageModule, submitForm } from '../../../lib/page-request';
import { formRefusal } from '../../../lib/result';
import type { ReturnsService } from './returns.service';

export function returnsPages(deps: { returns: ReturnsService }): PageModule<ReturnsPages> {
  return (page) => ({
    async requestReturn(input) {
      const fields = ['lines', 'reason', 'note'] as const;
      const parsed = createReturnSchema.safeParse({
        orderId: input.orderId,
        key: input.key || undefined,
        // Lines left at 0 are the ones the shopper keeps.
        lines: input.lines
          .map((l) => ({ lineNo: l.lineNo, quantity: Number(l.quantity || '0') }))
          .filter((l) => l.quantity !== 0),
        reason: input.reason,
        note: input.note,
      });
      if (!parsed.success) {
        const failure = fieldFailure(parsed.error, fields);
        // The API names the reason codes; a shopper picks from the list.
        if (failure.fieldErrors.reason) failure.fieldErrors.reason = 'Choose a reason for the return.';
        return failure;
      }
      return submitForm(fields, async () => {
        page.assertFormFromStore();
        const me = signedInUser(page.ctx);
        if (!me && !parsed.data.key) throw new AppError(401, 'UNAUTHENTICATED', 'Please log in to request a return.');
        const created = await deps.returns.create(
          page.ctx,
          { userId: me?.userId ?? null, key: parsed.data.key },
          parsed.data,
        );
        if (!created.ok) return formRefusal(created, fields);
        return {
          ok: true as const,
          message: `Return ${created.value.returnId} requested. We have emailed you a confirmation.`,
          returnId: created.value.returnId,
        };
      });
    },
  });
}
