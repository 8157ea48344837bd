import { z } from 'zod';
import { PAYMENT_STATUSES, type PaymentStatus } from './order-display';
import {
  FULFILMENT_FILTERS,
  ORDER_LIST_FILTER_KEYS,
  ORDER_LIST_PAGE_MAX,
  ORDER_LIST_SORTS,
  ORDER_VIEW_NAME_MAX,
} from './order-list-options';
import { orderStatuses } from './order-status';
import type { FormOutcome } from './storefront';
import { isoDay, textInt } from './strict-input';

/**
 * The dashboard's orders list (decision 042): one filter schema for the page, the
 * API, the export and the saved views, so the four always mean the same orders.
 */

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const opt = <T extends z.ZodType>(s: T) => z.preprocess(blankToUndefined, s.optional());
/** "paid,fulfilled", ["paid", "fulfilled"] (repeated query keys, checkboxes) -> ["paid", "fulfilled"]. */
const listOf = (v: unknown) => {
  const parts = (Array.isArray(v) ? v : [v]).flatMap((x) => (typeof x === 'string' ? x.split(',') : [x]));
  const out = parts.map((x) => (typeof x === 'string' ? x.trim() : x)).filter((x) => x !== '' && x !== undefined);
  return out.length ? [...new Set(out)] : undefined;
};
/** A real calendar day (2026-02-30 is refused, not read as 2 March). */
const dateText = (name: string) => opt(isoDay(name));
/** A decimal amount as typed ("12.50"); read in the store's currency with parseDecimalMoney. */
const moneyText = (name: string) =>
  opt(
    z
      .string()
      .trim()
      .max(20, `${name} is too long`)
      .regex(/^[\d.,]+$/, `${name} must be an amount like 25.00`),
  );

/** The list's filters and sort: the query string of the page, the API, the export, and a saved view. */
export const orderListFilterSchema = z.object({
  /** An order id (exact or its beginning), an email (or its beginning), or part of a customer's name. */
  q: opt(z.string().trim().max(200, 'q is longer than 200 characters')),
  status: z.preprocess(
    listOf,
    z.array(z.enum(orderStatuses, { error: `status must be among ${orderStatuses.join(', ')}` })).optional(),
  ),
  payment: opt(z.enum(PAYMENT_STATUSES, { error: `payment must be one of ${PAYMENT_STATUSES.join(', ')}` })),
  fulfilment: opt(z.enum(FULFILMENT_FILTERS, { error: `fulfilment must be one of ${FULFILMENT_FILTERS.join(', ')}` })),
  /** Placed on or after this day (UTC). */
  from: dateText('from'),
  /** Placed on or before this day (UTC). */
  to: dateText('to'),
  totalMin: moneyText('totalMin'),
  totalMax: moneyText('totalMax'),
  sort: z.preprocess(
    blankToUndefined,
    z.enum(ORDER_LIST_SORTS, { error: `sort must be one of ${ORDER_LIST_SORTS.join(', ')}` }).default('newest'),
  ),
});
export type OrderListFilter = z.infer<typeof orderListFilterSchema>;
/**
 * The zod-free filter keys (order-list-options.ts, for the browser) must be this schema's fields.
 * Checked here, on the side that has the schema, so the options file needs no import back.
 */
ORDER_LIST_FILTER_KEYS satisfies readonly (keyof OrderListFilter)[];
export const orderListQuerySchema = orderListFilterSchema.extend({
  /** Opaque: the nextCursor (or prevCursor) of the page shown. */
  cursor: opt(z.string().max(300, 'cursor is not valid')),
  limit: z.preprocess(
    blankToUndefined,
    textInt('limit', { min: 1, max: ORDER_LIST_PAGE_MAX }).default(ORDER_LIST_PAGE_MAX),
  ),
});
export type OrderListQuery = z.infer<typeof orderListQuerySchema>;

/** Lines a row of the orders list shows (the export has every line). */
export const ORDER_LIST_LINES = 3;

export const orderListRowSchema = z.object({
  orderId: z.string(),
  placedAt: z.string(),
  status: z.enum(orderStatuses),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  /** The account's name, else the ship-to name. */
  customerName: z.string(),
  email: z.string(),
  userId: z.string().nullable(),
  /** Units ordered (sum of the lines' quantities). */
  items: z.number().int(),
  grandTotal: z.number().int(),
  refundedAmount: z.number().int(),
  currency: z.string(),
  /**
   * The order's first ORDER_LIST_LINES lines as ordered, each with its variant (decision 112):
   * "Brass / Large" ('' for a default variant) and its SKU.
   */
  lines: z.array(
    z.object({
      productName: z.string(),
      variantTitle: z.string(),
      sku: z.string().nullable(),
      quantity: z.number().int(),
    }),
  ),
  /** Lines past those. */
  moreLines: z.number().int(),
});
export type OrderListRow = z.infer<typeof orderListRowSchema>;

export const orderListPageSchema = z.object({
  rows: z.array(orderListRowSchema),
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: z.string().nullable(),
  /** Pass as `cursor` for the page before; null on the first one. */
  prevCursor: z.string().nullable(),
});
export type OrderListPage = z.infer<typeof orderListPageSchema>;

/** The filters as answers carry them (already read: no preprocessing, so responses can be encoded). */
export const orderListFilterOutSchema = z.object({
  q: z.string().optional(),
  status: z.array(z.enum(orderStatuses)).optional(),
  payment: z.enum(PAYMENT_STATUSES).optional(),
  fulfilment: z.enum(FULFILMENT_FILTERS).optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  totalMin: z.string().optional(),
  totalMax: z.string().optional(),
  sort: z.enum(ORDER_LIST_SORTS),
});

/** A saved view: a named filter set of one staff member (a tab above the list). */
export const orderViewSchema = z.object({
  viewId: z.string(),
  name: z.string(),
  filters: orderListFilterOutSchema,
  createdAt: z.string(),
});
export type OrderView = z.infer<typeof orderViewSchema>;

export const orderViewCreateSchema = z.strictObject({
  name: z
    .string({ error: 'name is required' })
    .trim()
    .min(1, 'name is required')
    .max(ORDER_VIEW_NAME_MAX, `name is longer than ${ORDER_VIEW_NAME_MAX} characters`),
  filters: orderListFilterSchema,
});
export type OrderViewCreate = z.infer<typeof orderViewCreateSchema>;

/** What the orders page shows. */
export interface OrderListPageData {
  query: OrderListQuery;
  page: OrderListPage;
  views: OrderView[];
  /** The saved view whose filters are the current ones, if any (its tab is selected). */
  activeViewId: string | null;
  /** The store's currency: the total range is typed in it. */
  currency: string;
  /** Whether the store has any order at all ("No orders yet" rather than "No orders match"). */
  storeHasOrders: boolean;
  /** A filter the list could not use (a total that is not an amount), named for the form. */
  filterError: { field: 'totalMin' | 'totalMax' | 'to'; message: string } | null;
}

export type OrderViewField = 'name';
export type OrderViewFormResult = { ok: true; message: string; viewId: string | null } | FormOutcome<OrderViewField>;

export type { PaymentStatus };
