import { z } from 'zod';
import { REFUND_REASON_MAX } from './order-display';
import { jsonInt } from './strict-input';

/**
 * The store side of orders' payloads, defined once for the dashboard, the API and the services
 * (the zod-free part is order-display.ts). Money is integer minor units.
 */

const lineNo = jsonInt('lineNo', { min: 1, max: 10_000 });
const minor = (what: string) =>
  z
    .number({ error: `${what} must be a number of cents` })
    .int(`${what} must be a whole number of cents`)
    .min(0, `${what} cannot be negative`);

/**
 * A refund as staff ask for it: the amount to give back, and optionally which lines (and how many
 * of each) and how much of the shipping it is for. The amount is what goes back to the shopper;
 * the lines say what for (and are never refunded more often than they were bought).
 */
export const refundRequestSchema = z.strictObject({
  amount: minor('amount').min(1, 'amount must be more than zero'),
  lines: z
    .array(z.strictObject({ lineNo, quantity: jsonInt('quantity', { min: 1, max: 10_000 }) }))
    .max(500)
    .default([]),
  shipping: minor('shipping').default(0),
  reason: z.string().trim().max(REFUND_REASON_MAX, `reason: at most ${REFUND_REASON_MAX} characters`).default(''),
  /** Email the shopper that the money is on its way (the refund mail). */
  notify: z.boolean().default(true),
});
export type RefundRequest = z.infer<typeof refundRequestSchema>;

/** A refund as the dashboard and the shopper's order page show it. */
export const orderRefundSchema = z.object({
  refundId: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  reason: z.string(),
  lines: z.array(z.object({ lineNo: z.number().int(), quantity: z.number().int(), amount: z.number().int() })),
  shippingAmount: z.number().int(),
  /** The order's tax share inside `amount` (decision 116). */
  taxAmount: z.number().int(),
  returnId: z.string().nullable(),
  failure: z.string().nullable(),
  createdAt: z.string(),
});
export type OrderRefund = z.infer<typeof orderRefundSchema>;
