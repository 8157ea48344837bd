import type { OrderStatus } from './order-status';

/**
 * The zod-free part of the store side of orders (browser code imports it through contracts/client):
 * payment statuses, carriers and tracking links, timeline kinds, limits and dashboard links.
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

/**
 * The dashboard's page of an order's customer: an account by its id, a guest (no account) by the
 * email the order was placed with. Every page that links to a customer builds the link here.
 */
export function customerHref(customer: { userId: string | null; email: string }): string {
  return customer.userId
    ? `/manage-store/customers/${encodeURIComponent(customer.userId)}`
    : `/manage-store/customers/guest/${encodeURIComponent(customer.email.toLowerCase())}`;
}

/** The dashboard's page of an order. */
export function orderHref(orderId: string): string {
  return `/manage-store/orders/${encodeURIComponent(orderId)}`;
}

/**
 * What an order line says of its variant under the product's name (decision 112): "Brass / Large ·
 * PND-BR-L". Null for a default variant: the product's name says it all, as before variants.
 */
export function orderLineVariantText(line: { variantTitle?: string | null; sku?: string | null }): string | null {
  if (!line.variantTitle) return null;
  return line.sku ? `${line.variantTitle} · ${line.sku}` : line.variantTitle;
}
