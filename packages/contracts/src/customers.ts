import { z } from 'zod';
import type { PaymentStatus } from './order-display';
import type { FormOutcome } from './storefront';
import { isoDay, textInt } from './strict-input';

/**
 * The dashboard's customers (decision 045): every shopper account of the store and
 * every guest who ordered (by email; a guest whose email has an account is that account). One filter
 * schema for the page, the API and the CSV export, so the three always mean the same customers.
 */

export const CUSTOMER_SORTS = ['last_order', 'amount_spent', 'name'] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];
export const CUSTOMER_SORT_LABELS: Record<CustomerSort, string> = {
  last_order: 'Last order (newest first)',
  amount_spent: 'Amount spent (highest first)',
  name: 'Name (A-Z)',
};
export const CUSTOMER_LIST_PAGE_MAX = 50;
export const CUSTOMER_NOTE_MAX = 2000;

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const opt = <T extends z.ZodType>(s: T) => z.preprocess(blankToUndefined, s.optional());
/** A real calendar day (2026-02-30 is refused, not read as 2 March). */
const day = (field: string) => opt(isoDay(field));

const filterShape = {
  /** Part of a name or an email. */
  q: opt(z.string().trim().max(200, 'q is longer than 200 characters')),
  /** yes: has ordered; no: an account that never ordered. */
  orders: opt(z.enum(['yes', 'no'], { error: 'orders must be yes or no' })),
  type: opt(z.enum(['account', 'guest'], { error: 'type must be account or guest' })),
  /** Customer since, from this day (inclusive, UTC). */
  since_from: day('since_from'),
  /** Customer since, up to this day (inclusive, UTC). */
  since_to: day('since_to'),
  sort: z.preprocess(
    blankToUndefined,
    z.enum(CUSTOMER_SORTS, { error: `sort must be one of ${CUSTOMER_SORTS.join(', ')}` }).default('last_order'),
  ),
};
const sinceInOrder = (f: { since_from?: string; since_to?: string }) =>
  !f.since_from || !f.since_to || f.since_from <= f.since_to;
const sinceMessage = { path: ['since_to'], message: 'since_to must not be before since_from' };

export const customerListFilterSchema = z.object(filterShape).refine(sinceInOrder, sinceMessage);
export type CustomerListFilter = z.infer<typeof customerListFilterSchema>;

export const customerListQuerySchema = z
  .object({
    ...filterShape,
    cursor: opt(z.string().max(600, 'cursor is not valid')),
    limit: z.preprocess(
      blankToUndefined,
      textInt('limit', { min: 1, max: CUSTOMER_LIST_PAGE_MAX }).default(CUSTOMER_LIST_PAGE_MAX),
    ),
  })
  .refine(sinceInOrder, sinceMessage);
export type CustomerListQuery = z.infer<typeof customerListQuerySchema>;

export const customerRowSchema = z.object({
  /** The account's user id; null for a guest (a guest is its email). */
  userId: z.string().nullable(),
  email: z.string(),
  name: z.string(),
  type: z.enum(['account', 'guest']),
  orderCount: z.number().int(),
  /** Captured minus refunded, minor units of the store's currency. */
  amountSpent: z.number().int(),
  lastOrderAt: z.string().nullable(),
  since: z.string(),
});
export type CustomerRow = z.infer<typeof customerRowSchema>;

export const customerListPageSchema = z.object({
  rows: z.array(customerRowSchema),
  nextCursor: z.string().nullable(),
  currency: z.string(),
});
export type CustomerListPage = z.infer<typeof customerListPageSchema>;

export const customerOrderSchema = z.object({
  orderId: z.string(),
  placedAt: z.string(),
  status: z.string(),
  paymentStatus: z.enum(['pending', 'paid', 'partially_refunded', 'refunded', 'voided']),
  grandTotal: z.number().int(),
  capturedAmount: z.number().int(),
  refundedAmount: z.number().int(),
});
export type CustomerOrder = z.infer<typeof customerOrderSchema> & { paymentStatus: PaymentStatus };

export const customerAddressSchema = z.object({
  /** address_book: saved by the shopper; order: shipped to in an order. */
  source: z.enum(['address_book', 'order']),
  toName: z.string(),
  address1: z.string(),
  address2: z.string().nullable(),
  city: z.string(),
  postalCode: z.string(),
  countryGeoId: z.string(),
  stateProvinceGeoId: z.string().nullable(),
});
export type CustomerAddress = z.infer<typeof customerAddressSchema>;

export const customerNoteSchema = z.object({
  noteId: z.string(),
  note: z.string(),
  authorName: z.string(),
  createdAt: z.string(),
});
export type CustomerNote = z.infer<typeof customerNoteSchema>;

export const customerDetailSchema = z.object({
  userId: z.string().nullable(),
  email: z.string(),
  name: z.string(),
  type: z.enum(['account', 'guest']),
  since: z.string(),
  currency: z.string(),
  orderCount: z.number().int(),
  /** Captured minus refunded over every order. */
  lifetimeValue: z.number().int(),
  /** Lifetime value over the paid orders, rounded; 0 without any. */
  averageOrder: z.number().int(),
  firstOrderAt: z.string().nullable(),
  lastOrderAt: z.string().nullable(),
  /** The newest orders (at most 100; orderCount says how many in all). */
  orders: z.array(customerOrderSchema),
  addresses: z.array(customerAddressSchema),
  notes: z.array(customerNoteSchema),
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;

export const customerNoteRequestSchema = z.strictObject({
  note: z
    .string({ error: 'note is required' })
    .trim()
    .min(1, 'Write a note.')
    .max(CUSTOMER_NOTE_MAX, `A note is at most ${CUSTOMER_NOTE_MAX} characters.`),
});
export type CustomerNoteRequest = z.infer<typeof customerNoteRequestSchema>;

/** A customer as the dashboard's URLs name it: an account by user id, a guest by email. */
export type CustomerRef = { userId: string } | { email: string };

export type CustomerListPageData = {
  query: CustomerListQuery;
  page: CustomerListPage;
};

export type CustomerActionResult = { ok: true; message: string } | FormOutcome<'note'>;
