import type { SellerState } from '../paypal-seller';
import type { FormOutcome } from '../storefront';

/** What the payments page shows. */
export interface PaymentsPageData {
  seller: SellerState;
  /** SELLER_STATUS_LABELS of the status. */
  statusLabel: string;
  /** Open payment_issues rows of the store: the page's warning links to them. */
  openIssues: number;
}

export type SellerActionResult = { ok: true; message: string } | FormOutcome<never>;

/** The payments page's functions; each needs the payments permission. */
export interface PaypalSellerPages {
  paymentsPage(): Promise<PaymentsPageData>;
  /** Starts PayPal's sign-up: where to send the owner (PayPal's action_url). */
  connectPaypal(): Promise<{ ok: true; actionUrl: string } | FormOutcome<never>>;
  /** Asks PayPal again; the message says what it found. */
  checkPaypal(): Promise<SellerActionResult>;
  disconnectPaypal(): Promise<SellerActionResult>;
}
