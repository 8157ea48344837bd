import { z } from 'zod';
import { orderRefundSchema } from './order-admin';
import { REFUND_REASON_MAX } from './order-display';
import {
  RETURN_MESSAGE_MAX,
  RETURN_NOTE_MAX,
  RETURN_REASONS,
  RETURN_STATUSES,
  RETURN_TABS,
  REVIEW_TEXT_MAX,
  REVIEW_TITLE_MAX,
} from './return-reasons';
import { textInt } from './strict-input';
import { variantIdSchema } from './variants';

export * from './return-reasons';

const orderId = z.string().trim().min(1, 'The order number is required.').max(64);
/** A guest's signed link key (the order page's `key`), instead of a session. */
const key = z.string().max(200).optional();
const reason = z.enum(RETURN_REASONS, { error: `Choose a reason: one of ${RETURN_REASONS.join(', ')}.` });
const note = z
  .string()
  .trim()
  .max(RETURN_NOTE_MAX, `Use at most ${RETURN_NOTE_MAX} characters.`)
  .optional()
  .transform((v) => v || undefined);
const quantity = z
  .number({ error: 'Enter a whole number of 1 or more.' })
  .int('Enter a whole number of 1 or more.')
  .min(1, 'Enter a whole number of 1 or more.')
  .max(10_000, 'That is more than was bought.');

/**
 * One line to send back: the order line by its number, or by product or variant (decision 112) when
 * the order has it on one line only.
 */
export const returnLineInputSchema = z
  .strictObject({
    lineNo: z.number().int().min(1).max(10_000).optional(),
    productId: z.string().trim().min(1).max(64).optional(),
    variantId: variantIdSchema.optional(),
    quantity,
  })
  .refine((l) => [l.lineNo, l.productId, l.variantId].filter((x) => x !== undefined).length === 1, {
    message: 'Name the order line by lineNo or by productId or variantId (one of them).',
    path: ['lineNo'],
  });
export type ReturnLineInput = z.infer<typeof returnLineInputSchema>;

/** POST /ecommerce/createreturns: send back chosen lines of a delivered order. */
export const createReturnSchema = z.strictObject({
  orderId,
  key,
  lines: z.array(returnLineInputSchema).min(1, 'Choose at least one item to return.').max(100, 'At most 100 lines.'),
  reason,
  note,
});
export type CreateReturn = z.infer<typeof createReturnSchema>;

/** POST /ecommerce/createRmaReturn: one RMA for everything of the order that can still be returned. */
export const createRmaReturnSchema = z.strictObject({ orderId, key, reason, note });
export type CreateRmaReturn = z.infer<typeof createRmaReturnSchema>;

export const returnRequestSchema = z.object({
  returnId: z.string(),
  orderId: z.string(),
  status: z.enum(RETURN_STATUSES),
  statusLabel: z.string(),
  reason: z.enum(RETURN_REASONS),
  reasonLabel: z.string(),
  note: z.string().nullable(),
  createdAt: z.string(),
  lines: z.array(
    z.object({
      lineNo: z.number().int(),
      productId: z.string(),
      productName: z.string(),
      /** The variant sent back (decision 112), as its order line names it; null on lines older than variants. */
      variantId: z.string().nullable(),
      /** "Brass / Large" as ordered; '' for a default variant. */
      variantTitle: z.string(),
      /** The variant's SKU as ordered. */
      sku: z.string().nullable(),
      quantity: z.number().int(),
    }),
  ),
  /**
   * Every step with what the shopper should know of it: the store's instructions (approved), the
   * reason (rejected), the money given back (refunded, `amount` in the order's currency).
   */
  history: z.array(
    z.object({
      status: z.enum(RETURN_STATUSES),
      note: z.string().nullable(),
      amount: z.number().int().nullable(),
      at: z.string(),
    }),
  ),
});
export type ReturnRequest = z.infer<typeof returnRequestSchema>;

/** What of an order line can still be asked back: bought minus what open or settled returns hold. */
export const returnableLineSchema = z.object({ lineNo: z.number().int(), quantity: z.number().int() });
export type ReturnableLine = z.infer<typeof returnableLineSchema>;

/** POST /ecommerce/product/review. */
export const reviewCreateSchema = z.strictObject({
  productId: z.string().trim().min(1, 'The product is required.').max(64),
  rating: z
    .number({ error: 'Give a rating of 1 to 5 stars.' })
    .int('Give a rating of 1 to 5 stars.')
    .min(1, 'Give a rating of 1 to 5 stars.')
    .max(5, 'Give a rating of 1 to 5 stars.'),
  title: z
    .string()
    .trim()
    .max(REVIEW_TITLE_MAX, `Use at most ${REVIEW_TITLE_MAX} characters.`)
    .optional()
    .transform((v) => v || null),
  text: z
    .string({ error: 'Tell other shoppers what you think.' })
    .trim()
    .min(1, 'Tell other shoppers what you think.')
    .max(REVIEW_TEXT_MAX, `Use at most ${REVIEW_TEXT_MAX} characters.`),
});
export type ReviewCreate = z.infer<typeof reviewCreateSchema>;

export const reviewQuerySchema = z.strictObject({ productId: z.string().trim().min(1).max(64) });

export const reviewSchema = z.object({
  reviewId: z.string(),
  productId: z.string(),
  authorName: z.string(),
  rating: z.number().int(),
  title: z.string().nullable(),
  body: z.string().nullable(),
  createdAt: z.string(),
  /**
   * The variant the reviewer bought, as their order line named it when they ordered ("Brass / Large";
   * several joined by ", " when that order had more than one); null for a product's default variant.
   */
  boughtVariant: z.string().nullable(),
});
export type Review = z.infer<typeof reviewSchema>;

/** Whether the signed-in shopper may review a product, and why not. */
export const reviewEligibilitySchema = z.object({
  canReview: z.boolean(),
  reason: z.enum(['sign-in', 'not-bought', 'already-reviewed']).nullable(),
  /** Their review, when they wrote one. */
  review: reviewSchema.nullable(),
});
export type ReviewEligibility = z.infer<typeof reviewEligibilitySchema>;

/* ---------- The store's side (dashboard and /api/v1/returns) ---------- */

export const returnIdParamsSchema = z.strictObject({ returnId: z.string().trim().min(1).max(80) });

/** GET /api/v1/returns: newest first; a tab, a search by order id, return id or email; keyset cursor. */
export const returnListQuerySchema = z.strictObject({
  status: z.enum(RETURN_TABS, { error: `status: one of ${RETURN_TABS.join(', ')}` }).optional(),
  q: z.string().trim().max(200, 'q: at most 200 characters').optional(),
  cursor: z.string().max(300).optional(),
  limit: textInt('limit', { min: 1, max: 100 }).optional(),
});
export type ReturnListQuery = z.infer<typeof returnListQuerySchema>;

const customerSchema = z.object({ userId: z.string().nullable(), email: z.string(), name: z.string().nullable() });

export const returnListItemSchema = z.object({
  returnId: z.string(),
  orderId: z.string(),
  customer: customerSchema,
  /** Units asked back, over all lines. */
  items: z.number().int(),
  reason: z.enum(RETURN_REASONS),
  reasonLabel: z.string(),
  status: z.enum(RETURN_STATUSES),
  statusLabel: z.string(),
  createdAt: z.string(),
});
export type ReturnListItem = z.infer<typeof returnListItemSchema>;

export const returnListSchema = z.object({
  items: z.array(returnListItemSchema),
  nextCursor: z.string().nullable(),
});
export type ReturnList = z.infer<typeof returnListSchema>;

export const returnDetailSchema = z.object({
  returnId: z.string(),
  orderId: z.string(),
  status: z.enum(RETURN_STATUSES),
  statusLabel: z.string(),
  reason: z.enum(RETURN_REASONS),
  reasonLabel: z.string(),
  note: z.string().nullable(),
  createdAt: z.string(),
  currency: z.string(),
  customer: customerSchema,
  order: z.object({
    orderId: z.string(),
    status: z.string(),
    placedAt: z.string(),
    grandTotal: z.number().int(),
    capturedAmount: z.number().int(),
    refundedAmount: z.number().int(),
  }),
  lines: z.array(
    z.object({
      lineNo: z.number().int(),
      productId: z.string(),
      productName: z.string(),
      /** The variant returned (decision 112): "Brass / Large" ('' for a default variant) and its SKU, as ordered. */
      variantTitle: z.string(),
      sku: z.string().nullable(),
      optionsText: z.string().nullable(),
      quantity: z.number().int(),
      unitPrice: z.number().int(),
      /** What the line's units cost the shopper with their tax share (discount taken off). */
      refundValue: z.number().int(),
      restockedQuantity: z.number().int(),
    }),
  ),
  /** The refund the dashboard proposes: the lines' value, at most what is left of the capture. */
  proposedRefund: z.number().int(),
  /** What can still be refunded on the order (captured - refunded). */
  refundable: z.number().int(),
  history: z.array(
    z.object({
      status: z.enum(RETURN_STATUSES),
      statusLabel: z.string(),
      note: z.string().nullable(),
      reason: z.string().nullable(),
      amount: z.number().int().nullable(),
      actorName: z.string().nullable(),
      at: z.string(),
    }),
  ),
  /** The refunds made for this return (failed ones too, with why). */
  refunds: z.array(orderRefundSchema),
  /** The moves the transitions table allows from here. */
  next: z.array(z.enum(RETURN_STATUSES)),
});
export type ReturnDetail = z.infer<typeof returnDetailSchema>;

const storeMessage = (what: string) =>
  z
    .string({ error: `${what} is required.` })
    .trim()
    .min(1, `${what} is required.`)
    .max(RETURN_MESSAGE_MAX, `Use at most ${RETURN_MESSAGE_MAX} characters.`);

/** Approve: the instructions the shopper gets by mail (where and how to send the parcel). */
export const returnApproveSchema = z.strictObject({ instructions: storeMessage('Instructions for the shopper') });
/** Reject: the reason the shopper gets by mail. */
export const returnRejectSchema = z.strictObject({ reason: storeMessage('A reason') });
/** Mark received: per line, how many units go back to stock (0 to the line's quantity; absent: 0). */
export const returnReceiveSchema = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        lineNo: z.number().int().min(1).max(10_000),
        restock: z
          .number({ error: 'restock must be a whole number.' })
          .int('restock must be a whole number.')
          .min(0, 'restock cannot be negative.'),
      }),
    )
    .max(500)
    .default([]),
});
export type ReturnReceive = z.infer<typeof returnReceiveSchema>;
/** Refund: the amount (minor units) through the payment provider, and a reason for the books. */
export const returnRefundSchema = z.strictObject({
  amount: z
    .number({ error: 'amount must be a whole number of cents.' })
    .int('amount must be a whole number of cents.')
    .min(1, 'amount must be more than zero.'),
  reason: z.string().trim().max(REFUND_REASON_MAX, `Use at most ${REFUND_REASON_MAX} characters.`).default(''),
});
export type ReturnRefund = z.infer<typeof returnRefundSchema>;
