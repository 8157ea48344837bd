import type { PayPalCheckout } from '@app/contracts';
import type { RequestContext, TenantContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import { type Ok, ok, type Refusal, Refused, type Result, refuse, returnRefusals } from '../../../lib/result';
import type { StripeAccount, StripeCheckoutRow } from '../../payments/index';
import { type Buyer, buyerOf, type CheckoutDeps } from './checkout-types';
import type { createConfirmation } from './confirm-order';
import { createPayers } from './payers';
import type { createPlacing } from './place-order';

/** Starting a Stripe payment: Stripe not connected, the review's refusals, the key reused (409). */
export type StripeStartRefusal = Refusal<'BAD_REQUEST' | 'OUT_OF_STOCK' | 'PROMO_INVALID' | 'CONFLICT'>;

/** Where the shopper goes next after Stripe's page: the paid order, or checkout with a word why. */
export type StripeLanding =
  | { paid: true; orderId: string; guest: boolean; accessKey: string | null }
  | { paid: false; reason: 'unpaid' | 'cancelled' };

/**
 * Checkout through the store's own Stripe account (decision 118): Place order reserves the order
 * and creates a Checkout Session for its total (the order id as client_reference_id and metadata,
 * the order's Idempotency-Key as Stripe's), and the shopper pays on Stripe's hosted page. The order
 * is confirmed only when Stripe says the session is paid, asked by us on the shopper's return and
 * again on Stripe's signed webhook, whichever comes first; a cancel releases the reservation.
 */
export function createStripeCheckout(
  deps: CheckoutDeps,
  placing: Pick<ReturnType<typeof createPlacing>, 'reserveOnly' | 'releaseOrder'>,
  confirm: ReturnType<typeof createConfirmation>['confirm'],
) {
  const { stripePayer } = createPayers(deps);
  const stripe = () => deps.stripe?.();

  async function account(tenantId: string): Promise<StripeAccount | null> {
    return (await stripe()?.forStore(tenantId)) ?? null;
  }

  /** The session is this shopper's: their account, or (a guest) the cart that started it. */
  async function own(ctx: RequestContext, row: StripeCheckoutRow | null): Promise<StripeCheckoutRow> {
    const buyer = buyerOf(ctx);
    const guestCart = row && !buyer.userId ? await deps.cart.findCart(ctx, buyer.owner) : null;
    if (!row || row.userId !== buyer.userId || (!buyer.userId && guestCart?.cartId !== row.cartId)) {
      throw AppError.notFound('This payment could not be found. Please place your order again.');
    }
    return row;
  }

  async function landing(ctx: TenantContext, orderId: string, userId: string | null): Promise<StripeLanding> {
    const order = await deps.orders.placed(ctx, orderId, !userId);
    return { paid: true, orderId, guest: !userId, accessKey: order.accessKey ?? null };
  }

  /**
   * Asks Stripe about the session and confirms its order when Stripe says it is paid for the order's
   * amount. Confirming is a move from `placed` under the order's row lock, so the shopper's return
   * and the webhook arriving together confirm it once.
   */
  async function settle(ctx: TenantContext, row: StripeCheckoutRow): Promise<StripeLanding> {
    if (row.status === 'paid') return landing(ctx, row.orderId, row.userId);
    if (row.status === 'cancelled') return { paid: false, reason: 'cancelled' };
    const acct = await account(ctx.tenantId);
    if (!acct) throw new Refused(refuse(409, 'CONFLICT', 'Stripe is not available in this store any more.'));
    const session = await acct.client.retrieveCheckoutSession(row.sessionId);
    if (session?.payment_status !== 'paid' || !session.payment_intent) return { paid: false, reason: 'unpaid' };
    if (session.amount_total !== row.amount || session.currency?.toUpperCase() !== row.currency.toUpperCase()) {
      // Cannot happen unless the session was changed at Stripe; the money must be sorted out by hand.
      deps.log.error(
        { orderId: row.orderId, sessionId: row.sessionId, paid: session.amount_total, expected: row.amount },
        'Stripe took another amount than the order total; settle it by hand',
      );
      return { paid: false, reason: 'unpaid' };
    }
    const buyer: Buyer = { owner: { userId: row.userId, guestToken: null }, userId: row.userId, accountEmail: null };
    await confirm(
      ctx,
      buyer,
      row.orderId,
      stripePayer(ctx, acct),
      { total: row.amount, currency: row.currency },
      { ref: session.payment_intent, label: 'Card (Stripe)', note: 'Stripe' },
      row.cartId,
    );
    await stripe()?.sessions.close(ctx.tenantId, row.sessionId, 'paid', session.payment_intent);
    return landing(ctx, row.orderId, row.userId);
  }

  /**
   * Closes a session that is not paid, for good: Stripe is asked to expire it first, so its page can
   * no longer take the money of an order we are about to release. Stripe expires only an open session:
   * one it refuses was completed meanwhile (or is paying by a slower method), and is settled instead.
   * Null when the session is closed here and its order may be released; else where the shopper stands.
   */
  async function expireUnpaid(ctx: TenantContext, row: StripeCheckoutRow): Promise<StripeLanding | null> {
    const acct = await account(ctx.tenantId);
    if (!acct) throw new Refused(refuse(409, 'CONFLICT', 'Stripe is not available in this store any more.'));
    const asked = await acct.client.expireCheckoutSession(row.sessionId);
    if (!asked.ok) {
      const session = await acct.client.retrieveCheckoutSession(row.sessionId);
      if (session && session.status !== 'expired') return settle(ctx, row);
    }
    if (await stripe()?.sessions.close(ctx.tenantId, row.sessionId, 'cancelled', null)) return null;
    // Closed by someone else meanwhile (the webhook confirming it, another cancel): as it stands now.
    const now = await stripe()?.sessions.find(ctx.tenantId, row.sessionId);
    return now ? settle(ctx, now) : { paid: false, reason: 'cancelled' };
  }

  return {
    /** Whether checkout offers "Pay with card (Stripe)": the store has connected its account. */
    stripeOffered: async (tenantId: string) => Boolean(await account(tenantId)),

    /** Whether checkout offers the built-in test provider's card form (not once a live Stripe key is connected). */
    testCardsOffered: async (tenantId: string) => (await stripe()?.testCardsOffered(tenantId)) ?? true,

    /**
     * Place order with Stripe: reserves the order and answers the hosted page's url. A retry with the
     * same key answers the same session (Stripe answers the same Idempotency-Key with it).
     */
    async startStripe(
      ctx: RequestContext,
      input: PayPalCheckout,
      a: { returnOrigin: string; requestKey: string },
    ): Promise<Result<{ url: string; orderId: string }, StripeStartRefusal>> {
      return returnRefusals<Ok<{ url: string; orderId: string }>, StripeStartRefusal>(async () => {
        const acct = await account(ctx.tenantId);
        if (!acct) {
          throw new Refused(refuse(409, 'CONFLICT', 'Card payments through Stripe are not available in this store.'));
        }
        const buyer = buyerOf(ctx);
        const payer = stripePayer(ctx, acct);
        const r = await placing.reserveOnly(
          ctx,
          buyer,
          { ...input, payment: { method: 'stripe' } },
          a.requestKey,
          payer,
        );
        let session: Awaited<ReturnType<typeof acct.client.createCheckoutSession>>;
        try {
          session = await acct.client.createCheckoutSession(
            {
              orderId: r.orderId,
              amountMinor: r.amount.total,
              currency: r.amount.currency,
              description: `Order ${r.orderId}`,
              email: r.email,
              successUrl: `${a.returnOrigin}/checkout/stripe/return?session_id={CHECKOUT_SESSION_ID}`,
              cancelUrl: `${a.returnOrigin}/checkout/stripe/cancel?order=${encodeURIComponent(r.orderId)}`,
            },
            // The order's key: a retry of Place order gets the session the first one made.
            `checkout:${a.requestKey}`,
          );
        } catch (err) {
          // No session, no way to pay: the reservation goes back (only a fresh one; a retry's order
          // may have its session already, which the shopper may be paying).
          if (r.fresh) await placing.releaseOrder(ctx, r.orderId);
          throw err;
        }
        if (!session.url)
          throw new AppError(502, 'UNAVAILABLE', 'Stripe did not give a payment page. Please try again.');
        await stripe()?.sessions.record({
          tenantId: ctx.tenantId,
          sessionId: session.id,
          orderId: r.orderId,
          cartId: r.cartId,
          userId: buyer.userId,
          amount: r.amount.total,
          currency: r.amount.currency,
        });
        return ok({ url: session.url, orderId: r.orderId });
      });
    },

    /** The shopper is back from Stripe's page: the order if paid (confirmed now if the webhook was not first). */
    async stripeReturn(ctx: RequestContext, sessionId: string): Promise<Result<StripeLanding, Refusal<'CONFLICT'>>> {
      return returnRefusals<Ok<StripeLanding>, Refusal<'CONFLICT'>>(async () => {
        const row = await own(ctx, (await stripe()?.sessions.find(ctx.tenantId, sessionId)) ?? null);
        return ok(await settle(ctx, row));
      });
    },

    /**
     * The shopper left Stripe's page without paying: the session is expired at Stripe, closed here and
     * the reservation released. A session paid meanwhile confirms the order instead.
     */
    async stripeCancel(ctx: RequestContext, orderId: string): Promise<Result<StripeLanding, Refusal<'CONFLICT'>>> {
      return returnRefusals<Ok<StripeLanding>, Refusal<'CONFLICT'>>(async () => {
        const row = await own(ctx, (await stripe()?.sessions.ofOrder(ctx.tenantId, orderId)) ?? null);
        if (row.status !== 'open') return ok(await settle(ctx, row));
        // Not asked first whether it is paid: Stripe refuses to expire a completed session, and
        // expireUnpaid then settles it.
        const still = await expireUnpaid(ctx, row);
        if (still) return ok(still);
        await placing.releaseOrder(ctx, row.orderId);
        return ok({ paid: false, reason: 'cancelled' } as const);
      });
    },

    /**
     * The sweep of stuck orders asks about an order still placed with Stripe (stuck-orders.ts):
     * `expired` (the page can take no money now: the order may be cancelled), `paid` (confirmed
     * now), `unpaid` (Stripe completed it without the money yet: left), `no-session` (it never
     * reached Stripe), `no-account` (Stripe cannot be asked: cancelling blind could cancel a paid order).
     */
    async expireStripeOrder(
      ctx: TenantContext,
      orderId: string,
    ): Promise<'expired' | 'paid' | 'unpaid' | 'no-session' | 'no-account'> {
      const row = await stripe()?.sessions.ofOrder(ctx.tenantId, orderId);
      if (!row) return 'no-session';
      if (!(await account(ctx.tenantId))) return 'no-account';
      const still = await expireUnpaid(ctx, row);
      return still === null ? 'expired' : still.paid ? 'paid' : 'unpaid';
    },

    /** Stripe's webhook said a session or its payment intent succeeded: settled as on the shopper's return. */
    async settleStripe(
      ctx: TenantContext,
      ref: { sessionId: string } | { orderId: string },
    ): Promise<StripeLanding | null> {
      const sessions = stripe()?.sessions;
      const row =
        'sessionId' in ref
          ? await sessions?.find(ctx.tenantId, ref.sessionId)
          : await sessions?.ofOrder(ctx.tenantId, ref.orderId);
      if (!row) return null;
      return settle(ctx, row);
    },
  };
}
