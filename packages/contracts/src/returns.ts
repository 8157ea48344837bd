import { z } from 'zod';
import { RETURN_NOTE_MAX, RETURN_REASONS, RETURN_STATUSES, REVIEW_TEXT_MAX, REVIEW_TITLE_MAX } from './return-reasons';

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

/** One line to send back: the order line by its number, or by product when the order has it once. */
export const returnLineInputSchema = z
  .strictObject({
    lineNo: z.number().int().min(1).max(10_000).optional(),
    productId: z.string().trim().min(1).max(64).optional(),
    quantity,
  })
  .refine((l) => (l.lineNo === undefined) !== (l.productId === undefined), {
    message: 'Name the order line by lineNo or by productId (one of them).',
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
    z.object({ lineNo: z.number().int(), productId: z.string(), productName: z.string(), quantity: z.number().int() }),
  ),
  history: z.array(z.object({ status: z.enum(RETURN_STATUSES), note: z.string().nullable(), at: z.string() })),
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
