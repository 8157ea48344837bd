import type { ContactMessageStatus } from '@app/contracts';

/**
 * Where a contact message may go (decision 047): `new` is unread in the inbox, `read` read in the
 * inbox, `archived` out of it. Archived messages keep whether they were read in `read_at`, so moving
 * one back to the inbox lands it where it was.
 */
export const MESSAGE_TRANSITIONS: Record<ContactMessageStatus, readonly ContactMessageStatus[]> = {
  new: ['read', 'archived'],
  read: ['new', 'archived'],
  archived: ['new', 'read'],
};

export function canMoveMessage(from: ContactMessageStatus, to: ContactMessageStatus): boolean {
  return MESSAGE_TRANSITIONS[from].includes(to);
}
