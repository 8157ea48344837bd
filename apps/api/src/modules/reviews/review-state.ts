import type { ReviewStatus } from '@app/contracts';

/**
 * Who may move a review where (decision 047). The store publishes or hides; REJECTED is an old
 * name for hidden that no code writes any more, and can be published again like a hidden one.
 */
export const REVIEW_TRANSITIONS: Record<ReviewStatus, readonly ReviewStatus[]> = {
  PENDING: ['PUBLISHED', 'HIDDEN'],
  PUBLISHED: ['HIDDEN'],
  HIDDEN: ['PUBLISHED'],
  REJECTED: ['PUBLISHED'],
};

export function canMoveReview(from: ReviewStatus, to: ReviewStatus): boolean {
  return REVIEW_TRANSITIONS[from].includes(to);
}
