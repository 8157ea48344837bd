import { formatMoney } from '@app/contracts/client';
import type { schema } from '@app/db';

type PromoRow = typeof schema.promoCodes.$inferSelect;

export type PromoResult = { ok: true; discount: number } | { ok: false; message: string };

/**
 * Whether a code applies to a subtotal now, and how much it takes off (integer minor units, never
 * more than the subtotal). Usage limits are checked when the order is placed, under a lock.
 */
export function evaluatePromo(code: PromoRow | null, subtotal: number, currency: string, now: Date): PromoResult {
  if (!code?.active) return { ok: false, message: 'That promo code is not valid.' };
  if (code.startsAt && now < code.startsAt) return { ok: false, message: `${code.code} is not active yet.` };
  if (code.endsAt && now >= code.endsAt) return { ok: false, message: `${code.code} has expired.` };
  if (code.usageLimit !== null && code.timesUsed >= code.usageLimit) {
    return { ok: false, message: `${code.code} has been used up.` };
  }
  if (subtotal < code.minSubtotal) {
    return {
      ok: false,
      message: `${code.code} needs a subtotal of at least ${formatMoney(code.minSubtotal, currency)}.`,
    };
  }
  const raw = code.kind === 'percent' ? Math.round((subtotal * code.value) / 100) : code.value;
  return { ok: true, discount: Math.min(subtotal, raw) };
}
