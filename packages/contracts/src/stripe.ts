import { z } from 'zod';
import type { FormOutcome } from './storefront';

/**
 * A store's own Stripe account (decision 118), as the Payments page and the API show it: whether it
 * is connected and which key ("sk_test_…abcd"), never the key or the webhook secret themselves.
 */
export const stripeAccountSchema = z.object({
  connected: z.boolean(),
  /** The key's kind and last four, e.g. sk_test_…abcd; null when not connected. */
  keyHint: z.string().nullable(),
  /** test or live, from the key Stripe accepted. */
  mode: z.enum(['test', 'live']).nullable(),
  /** Whether a webhook signing secret is stored (events from Stripe are refused without one). */
  webhookSecretSet: z.boolean(),
  stripeAccountId: z.string().nullable(),
  connectedAt: z.string().nullable(),
  /**
   * Whether checkout still offers the built-in test provider's card form ("Test card payments
   * (test mode)"): not once a live Stripe key is connected, so a live store takes no order on test cards.
   */
  testCardsOffered: z.boolean(),
});
export type StripeAccountView = z.infer<typeof stripeAccountSchema>;

/** Connecting (or replacing) the account: the secret key and the endpoint's signing secret. */
export const stripeConnectSchema = z.strictObject({
  secretKey: z
    .string()
    .trim()
    .max(255)
    .regex(
      /^(sk|rk)_(test|live)_[A-Za-z0-9]{4,247}$/,
      'enter a secret key from Stripe (it starts with sk_test_ or sk_live_).',
    ),
  webhookSecret: z
    .string()
    .trim()
    .max(255)
    .regex(/^whsec_[A-Za-z0-9]{4,249}$/, 'enter the signing secret of your webhook endpoint (it starts with whsec_).'),
});
export type StripeConnect = z.infer<typeof stripeConnectSchema>;

export type StripeField = 'secretKey' | 'webhookSecret';
export type StripeFormResult = { ok: true; message: string; account: StripeAccountView } | FormOutcome<StripeField>;
