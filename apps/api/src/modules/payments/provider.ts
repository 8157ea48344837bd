/**
 * The payment provider port (DESIGN.md section 6). A card goes to the provider once, to be tokenised;
 * the platform keeps only the token and what a shopper needs to recognise the card. Charging the
 * token arrives with checkout.
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

export interface PaymentProvider {
  readonly id: string;
  tokenizeCard(card: CardDetails): Promise<TokenizeResult>;
}
