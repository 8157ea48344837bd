import type { Order, OrderSummary } from '../checkout';

/** A shopper's orders: one order (by owner or signed link) and the history. */
export interface OrdersPages {
  /**
   * One order, for its owner or with its signed link; null when neither. Too many wrong links from
   * this client (or for this order) answer how long to wait instead.
   */
  order(orderId: string, key: string | null): Promise<Order | null | { retryAfterSeconds: number }>;
  orderHistory(page: number): Promise<{ orders: OrderSummary[]; total: number; page: number; pageSize: number }>;
}
