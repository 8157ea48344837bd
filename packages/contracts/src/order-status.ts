/**
 * The order's statuses, in their usual order. Its own file, below checkout, order display and the
 * order list, which all need it: kept in checkout.ts it closed an import circle through returns.
 */
export const orderStatuses = [
  'placed',
  'paid',
  'fulfilled',
  'delivered',
  'completed',
  'cancelled',
  'refunded',
] as const;
export type OrderStatus = (typeof orderStatuses)[number];
