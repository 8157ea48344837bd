/**
 * The payment provider port (DESIGN.md section 6). A card goes to the provider once, to be tokenised;
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

export interface PaymentProvider {
  readonly id: string;
  tokenizeCard(card: CardDetails): Promise<TokenizeResult>;
  /** Takes the money; checkout calls `refund` to undo it if the order cannot be finished. */
  charge(req: ChargeRequest): Promise<ChargeResult>;
  refund(chargeId: string, amountMinor: number): Promise<void>;
}
