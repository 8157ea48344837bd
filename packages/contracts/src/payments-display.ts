/**
 * What the payments pages and the API say about a store's PayPal seller account (decision 049).
 * Zod-free: the dashboard's browser code reads these too.
 */

/** The onboarding states; only the seller state machine (modules/payments/seller) moves between them. */
export const SELLER_STATUSES = ['not_started', 'pending', 'action_needed', 'connected', 'disconnected'] as const;
export type SellerStatus = (typeof SELLER_STATUSES)[number];

export const SELLER_STATUS_LABELS: Record<SellerStatus, string> = {
  not_started: 'Not connected',
  pending: 'Waiting for PayPal',
  action_needed: 'Action needed',
  connected: 'Connected',
  disconnected: 'Disconnected',
};

/**
 * What PayPal's merchant-integrations answer can still lack, and what the owner does about each:
 * the page shows the text as the next step, so it names the place at PayPal to go.
 */
export const SELLER_REASONS = {
  PAYMENTS_NOT_RECEIVABLE:
    'Your PayPal account cannot receive payments yet. Log in to PayPal and clear the notice on your account (PayPal usually asks to confirm your business details).',
  EMAIL_NOT_CONFIRMED:
    'Confirm your email address with PayPal: open the message PayPal sent you and follow its link, then check again here.',
  CONSENT_NOT_GRANTED:
    'PayPal says you have not given this store permission to take payments for you. Connect again and agree to share your data with the platform.',
  OTHER_STORE: 'This PayPal sign-up was started for another store. Start again from this page with "Connect PayPal".',
  NOT_FOUND_AT_PAYPAL:
    'PayPal does not know this sign-up yet. If you finished it at PayPal, wait a minute and check again; otherwise start again.',
  CONSENT_REVOKED:
    'The permission for this store to take payments was withdrawn in PayPal. Connect again to take PayPal payments.',
} as const;
export type SellerReason = keyof typeof SELLER_REASONS;

export const PAYMENT_ISSUE_KINDS = [
  'capture_without_order',
  'amount_mismatch',
  'refund_unknown',
  'capture_denied',
] as const;
export type PaymentIssueKind = (typeof PAYMENT_ISSUE_KINDS)[number];

export const PAYMENT_ISSUE_LABELS: Record<PaymentIssueKind, string> = {
  capture_without_order: 'Payment without an order',
  amount_mismatch: 'Amount differs from the order',
  refund_unknown: 'Refund made outside the store',
  capture_denied: 'Payment denied after the order',
};

/** The payment provider configuration of PayPal. */
export const PAYPAL_CONFIG_ID = 'PP_CONFIG';
