/**
 * The payment provider port. A card goes to the provider once, to be tokenised;
 * the platform keeps only the token and what a shopper needs to recognise the card. Checkout charges
 * a typed card or a saved card's token.
 */
export interface CardDetails {
  number: string;
  cvc: string;
  expMonth: number;
  expYear: number;
  name: string;
}

export type TokenizeResult =
  | { ok: true; token: string; brand: string; last4: string }
  | { ok: false; reason: 'declined' | 'invalid_number' | 'expired'; message: string };

export interface ChargeRequest {
  /** Integer minor units. */
  amountMinor: number;
  currency: string;
  /** A card typed at checkout, or the token of a saved card. */
  source: { kind: 'card'; card: CardDetails } | { kind: 'token'; token: string };
  /** The same key charges once, however often it is sent (the order's idempotency key). */
  idempotencyKey: string;
  description: string;
}

export type ChargeResult =
  | { ok: true; chargeId: string; brand: string; last4: string }
  | { ok: false; reason: 'declined' | 'invalid_number' | 'expired'; message: string };

export interface RefundRequest {
  /** The charge's id, as `charge` returned it (the order's payment reference). */
  chargeId: string;
  /** Integer minor units; at most what is left of the charge. */
  amountMinor: number;
  currency: string;
  /** The same key refunds once, however often it is sent (our refund's id). */
  idempotencyKey: string;
}

/**
 * A refund the provider refused comes back typed, never thrown: the staff member is told why and
 * nothing is recorded as refunded. A provider that cannot be reached throws (AppError 502): the
 * outcome is unknown, and the refund stays pending to be asked again with the same key.
 */
export type RefundResult =
  | { ok: true; refundId: string }
  | { ok: false; reason: 'exceeds_charge' | 'not_found' | 'declined'; message: string };

export interface PaymentProvider {
  readonly id: string;
  tokenizeCard(card: CardDetails): Promise<TokenizeResult>;
  /** Takes the money; checkout refunds it if the order cannot be finished, the store when it gives money back. */
  charge(req: ChargeRequest): Promise<ChargeResult>;
  refund(req: RefundRequest): Promise<RefundResult>;
}
