/**
 * Return reasons and statuses as shoppers read them. Zod-free, so the storefront's browser code can
 * show the reason picker and status badges (see display.ts for why that matters).
 */
export const RETURN_REASONS = [
  'damaged',
  'defective',
  'wrong-item',
  'not-as-described',
  'changed-mind',
  'other',
] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

export const RETURN_REASON_LABELS: Record<ReturnReason, string> = {
  damaged: 'Arrived damaged',
  defective: 'Does not work',
  'wrong-item': 'Wrong item sent',
  'not-as-described': 'Not as described',
  'changed-mind': 'No longer needed',
  other: 'Other reason',
};

export const RETURN_STATUSES = ['requested', 'approved', 'received', 'refunded', 'rejected', 'cancelled'] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

export const RETURN_STATUS_LABELS: Record<ReturnStatus, string> = {
  requested: 'Requested',
  approved: 'Approved: send it back',
  received: 'Received',
  refunded: 'Refunded',
  rejected: 'Declined',
  cancelled: 'Cancelled',
};

/** Longest note a shopper may add to a return request. */
export const RETURN_NOTE_MAX = 1000;
/** Review limits (characters, after trimming). */
export const REVIEW_TITLE_MAX = 120;
export const REVIEW_TEXT_MAX = 4000;

/**
 * The dashboard's tabs of return requests: the three that wait for the store, and the closed ones
 * (refunded, rejected or withdrawn by the shopper).
 */
export const RETURN_TABS = ['requested', 'approved', 'received', 'closed'] as const;
export type ReturnTab = (typeof RETURN_TABS)[number];
export const RETURN_TAB_LABELS: Record<ReturnTab, string> = {
  requested: 'Requested',
  approved: 'Approved',
  received: 'Received',
  closed: 'Closed',
};
export const RETURN_TAB_STATUSES: Record<ReturnTab, readonly ReturnStatus[]> = {
  requested: ['requested'],
  approved: ['approved'],
  received: ['received'],
  closed: ['refunded', 'rejected', 'cancelled'],
};

/** How the store side names a status (the shopper's labels speak to the shopper). */
export const RETURN_STATUS_ADMIN_LABELS: Record<ReturnStatus, string> = {
  requested: 'Requested',
  approved: 'Approved',
  received: 'Received',
  refunded: 'Refunded',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
};

/** Longest approval instructions or rejection reason the store writes to the shopper. */
export const RETURN_MESSAGE_MAX = 2000;
/** Return requests per page of the dashboard's list. */
export const RETURN_LIST_PAGE_SIZE = 50;
