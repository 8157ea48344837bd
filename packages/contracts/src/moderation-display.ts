/**
 * The zod-free part of review moderation and the contact inbox (decision 047), for browser code
 * (`@app/contracts/client`): statuses, their labels and the reply limits.
 */
export const REVIEW_STATUSES = ['PUBLISHED', 'HIDDEN', 'PENDING', 'REJECTED'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
/** What the owner filters by; REJECTED rows (none are written any more) show with HIDDEN. */
export const REVIEW_FILTER_STATUSES = ['PUBLISHED', 'HIDDEN', 'PENDING'] as const;
export const REVIEW_STATUS_LABELS: Record<ReviewStatus, string> = {
  PUBLISHED: 'Published',
  HIDDEN: 'Hidden',
  PENDING: 'Pending',
  REJECTED: 'Hidden',
};
export const REVIEW_REPLY_MAX = 2000;

export const CONTACT_MESSAGE_STATUSES = ['new', 'read', 'archived'] as const;
export type ContactMessageStatus = (typeof CONTACT_MESSAGE_STATUSES)[number];
export const MESSAGE_FOLDERS = ['inbox', 'archived'] as const;
export type MessageFolder = (typeof MESSAGE_FOLDERS)[number];
export const MESSAGE_REPLY_MAX = 5000;
