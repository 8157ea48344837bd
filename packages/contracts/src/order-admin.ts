import { z } from 'zod';
import type { OrderStatus } from './checkout';

/**
 * The store side of orders, defined once for the dashboard, the API and the services: the payment
 * status an order shows besides its status, the carriers a shipment names, and what a refund asks.
 * Money is integer minor units.
 */

/**
 * Where the money of an order stands, as Shopify's "financial status": derived from the order's
 * status and its captured and refunded amounts, never stored apart (it cannot disagree with them).
 */
export const PAYMENT_STATUSES = ['pending', 'paid', 'partially_refunded', 'refunded', 'voided'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  pending: 'Payment pending',
  paid: 'Paid',
  partially_refunded: 'Partially refunded',
  refunded: 'Refunded',
  voided: 'Voided',
};

export function paymentStatusOf(order: {
  status: OrderStatus;
  capturedAmount: number;
  refundedAmount: number;
}): PaymentStatus {
  if (order.capturedAmount === 0) return order.status === 'placed' ? 'pending' : 'voided';
  if (order.refundedAmount === 0) return 'paid';
  return order.refundedAmount >= order.capturedAmount ? 'refunded' : 'partially_refunded';
}

/**
 * Carriers a store ships with, and the page where a shopper follows a parcel. `{n}` is the tracking
 * number, URL-encoded. 'other' takes the carrier's name and a tracking link typed by the staff member.
 */
export const CARRIERS = {
  ups: { name: 'UPS', trackingUrl: 'https://www.ups.com/track?tracknum={n}' },
  usps: { name: 'USPS', trackingUrl: 'https://tools.usps.com/go/TrackConfirmAction?tLabels={n}' },
  fedex: { name: 'FedEx', trackingUrl: 'https://www.fedex.com/fedextrack/?trknbr={n}' },
  dhl: {
    name: 'DHL Express',
    trackingUrl: 'https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id={n}',
  },
  other: { name: 'Other', trackingUrl: null },
} as const satisfies Record<string, { name: string; trackingUrl: string | null }>;
export type CarrierKey = keyof typeof CARRIERS;
export const CARRIER_KEYS = Object.keys(CARRIERS) as CarrierKey[];

/** The shopper's tracking link for a known carrier's number; null for 'other' (its link is typed). */
export function carrierTrackingUrl(carrier: CarrierKey, trackingNumber: string): string | null {
  const pattern = CARRIERS[carrier].trackingUrl;
  return pattern ? pattern.replace('{n}', encodeURIComponent(trackingNumber)) : null;
}

/** The kinds of entry in an order's timeline besides its status changes. */
export const ORDER_EVENT_KINDS = ['note', 'email', 'payment', 'refund', 'fulfillment', 'return'] as const;
export type OrderEventKind = (typeof ORDER_EVENT_KINDS)[number];

/** The longest staff note, refund reason or shipment field the dashboard takes. */
export const ORDER_NOTE_MAX = 2000;
export const REFUND_REASON_MAX = 500;

const lineNo = z.coerce.number().int('lineNo must be a whole number').min(1).max(10_000);
const minor = (what: string) =>
  z.coerce.number().int(`${what} must be a whole number of cents`).min(0, `${what} cannot be negative`);

/**
 * A refund as staff ask for it: the amount to give back, and optionally which lines (and how many
 * of each) and how much of the shipping it is for. The amount is what goes back to the shopper;
 * the lines say what for (and are never refunded more often than they were bought).
 */
export const refundRequestSchema = z.strictObject({
  amount: minor('amount').min(1, 'amount must be more than zero'),
  lines: z
    .array(z.strictObject({ lineNo, quantity: z.coerce.number().int().min(1, 'quantity must be at least 1') }))
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
  returnId: z.string().nullable(),
  failure: z.string().nullable(),
  createdAt: z.string(),
});
export type OrderRefund = z.infer<typeof orderRefundSchema>;
