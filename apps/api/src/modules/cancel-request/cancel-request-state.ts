import type { CancelRequestStatus } from '@app/contracts';

/**
 * A tenant's cancel request as an explicit transitions table. The owner files
 * (`none`/`withdrawn` -> `requested`) and withdraws (`requested` -> `withdrawn`) from the dashboard;
 * the platform approves (the store starts closing, decision 099) or declines a request (the owner sees
 * why and may file again), and the sweep closes the request with the store.
 */
export const CANCEL_REQUEST_TRANSITIONS: Record<CancelRequestStatus, readonly CancelRequestStatus[]> = {
  none: ['requested'],
  requested: ['withdrawn', 'approved', 'declined'],
  withdrawn: ['requested'],
  approved: ['closed'],
  declined: ['requested'],
  closed: [],
};

/** What the store's owner may ask for from the dashboard; the rest is the platform's. */
export const OWNER_TRANSITIONS: readonly CancelRequestStatus[] = ['requested', 'withdrawn'];

export const CANCEL_STATUS_LABELS: Record<CancelRequestStatus, string> = {
  none: 'No request',
  requested: 'Cancellation requested',
  withdrawn: 'Request withdrawn',
  approved: 'Cancellation approved',
  declined: 'Request declined',
  closed: 'Store closed',
};

export function canTransitionCancelRequest(from: CancelRequestStatus, to: CancelRequestStatus): boolean {
  return CANCEL_REQUEST_TRANSITIONS[from].includes(to);
}
