import { z } from 'zod';
import { orderAddressSchema } from './checkout';
import { orderRefundSchema } from './order-admin';
import { CARRIER_KEYS, type CarrierKey, ORDER_NOTE_MAX, PAYMENT_STATUSES, REFUND_REASON_MAX } from './order-display';
import { orderStatuses } from './order-status';
import type { FormOutcome } from './storefront';

/**
 * The dashboard's order page: the order as staff read it, and the payloads of
 * its actions (note, fulfil, deliver, cancel, refund, retry). Money is integer minor units.
 */

const placeNames = { regionName: z.string().nullable(), countryName: z.string() };

export const staffOrderSchema = z.object({
  orderId: z.string(),
  status: z.enum(orderStatuses),
  statusLabel: z.string(),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  paymentStatusLabel: z.string(),
  placedAt: z.string(),
  currency: z.string(),
  lines: z.array(
    z.object({
      lineNo: z.number().int(),
      productId: z.string(),
      /** The variant bought (decision 112); null only on lines of products deleted before variants. */
      variantId: z.string().nullable(),
      /** "Brass / Large" as it was when ordered; '' for a default variant. */
      variantTitle: z.string(),
      /** The variant's SKU as it was when ordered. */
      sku: z.string().nullable(),
      productName: z.string(),
      /** The product's page in the dashboard; null when the product is gone. */
      productHref: z.string().nullable(),
      optionsText: z.string().nullable(),
      quantity: z.number().int(),
      unitPrice: z.number().int(),
      lineTotal: z.number().int(),
      /** Units given back by succeeded or pending refunds. */
      refundedQuantity: z.number().int(),
      /**
       * What one unit cost the shopper after the order's discount and with its share of tax: the
       * refund form proposes quantity × this (plus shipping), and staff may change it.
       */
      refundPerUnit: z.number().int(),
    }),
  ),
  subtotal: z.number().int(),
  discount: z.number().int(),
  promoCode: z.string().nullable(),
  shippingMethod: z.string(),
  shipping: z.number().int(),
  tax: z.number().int(),
  /** The prices held the tax (decision 116): `tax` is inside the total, not added to it. */
  taxIncluded: z.boolean(),
  total: z.number().int(),
  shipTo: orderAddressSchema.extend(placeNames),
  /** null: billed to the shipping address. */
  billTo: orderAddressSchema.extend(placeNames).nullable(),
  payment: z.object({
    label: z.string(),
    provider: z.string(),
    captured: z.number().int(),
    refunded: z.number().int(),
    /** What may still be refunded: captured - refunded - refunds pending. */
    refundable: z.number().int(),
    /** Shipping not yet refunded. */
    shippingRefundable: z.number().int(),
    refunds: z.array(orderRefundSchema),
  }),
  customer: z.object({
    userId: z.string().nullable(),
    email: z.string(),
    name: z.string(),
    registered: z.boolean(),
    href: z.string(),
    /** Orders placed with this account (or, for a guest, this email) in this store. */
    orderCount: z.number().int(),
  }),
  shipments: z.array(
    z.object({
      fulfillmentId: z.string(),
      carrierName: z.string(),
      trackingNumber: z.string().nullable(),
      trackingUrl: z.string().nullable(),
      shippedAt: z.string(),
    }),
  ),
  /** Status changes and timeline events, newest first. */
  timeline: z.array(
    z.object({
      id: z.string(),
      /** 'status' for a transition; otherwise the event's kind. */
      kind: z.string(),
      message: z.string(),
      /** The reason of a transition, for staff. */
      detail: z.string().nullable(),
      actor: z.string().nullable(),
      visibleToShopper: z.boolean(),
      at: z.string(),
    }),
  ),
  /** Which actions the state machine allows now. */
  can: z.object({
    fulfil: z.boolean(),
    deliver: z.boolean(),
    cancel: z.boolean(),
    refund: z.boolean(),
  }),
});
export type StaffOrder = z.infer<typeof staffOrderSchema>;

export const orderIdParamsSchema = z.strictObject({ orderId: z.string().trim().min(1).max(64) });
export const orderRefundParamsSchema = orderIdParamsSchema.extend({ refundId: z.string().trim().min(1).max(64) });

export const orderNoteSchema = z.strictObject({
  message: z
    .string()
    .trim()
    .min(1, 'message: write the note')
    .max(ORDER_NOTE_MAX, `message: at most ${ORDER_NOTE_MAX} characters`),
});

const httpUrl = z
  .string()
  .trim()
  .max(500, 'trackingUrl: at most 500 characters')
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'trackingUrl: give an http(s) link');

export const fulfilRequestSchema = z
  .strictObject({
    carrier: z.enum(CARRIER_KEYS as [CarrierKey, ...CarrierKey[]], {
      error: `carrier: choose one of ${CARRIER_KEYS.join(', ')}`,
    }),
    /** For 'other': the carrier's name as the shopper should read it. */
    carrierName: z.string().trim().max(100, 'carrierName: at most 100 characters').optional(),
    trackingNumber: z
      .string()
      .trim()
      .min(1, 'trackingNumber: enter the tracking number')
      .max(100, 'trackingNumber: at most 100 characters')
      .regex(/^[A-Za-z0-9 ._/-]+$/, 'trackingNumber: letters, digits, spaces, . _ / - only'),
    /** For 'other': the page where the shopper follows the parcel. */
    trackingUrl: httpUrl.optional(),
    /** Email the shopper the tracking link. */
    notify: z.boolean().default(true),
  })
  .superRefine((v, ctx) => {
    if (v.carrier !== 'other') return;
    if (!v.carrierName)
      ctx.addIssue({ code: 'custom', path: ['carrierName'], message: 'carrierName: name the carrier' });
    if (!v.trackingUrl)
      ctx.addIssue({ code: 'custom', path: ['trackingUrl'], message: 'trackingUrl: give the tracking link' });
  });
export type FulfilRequest = z.infer<typeof fulfilRequestSchema>;

export const orderCancelSchema = z.strictObject({
  reason: z.string().trim().max(REFUND_REASON_MAX, `reason: at most ${REFUND_REASON_MAX} characters`).default(''),
  /** Email the shopper that the order is cancelled (and refunded). */
  notify: z.boolean().default(true),
});
export type CancelOrderRequest = z.infer<typeof orderCancelSchema>;

/** What an action answers: the order as it is now, and a sentence for the toast. */
export const orderActionResultSchema = z.object({ order: staffOrderSchema, message: z.string() });
export type OrderActionResult = z.infer<typeof orderActionResultSchema>;

export const ORDER_NOTE_FIELDS = ['message'] as const;
export const FULFIL_FIELDS = ['carrier', 'carrierName', 'trackingNumber', 'trackingUrl'] as const;
export const ORDER_CANCEL_FIELDS = ['reason'] as const;
export const REFUND_FIELDS = ['amount', 'lines', 'shipping', 'reason'] as const;
export type FulfilField = (typeof FULFIL_FIELDS)[number];
export type RefundField = (typeof REFUND_FIELDS)[number];

/** Every action form's outcome: which form it was (`intent`), and a message for the toast. */
export type OrderPageFormResult =
  | { ok: true; message: string; intent: string }
  | (FormOutcome<'message' | FulfilField | 'reason' | RefundField> & { intent: string });

/** The order page's functions; each needs the `orders` permission. */
export interface OrderAdminPages {
  /** null: no such order in this store. */
  staffOrderPage(orderId: string): Promise<StaffOrder | null>;
  /** One of the page's forms, by its `intent` (note, fulfil, deliver, cancel, refund, retry). */
  orderPageAction(orderId: string, fields: Record<string, string>): Promise<OrderPageFormResult>;
}
