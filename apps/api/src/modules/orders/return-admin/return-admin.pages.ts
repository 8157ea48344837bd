import {
  currencyDigits,
  formatMoney,
  type ReturnActionResult,
  type ReturnAdminPages,
  returnApproveSchema,
  returnListQuerySchema,
  returnRefundSchema,
  returnRejectSchema,
} from '@app/contracts';
import { requireAccess } from '../../../lib/access';
import { AppError } from '../../../lib/errors';
import { fieldFailure, nullIfNotFound, type PageModule, submitForm } from '../../../lib/page-request';
import { formRefusal } from '../../../lib/result';
import type { ReturnAdminService } from './return-admin.service';

const FIELDS_MESSAGE = 'Please check the fields marked below.';

/** "12", "12.5", "12.50", "1,234.50" in the currency's units -> minor units; NaN when not an amount. */
export function parseAmount(text: string | undefined, currency: string): number {
  const t = (text ?? '').trim().replace(/^\$/, '').replace(/,/g, '');
  const digits = currencyDigits(currency);
  const m = /^(\d{1,9})(?:\.(\d*))?$/.exec(t);
  if (!m || (m[2] ?? '').length > digits) return Number.NaN;
  return Number(m[1]) * 10 ** digits + Number((m[2] ?? '').padEnd(digits, '0') || '0');
}

/** Whole numbers typed in a box; anything else is NaN, which the schema refuses. */
function wholeNumber(text: string | undefined): number {
  const t = (text ?? '').trim();
  if (t === '') return 0;
  return /^\d{1,6}$/.test(t) ? Number(t) : Number.NaN;
}

/** The dashboard's returns pages; each function checks the orders permission itself. */
export function returnAdminPages(deps: { returnAdmin: ReturnAdminService }): PageModule<ReturnAdminPages> {
  const { returnAdmin } = deps;
  return (page) => {
    const { ctx } = page;
    return {
      async returnsPage(raw) {
        requireAccess(ctx, 'orders');
        const parsed = returnListQuerySchema.safeParse({
          status: raw.status || undefined,
          q: raw.q || undefined,
          cursor: raw.cursor || undefined,
        });
        const query = parsed.success ? parsed.data : {};
        const shown = { ...(query.status ? { status: query.status } : {}), ...(query.q ? { q: query.q } : {}) };
        try {
          return { ...(await returnAdmin.list(ctx, query)), query: shown };
        } catch (err) {
          // A stale or hand-edited cursor shows the first page.
          if (err instanceof AppError && err.field === 'cursor') {
            const { cursor: _dropped, ...rest } = query;
            return { ...(await returnAdmin.list(ctx, rest)), query: shown };
          }
          throw err;
        }
      },

      async returnPage(returnId) {
        requireAccess(ctx, 'orders');
        try {
          return await returnAdmin.get(ctx, returnId);
        } catch (err) {
          return nullIfNotFound(err);
        }
      },

      async approveReturn(returnId, fields): Promise<ReturnActionResult<'instructions'>> {
        requireAccess(ctx, 'orders');
        const parsed = returnApproveSchema.safeParse({ instructions: fields.instructions ?? '' });
        if (!parsed.success) return fieldFailure(parsed.error, ['instructions'] as const);
        return submitForm(['instructions'] as const, async () => {
          page.assertFormFromStore();
          const done = await returnAdmin.approve(ctx, returnId, parsed.data);
          if (!done.ok) return formRefusal(done, ['instructions'] as const);
          return { ok: true as const, message: `Return ${returnId} approved. The shopper has been emailed.` };
        });
      },

      async rejectReturn(returnId, fields): Promise<ReturnActionResult<'reason'>> {
        requireAccess(ctx, 'orders');
        const parsed = returnRejectSchema.safeParse({ reason: fields.reason ?? '' });
        if (!parsed.success) return fieldFailure(parsed.error, ['reason'] as const);
        return submitForm(['reason'] as const, async () => {
          page.assertFormFromStore();
          const done = await returnAdmin.reject(ctx, returnId, parsed.data);
          if (!done.ok) return formRefusal(done, ['reason'] as const);
          return { ok: true as const, message: `Return ${returnId} rejected. The shopper has been emailed.` };
        });
      },

      async receiveReturn(returnId, fields): Promise<ReturnActionResult<'lines'>> {
        requireAccess(ctx, 'orders');
        const lines = Object.entries(fields.restock).map(([lineNo, text]) => ({
          lineNo: Number(lineNo),
          restock: wholeNumber(text),
        }));
        if (lines.some((l) => !Number.isInteger(l.lineNo) || Number.isNaN(l.restock))) {
          return {
            ok: false,
            status: 400,
            message: FIELDS_MESSAGE,
            fieldErrors: { lines: 'Enter a whole number of units, 0 or more, for each line.' },
          };
        }
        return submitForm(['lines'] as const, async () => {
          page.assertFormFromStore();
          const done = await returnAdmin.receive(ctx, returnId, { lines });
          if (!done.ok) return formRefusal(done, ['lines'] as const);
          const back = done.value.lines.reduce((s, l) => s + l.restockedQuantity, 0);
          return {
            ok: true as const,
            message: `Return ${returnId} received; ${back === 1 ? '1 unit' : `${back} units`} back in stock.`,
          };
        });
      },

      async refundReturn(returnId, fields): Promise<ReturnActionResult<'amount' | 'reason'>> {
        requireAccess(ctx, 'orders');
        return submitForm(['amount', 'reason'] as const, async () => {
          page.assertFormFromStore();
          const current = await returnAdmin.get(ctx, returnId);
          const parsed = returnRefundSchema.safeParse({
            amount: parseAmount(fields.amount, current.currency),
            reason: fields.reason ?? '',
          });
          if (!parsed.success) {
            const failure = fieldFailure(parsed.error, ['amount', 'reason'] as const);
            if (failure.fieldErrors.amount) failure.fieldErrors.amount = 'Enter an amount more than zero, like 12.50.';
            return failure;
          }
          const done = await returnAdmin.refund(ctx, returnId, parsed.data);
          if (!done.ok) return formRefusal(done, ['amount', 'reason'] as const);
          const refund = done.value.refunds.at(-1);
          return {
            ok: true as const,
            message: `Refunded ${refund ? formatMoney(refund.amount, refund.currency) : ''} for return ${returnId}. The shopper has been emailed.`,
          };
        });
      },
    };
  };
}
