import { createHmac, randomBytes } from 'node:crypto';
import type {
  CardDetails,
  ChargeRequest,
  ChargeResult,
  PaymentProvider,
  RefundRequest,
  RefundResult,
  TokenizeResult,
} from './provider';

/**
 * The built-in test provider: offline, deterministic, documented in the README.
 * - 4242 4242 4242 4242 (any future expiry, any CVC) succeeds;
 * - 4000 0000 0000 0002 is declined;
 * - any other number passing the Luhn check succeeds, one failing it is refused as invalid.
 */
export const TEST_CARDS = { success: '4242424242424242', declined: '4000000000000002' } as const;

export function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let d = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return number.length >= 12 && sum % 10 === 0;
}

export function cardBrand(number: string): string {
  if (/^4/.test(number)) return 'Visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'Mastercard';
  if (/^3[47]/.test(number)) return 'American Express';
  if (/^6(011|5)/.test(number)) return 'Discover';
  return 'Card';
}

export function expired(expMonth: number, expYear: number, now = new Date()): boolean {
  return expYear < now.getUTCFullYear() || (expYear === now.getUTCFullYear() && expMonth < now.getUTCMonth() + 1);
}

export function createTestPaymentProvider(): PaymentProvider {
  const key = randomBytes(32);
  // Charges by idempotency key, as a real provider keeps them: the same key charges once.
  const charges = new Map<string, ChargeResult>();
  const tokens = new Map<string, { brand: string; last4: string }>();
  // What each charge of this process took and has given back, and refunds by key, as a provider
  // keeps them: a refund beyond the charge is refused, and the same key refunds once.
  const charged = new Map<string, { amount: number; currency: string; refunded: number }>();
  const refunds = new Map<string, RefundResult>();
  return {
    id: 'test',
    async charge(req: ChargeRequest): Promise<ChargeResult> {
      const seen = charges.get(req.idempotencyKey);
      if (seen) return seen;
      let result: ChargeResult;
      if (req.source.kind === 'card') {
        const t = await this.tokenizeCard(req.source.card);
        result = t.ok ? { ok: true, chargeId: '', brand: t.brand, last4: t.last4 } : t;
      } else {
        // Saved tokens of this process are known; others (a restart) are charged as a Visa.
        const known = tokens.get(req.source.token);
        result = req.source.token.startsWith('tok_test_')
          ? { ok: true, chargeId: '', brand: known?.brand ?? 'Card', last4: known?.last4 ?? '' }
          : { ok: false, reason: 'declined', message: 'The card was declined. Please use another card.' };
      }
      if (result.ok) {
        result = { ...result, chargeId: `ch_test_${randomBytes(12).toString('hex')}` };
        charged.set(result.chargeId, { amount: req.amountMinor, currency: req.currency, refunded: 0 });
      }
      charges.set(req.idempotencyKey, result);
      return result;
    },
    async refund(req: RefundRequest): Promise<RefundResult> {
      const seen = refunds.get(req.idempotencyKey);
      if (seen) return seen;
      let result: RefundResult;
      // Charges of an earlier process (a restart) and the seed's are not in memory: the provider
      // "knows" them, and the platform's own books keep refunds within what was captured.
      const charge = charged.get(req.chargeId);
      if (!req.chargeId) {
        result = { ok: false, reason: 'not_found', message: 'The payment to refund was not found.' };
      } else if (charge && (charge.currency !== req.currency || charge.refunded + req.amountMinor > charge.amount)) {
        result = {
          ok: false,
          reason: 'exceeds_charge',
          message: 'The refund is more than what is left of the payment.',
        };
      } else {
        if (charge) charge.refunded += req.amountMinor;
        result = { ok: true, refundId: `re_test_${randomBytes(12).toString('hex')}` };
      }
      refunds.set(req.idempotencyKey, result);
      return result;
    },
    async tokenizeCard(card: CardDetails): Promise<TokenizeResult> {
      if (!luhn(card.number))
        return { ok: false, reason: 'invalid_number', message: 'cardNumber: this card number is not valid.' };
      if (expired(card.expMonth, card.expYear))
        return { ok: false, reason: 'expired', message: 'expYear: this card has expired.' };
      if (card.number === TEST_CARDS.declined) {
        return { ok: false, reason: 'declined', message: 'The card was declined. Please use another card.' };
      }
      // A token that reveals nothing of the number (a keyed hash plus randomness), like a real provider's.
      const token = `tok_test_${createHmac('sha256', key).update(card.number).update(randomBytes(8)).digest('hex').slice(0, 24)}`;
      tokens.set(token, { brand: cardBrand(card.number), last4: card.number.slice(-4) });
      return { ok: true, token, brand: cardBrand(card.number), last4: card.number.slice(-4) };
    },
  };
}
