import type { PlaceOrder } from '@app/contracts';
import type { schema } from '@app/db';
import type { TenantContext } from '../../../lib/context';
import { type Refusal, Refused, type Result, refuse, refuseField } from '../../../lib/result';
import type { PayPalAccount, StripeAccount } from '../../payments/index';
import type { Amount, Buyer, CheckoutDeps } from './checkout-types';

type PayPalCheckoutRow = typeof schema.paypalCheckouts.$inferSelect;

/** One way of paying, as the place-order steps see it. */
export interface Payer {
  providerId: string;
  /** The order's id when the payment named it before the order existed (PayPal's invoice id). */
  orderId?: string;
  /** orders.payment_account: whose account takes the money (decision 049); null for cards. */
  account?: string | null;
  /** Part of the idempotency hash: the same key with another way of paying is a different order. */
  fingerprint: string;
  /** Shown until the payment says more ("Visa •••• 4242"). */
  labelGuess: string;
  /**
   * Takes the money for the reserved order. A refusal (declined, the total changed) is thrown as
   * `Refused`, so the step that called it undoes the reservation on the way out.
   */
  take(orderId: string, q: Amount): Promise<{ ref: string; label: string; note: string }>;
  /** Gives the money back when the order cannot be confirmed after all; false when a person must. */
  giveBack(ref: string, q: Amount): Promise<boolean>;
}

/** A saved card to charge; one that cannot be (not the shopper's, expired) refuses the order as `Refused`. */
function savedCard<T>(r: Result<T, Refusal>): T {
  if (!r.ok) throw new Refused(r);
  return r.value;
}

/** The two ways of paying: a card (typed or saved) through the card provider, and PayPal. */
export function createPayers(deps: Pick<CheckoutDeps, 'cards' | 'log'>) {
  /** A typed card, or a saved card that must be the shopper's own; charged through the provider. */
  async function cardPayer(ctx: TenantContext, buyer: Buyer, payment: PlaceOrder['payment']): Promise<Payer> {
    const source =
      payment.method === 'card'
        ? {
            kind: 'card' as const,
            card: {
              number: payment.cardNumber,
              cvc: payment.cvc,
              expMonth: payment.expMonth,
              expYear: payment.expYear,
              name: payment.nameOnCard,
            },
          }
        : buyer.userId
          ? {
              kind: 'token' as const,
              ...savedCard(await deps.cards.forCharge(ctx, buyer.userId, payment.paymentMethodId)),
            }
          : (() => {
              throw new Refused(refuseField(400, 'BAD_REQUEST', 'paymentMethodId', 'log in to pay with a saved card.'));
            })();
    return {
      providerId: deps.cards.provider.id,
      fingerprint:
        payment.method === 'card' ? `card:${payment.cardNumber.slice(-4)}` : `saved:${payment.paymentMethodId}`,
      labelGuess: source.kind === 'token' ? `${source.brand} •••• ${source.last4}` : 'Card',
      async take(orderId, q) {
        const charge = await deps.cards.provider.charge({
          amountMinor: q.total,
          currency: q.currency,
          source: source.kind === 'card' ? source : { kind: 'token', token: source.token },
          // One charge per reservation: a retry after a decline makes a new order, so a new charge.
          idempotencyKey: `${ctx.tenantId}:${orderId}`,
          description: `Order ${orderId}`,
        });
        if (!charge.ok) {
          if (charge.reason === 'declined') throw new Refused(refuse(422, 'PAYMENT_DECLINED', charge.message));
          throw new Refused(refuse(400, 'BAD_REQUEST', charge.message));
        }
        const label = charge.last4 ? `${charge.brand} •••• ${charge.last4}` : charge.brand;
        return { ref: charge.chargeId, label, note: charge.brand };
      },
      async giveBack(ref, q) {
        const back = await deps.cards.provider.refund({
          chargeId: ref,
          amountMinor: q.total,
          currency: q.currency,
          idempotencyKey: `${ctx.tenantId}:giveback:${ref}`,
        });
        return back.ok;
      },
    };
  }

  /**
   * Captures the shopper's approved PayPal order for the reserved order. PayPal's order must be for
   * this order's amount and currency, checked before the capture (the cart may have changed while
   * the shopper was at PayPal) and again on the capture PayPal reports.
   */
  function payPalPayer(ctx: TenantContext, row: PayPalCheckoutRow, account: PayPalAccount): Payer {
    const paypal = account.client;
    const planned = (row.request as { orderId?: unknown }).orderId;
    const changed = () =>
      new Refused(
        refuse(
          409,
          'PAYMENT_AMOUNT_CHANGED',
          'Your order total changed while you were at PayPal. Please check your order and pay again.',
        ),
      );
    return {
      providerId: 'paypal',
      ...(typeof planned === 'string' ? { orderId: planned } : {}),
      account: account.account,
      fingerprint: `paypal:${row.paypalOrderId}`,
      labelGuess: 'PayPal',
      async take(_orderId, q) {
        if (row.amount !== q.total || row.currency !== q.currency) throw changed();
        const at = await paypal.getOrder(row.paypalOrderId);
        if (at.amountMinor !== q.total || at.currency !== q.currency) throw changed();
        // PayPal answers a repeated request id with the first capture, never a second one.
        const requestId = `${ctx.tenantId}:capture:${row.paypalOrderId}`;
        const capture = await paypal
          .captureOrder(row.paypalOrderId, requestId)
          .catch(() => paypal.captureOrder(row.paypalOrderId, requestId));
        if (!capture.ok) {
          deps.log.warn(
            { paypalOrderId: row.paypalOrderId, issue: capture.issue, debugId: capture.debugId },
            'PayPal capture refused',
          );
          if (capture.reason === 'declined') throw new Refused(refuse(422, 'PAYMENT_DECLINED', capture.message));
          if (capture.reason === 'not_found') throw new Refused(refuse(404, 'NOT_FOUND', capture.message));
          throw new Refused(refuse(409, 'CONFLICT', capture.message));
        }
        if (capture.amountMinor !== q.total || capture.currency !== q.currency) {
          // Cannot happen unless PayPal misbehaves; the money must then be sorted out by hand.
          deps.log.error(
            {
              paypalOrderId: row.paypalOrderId,
              captureId: capture.captureId,
              captured: capture.amountMinor,
              expected: q.total,
            },
            'PayPal captured a different amount than the order total; refund it by hand',
          );
          throw changed();
        }
        return { ref: capture.captureId, label: 'PayPal', note: 'PayPal' };
      },
      // The whole capture back, through the account that took it (acting for a connected seller).
      async giveBack(ref, q) {
        const back = await paypal.refundCapture(ref, {
          amountMinor: q.total,
          currency: q.currency,
          requestId: `${ctx.tenantId}:giveback:${ref}`,
          ...(account.merchantId ? { onBehalfOf: account.merchantId } : {}),
        });
        return back.ok;
      },
    };
  }

  /**
   * A card paid on Stripe's hosted page (decision 118). The money is taken there, before the order is
   * confirmed, so `take` is never the step that pays: checkout confirms with what Stripe reports.
   * Giving back refunds the payment intent through the store's account.
   */
  function stripePayer(ctx: TenantContext, account: StripeAccount): Payer {
    return {
      providerId: 'stripe',
      fingerprint: 'stripe',
      labelGuess: 'Card (Stripe)',
      async take() {
        throw new Refused(refuse(409, 'CONFLICT', 'This order is paid on Stripe’s page. Please place it again.'));
      },
      async giveBack(ref, q) {
        const back = await account.client.createRefund(
          { paymentIntent: ref, amountMinor: q.total, orderId: '' },
          `${ctx.tenantId}:giveback:${ref}`,
        );
        return back.ok;
      },
    };
  }

  return { cardPayer, payPalPayer, stripePayer };
}
