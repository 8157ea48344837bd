// Who may see a store (decision 105), zod-free for the browser: the modes, their words, the messages.

export const ACCESS_MODES = ['public', 'login_required', 'approved_only', 'invitation_only'] as const;
export type AccessMode = (typeof ACCESS_MODES)[number];

/** What the owner's page says of each mode (label, then who sees the store). */
export const ACCESS_MODE_LABELS: Record<AccessMode, { label: string; help: string }> = {
  public: { label: 'Public', help: 'Everyone can browse the store, see prices and buy.' },
  login_required: {
    label: 'Login required',
    help: 'Visitors see only the login page. Anyone may create an account and browse once signed in.',
  },
  approved_only: {
    label: 'Approved accounts only',
    help: 'Anyone may ask for an account; it sees nothing until you approve it. You get an email for each request.',
  },
  invitation_only: {
    label: 'Invitation only',
    help: 'Registration is closed. You invite customers by email; they set a password from the link.',
  },
};

/** Whether a mode admits only accounts the owner accepted (approved, or invited). */
export const modeNeedsApproval = (mode: AccessMode) => mode === 'approved_only' || mode === 'invitation_only';

/** A customer account's standing with the owner of an approved-only store. */
export const ACCOUNT_ACCESS_STATUSES = ['approved', 'pending', 'declined'] as const;
export type AccountAccessStatus = (typeof ACCOUNT_ACCESS_STATUSES)[number];

export const REGISTRATION_CLOSED_MESSAGE =
  'This store admits customers by invitation only. Ask the store for an invitation.';
export const ACCOUNT_PENDING_MESSAGE =
  'Your account is waiting for the store owner’s approval. We will email you as soon as they decide.';
export const ACCOUNT_DECLINED_MESSAGE =
  'The store owner did not approve this account, so the store stays closed to it.';
export const CUSTOMER_INVITATION_INVALID_MESSAGE =
  'This invitation is invalid, used, revoked or expired. Please ask the store for a new one.';
