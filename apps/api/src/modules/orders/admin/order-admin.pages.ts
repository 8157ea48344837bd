import {
  currencyDigits,
  FULFIL_FIELDS,
  fulfilRequestSchema,
  ORDER_CANCEL_FIELDS,
  type OrderAdminPages,
  type OrderPageFormResult,
  orderCancelSchema,
  orderNoteSchema,
  REFUND_FIELDS,
  refundRequestSchema,
} from '@app/contracts';
import type { z } from 'zod';
import { requireAccess } from '../../../lib/access';
import { AppError } from '../../../lib/errors';
import { fieldFailure, formFailure, nullIfNotFound, type PageModule } from '../../../lib/page-request';
import { formRefusal, type Refusal, type Result } from '../../../lib/result';
import type { OrderAdminService } from './order-admin.service';

/**
 * An amount typed in a box ("12.50", "12", "1,234.5") in minor units; empty is null, anything
 * else NaN (the schema names the field).
 */
export function parseAmount(text: string | undefined, currency: string): number | null {
  const t = (text ?? '').trim().replace(/,/g, '');
  if (t === '') return null;
  const digits = currencyDigits(currency);
  const m = /^(\d{1,9})(?:\.(\d*))?$/.exec(t);
  if (!m || (m[2] ?? '').length > digits) return Number.NaN;
  return Number(m[1]) * 10 ** digits + Number((m[2] ?? '').padEnd(digits, '0') || 0);
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A schema's messages start with the field's name ("amount must be…"): next to the field, it reads as a sentence. */
function failure<F extends string>(error: z.ZodError, fields: readonly F[], intent: string): OrderPageFormResult {
  const f = fieldFailure(error, fields);
  for (const k of Object.keys(f.fieldErrors) as F[]) {
    f.fieldErrors[k] = capital((f.fieldErrors[k] ?? '').replace(/^[a-zA-Z]+: /, ''));
  }
  return { ...f, intent };
}

/** The fields of the order page's forms a refusal may be shown next to. */
const ACTION_FIELDS = [...FULFIL_FIELDS, ...REFUND_FIELDS, 'message', 'reason'] as const;

/** The order page's functions; each needs the orders permission. */
export function orderAdminPages(deps: { orderAdmin: OrderAdminService }): PageModule<OrderAdminPages> {
  const { orderAdmin } = deps;
  /** An action's answer on the page: its message, or its refusal shown as the form shows a thrown one. */
  const answer = (intent: string, done: Result<{ message: string }, Refusal>): OrderPageFormResult =>
    done.ok ? { ok: true, intent, message: done.value.message } : { ...formRefusal(done, ACTION_FIELDS), intent };
  return (page) => {
    const { ctx } = page;
    return {
      async staffOrderPage(orderId) {
        requireAccess(ctx, 'orders');
        return orderAdmin.view(ctx, orderId.slice(0, 64)).catch(nullIfNotFound);
      },

      async orderPageAction(rawOrderId, fields): Promise<OrderPageFormResult> {
        requireAccess(ctx, 'orders');
        const orderId = rawOrderId.slice(0, 64);
        const intent = String(fields.intent ?? '');
        const checked = (k: string) => fields[k] === 'on' || fields[k] === 'true';
        try {
          page.assertFormFromStore();
          if (intent === 'note') {
            const parsed = orderNoteSchema.safeParse({ message: fields.message ?? '' });
            if (!parsed.success) return failure(parsed.error, ['message'] as const, intent);
            return { ok: true, intent, message: (await orderAdmin.addNote(ctx, orderId, parsed.data)).message };
          }
          if (intent === 'fulfil') {
            const other = fields.carrier === 'other';
            const parsed = fulfilRequestSchema.safeParse({
              carrier: fields.carrier ?? '',
              trackingNumber: fields.trackingNumber ?? '',
              notify: checked('notify'),
              ...(other ? { carrierName: fields.carrierName ?? '', trackingUrl: fields.trackingUrl || undefined } : {}),
            });
            if (!parsed.success) return failure(parsed.error, FULFIL_FIELDS, intent);
            return answer(intent, await orderAdmin.fulfil(ctx, orderId, parsed.data));
          }
          if (intent === 'deliver') {
            return answer(intent, await orderAdmin.deliver(ctx, orderId));
          }
          if (intent === 'cancel') {
            const parsed = orderCancelSchema.safeParse({ reason: fields.reason ?? '', notify: checked('notify') });
            if (!parsed.success) return failure(parsed.error, ORDER_CANCEL_FIELDS, intent);
            return answer(intent, await orderAdmin.cancel(ctx, orderId, parsed.data));
          }
          if (intent === 'refund') {
            const order = await orderAdmin.view(ctx, orderId);
            // One box per line, named qty-<lineNo>; empty or 0 is "none of this line".
            const lines: { lineNo: number; quantity: number }[] = [];
            for (const l of order.lines) {
              const q = (fields[`qty-${l.lineNo}`] ?? '').trim();
              if (q === '' || q === '0') continue;
              lines.push({ lineNo: l.lineNo, quantity: /^\d{1,5}$/.test(q) ? Number(q) : Number.NaN });
            }
            const shipping = checked('refundShipping') ? order.payment.shippingRefundable : 0;
            // Left empty, the amount is the one the form proposes: the lines with their share of tax, and the shipping.
            const typed = parseAmount(fields.amount, order.currency);
            const proposed =
              lines.reduce((s, l) => {
                const line = order.lines.find((x) => x.lineNo === l.lineNo);
                return s + (line && Number.isInteger(l.quantity) ? line.refundPerUnit * l.quantity : 0);
              }, 0) + shipping;
            const amount = typed ?? Math.min(proposed, order.payment.refundable);
            const parsed = refundRequestSchema.safeParse({
              amount,
              lines,
              shipping,
              reason: fields.reason ?? '',
              notify: checked('notify'),
            });
            if (!parsed.success) {
              const f = failure(parsed.error, REFUND_FIELDS, intent);
              if (!f.ok && f.fieldErrors.amount && typed === null) {
                f.fieldErrors.amount = 'Enter the amount to refund, or choose the lines or shipping it is for.';
              } else if (!f.ok && f.fieldErrors.amount && Number.isNaN(typed)) {
                f.fieldErrors.amount = 'Enter an amount such as 12.50.';
              }
              if (!f.ok && f.fieldErrors.lines) f.fieldErrors.lines = 'Quantities must be whole numbers.';
              return f;
            }
            return answer(intent, await orderAdmin.refund(ctx, orderId, parsed.data));
          }
          if (intent === 'retry') {
            const refundId = String(fields.refundId ?? '').slice(0, 64);
            return answer(intent, await orderAdmin.retry(ctx, orderId, refundId));
          }
          return { ok: false, status: 400, intent, message: 'Unknown order action.', fieldErrors: {} };
        } catch (err) {
          // A provider that cannot be reached: the refund waits as pending, and the page says so.
          if (err instanceof AppError && err.statusCode === 502) {
            return {
              ok: false,
              status: 409,
              intent,
              message: `${err.message} The refund is pending: use Retry on the payment card.`,
              fieldErrors: {},
            };
          }
          return { ...formFailure(err, ACTION_FIELDS), intent };
        }
      },
    };
  };
}
