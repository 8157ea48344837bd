import type { OrderStatus } from './order-status';

/**
 * The zod-free part of the dashboard's orders list (browser code imports it through contracts/client):
 * sorts, fulfilment filters, labels and limits (decision 042).
 */

export const ORDER_LIST_PAGE_MAX = 50;
export const ORDER_LIST_SORTS = ['newest', 'oldest', 'total-high', 'total-low'] as const;
export type OrderListSort = (typeof ORDER_LIST_SORTS)[number];
export const ORDER_LIST_SORT_LABELS: Record<OrderListSort, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  'total-high': 'Total (highest)',
  'total-low': 'Total (lowest)',
};

/** Shopify's fulfilment status, from the order's own status (unfulfilled = paid, not yet shipped). */
export const FULFILMENT_FILTERS = ['unfulfilled', 'shipped', 'delivered'] as const;
export type FulfilmentFilter = (typeof FULFILMENT_FILTERS)[number];
export const FULFILMENT_LABELS: Record<FulfilmentFilter, string> = {
  unfulfilled: 'Unfulfilled',
  shipped: 'Shipped',
  delivered: 'Delivered',
};
/** The statuses each fulfilment filter means. */
export const FULFILMENT_STATUSES: Record<FulfilmentFilter, readonly OrderStatus[]> = {
  unfulfilled: ['paid'],
  shipped: ['fulfilled'],
  delivered: ['delivered', 'completed'],
};
/** The badge of an order's row: null for orders that will not ship (placed, cancelled, refunded). */
export function fulfilmentOf(status: OrderStatus): FulfilmentFilter | null {
  for (const f of FULFILMENT_FILTERS) if (FULFILMENT_STATUSES[f].includes(status)) return f;
  return null;
}

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  placed: 'Placed',
  paid: 'Paid',
  fulfilled: 'Shipped',
  delivered: 'Delivered',
  completed: 'Completed',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
};

export const ORDER_VIEW_NAME_MAX = 60;
/** Saved views one staff member may keep: tabs, not an archive. */
export const ORDER_VIEWS_PER_STAFF = 20;

/** The filter keys, in the order the page and the saved views write them. */
export const ORDER_LIST_FILTER_KEYS = [
  'q',
  'status',
  'payment',
  'fulfilment',
  'from',
  'to',
  'totalMin',
  'totalMax',
  'sort',
] as const;
