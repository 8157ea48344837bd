import type { OrderStatus, ReturnStatus } from '@app/contracts';

/**
 * A return request's lifecycle as an explicit transitions table, like the order's (order-state.ts).
 * The shopper asks (requested); the store approves or rejects it; the parcel arrives (received) and
 * is refunded, or turns out not to qualify (rejected). Until the parcel is on its way the shopper may
 * withdraw the request (cancelled). Ends: refunded, rejected, cancelled.
 */
export const RETURN_TRANSITIONS: Record<ReturnStatus, readonly ReturnStatus[]> = {
  requested: ['approved', 'rejected', 'cancelled'],
  approved: ['received', 'cancelled'],
  received: ['refunded', 'rejected'],
  refunded: [],
  rejected: [],
  cancelled: [],
};

/**
 * Requests in these statuses hold their quantities: a line can never be asked back more often than
 * it was bought. A rejected or cancelled request gives its quantities back.
 */
export const HOLDING_RETURN_STATUSES: readonly ReturnStatus[] = ['requested', 'approved', 'received', 'refunded'];

/** Only what reached the shopper can be sent back. */
export const RETURNABLE_ORDER_STATUSES: readonly OrderStatus[] = ['delivered', 'completed'];

export function canTransitionReturn(from: ReturnStatus, to: ReturnStatus): boolean {
  return RETURN_TRANSITIONS[from].includes(to);
}
