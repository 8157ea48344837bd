// What the operator console and the support-access section print: zod-free, for browser code
// (client.ts). The payloads themselves are operator.ts and store-lifecycle.ts.

type State = 'provisioning' | 'active' | 'suspended' | 'closing' | 'closed' | 'purged';
type Action = 'suspend' | 'resume' | 'approve-cancel' | 'decline-cancel' | 'close' | 'purge' | 'resend-invitation';
type Tone = 'neutral' | 'success' | 'info' | 'warning' | 'critical';

/** A state's badge in the console: the word says it, the colour only helps. */
export const CONSOLE_STATE_BADGES: Readonly<Record<State, { label: string; tone: Tone }>> = {
  provisioning: { label: 'Being set up', tone: 'info' },
  active: { label: 'Active', tone: 'success' },
  suspended: { label: 'Suspended', tone: 'warning' },
  closing: { label: 'Closing', tone: 'warning' },
  closed: { label: 'Closed', tone: 'critical' },
  purged: { label: 'Purged', tone: 'neutral' },
};
export const CONSOLE_STATES = Object.keys(CONSOLE_STATE_BADGES) as State[];

/** The stores list's sorts, named for what comes first. */
export const CONSOLE_SORT_LABELS = {
  created: 'Newest first',
  orders30d: 'Most orders (30 days)',
  sales30d: 'Most sales (30 days)',
} as const;

/**
 * Each action on a store's page: the confirm dialog's button, its question and what will happen,
 * so the operator reads the consequence before giving the reason.
 */
export const CONSOLE_ACTIONS: Readonly<
  Record<Action, { label: string; question: string; effect: string; destructive: boolean }>
> = {
  suspend: {
    label: 'Suspend store',
    question: 'Suspend this store?',
    effect:
      'Its storefront shows "temporarily unavailable" and its API answers 503; the owner’s dashboard becomes read-only and its jobs pause until you resume it.',
    destructive: true,
  },
  resume: {
    label: 'Resume store',
    question: 'Resume this store?',
    effect: 'Its storefront, API, dashboard and jobs work again at once.',
    destructive: false,
  },
  'approve-cancel': {
    label: 'Approve cancel request',
    question: 'Approve the owner’s cancel request?',
    effect:
      'The storefront closes and checkout stops now. The owner can still sign in and export for 30 days; then the store closes.',
    destructive: true,
  },
  'decline-cancel': {
    label: 'Decline cancel request',
    question: 'Decline the owner’s cancel request?',
    effect: 'The store stays open. The owner sees your reason on their cancel page.',
    destructive: false,
  },
  close: {
    label: 'Close store',
    question: 'Close this store now?',
    effect: 'Only its closed page answers from now on; the owner can no longer sign in. Purge is possible later.',
    destructive: true,
  },
  purge: {
    label: 'Purge store',
    question: 'Purge this store?',
    effect: 'Its data is erased for good. This cannot be undone.',
    destructive: true,
  },
  'resend-invitation': {
    label: 'Resend owner’s invitation',
    question: 'Mail the owner a new invitation?',
    effect: 'A new link to choose a password goes to the owner’s email; older links stop working.',
    destructive: false,
  },
};

/** The durations the owner may grant support access for, in hours. */
export const SUPPORT_HOUR_CHOICES = [1, 4, 24, 72] as const;

/**
 * Every action the platform's audit log records, with what the console says for it. The log keeps the
 * code (scripts filter on it); people read the words. The API's recorder takes only these codes, so a
 * new action cannot reach the log without its words.
 */
export const PLATFORM_AUDIT_ACTION_LABELS = {
  'store.create': 'Opened a store',
  'store.suspend': 'Suspended a store',
  'store.resume': 'Resumed a store',
  'store.approve-cancel': 'Approved a cancel request',
  'store.decline-cancel': 'Declined a cancel request',
  'store.close': 'Closed a store',
  'store.purge': 'Purged a store',
  'store.resend-invitation': "Resent the owner's invitation",
  'store.export': 'Exported a store',
  'store.import': 'Imported a store',
  'store.move': 'Moved a store to another database',
  'support.open': 'Opened a support session',
  'operator.create': 'Added an operator',
  'operator.sign-in': 'Signed in',
  'operator.sign-in-failed': 'Failed to sign in',
  'operator.sign-out': 'Signed out',
  'operator.totp-reset': 'Reset two-step sign-in',
  'operator.disable': 'Disabled an operator',
  'operator.enable': 'Enabled an operator',
  'token.create': 'Created an API token',
  'token.revoke': 'Revoked an API token',
} as const satisfies Record<`store.${Action}`, string> & Record<string, string>;
export type PlatformAuditAction = keyof typeof PLATFORM_AUDIT_ACTION_LABELS;

/** The words for an action code; an older code the list no longer has is shown as it is. */
export const platformAuditActionLabel = (action: string): string =>
  (PLATFORM_AUDIT_ACTION_LABELS as Record<string, string>)[action] ?? action;
