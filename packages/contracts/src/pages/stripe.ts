import type { FormOutcome } from '../storefront';
import type { StripeAccountView, StripeFormResult } from '../stripe';

/** The Payments page's Stripe section and checkout's way back from Stripe's hosted page (decision 118). */
export interface StripePages {
  /** The store's Stripe account as the Payments page shows it; the payments permission. */
  stripeAccount(): Promise<StripeAccountView>;
  /** intent connect (the form's secretKey and webhookSecret, checked with Stripe) or disconnect. */
  saveStripe(intent: string, fields: Record<string, string>): Promise<StripeFormResult>;
  /**
   * The shopper is back from Stripe's hosted page (success_url): the order if Stripe says it is paid,
   * where to send them (the order page, or checkout with a message).
   */
  stripeReturn(sessionId: string): Promise<{ ok: true; location: string } | FormOutcome<never>>;
  /** The shopper left Stripe's page without paying: the reservation is released. */
  stripeCancel(sessionId: string): Promise<{ ok: true; location: string } | FormOutcome<never>>;
}

declare module './index' {
  interface PageApi extends StripePages {}
}
