import {
  type Cart,
  type Order,
  type PayPalCheckout,
  type PlaceOrder,
  payPalCheckoutSchema,
  type Quote,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, eq, isNull } from 'drizzle-orm';
import type { RequestContext, TenantContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import { type Ok, ok, type Refusal, Refused, type Result, refuse, returnRefusals } from '../../../lib/result';
import type { CartOwner } from '../../cart/index';
import type { PayPalAccount } from '../../payments/index';
import { storeIdentity } from '../../store/index';
import { buyerOf, type CheckoutDeps } from './checkout-types';
import { createConfirmation } from './confirm-order';
import { createPayers } from './payers';
import { createPlacing, noEmail } from './place-order';
import { quote } from './quote';
import { newOrderId, promoCustomerKey } from './reserve-order';
import { createStripeCheckout } from './stripe-checkout';

const ppc = schema.paypalCheckouts;

/**
 * What pricing a checkout can answer besides a price (decision 088): the cart is empty or a line
 * cannot be bought as it is (OUT_OF_STOCK), the shipping method does not deliver to the address.
 */
export type ReviewRefusal = Refusal<'BAD_REQUEST' | 'OUT_OF_STOCK'>;

/**
 * What placing an order can answer besides the order: the review's refusals; no email; sold out
 * while checking out (OUT_OF_STOCK); the promo code no longer applies or is used up (PROMO_INVALID);
 * the card declined (PAYMENT_DECLINED) or refused (BAD_REQUEST); PayPal's total differs from the
 * order's (PAYMENT_AMOUNT_CHANGED); the Idempotency-Key was used for another order, its earlier
 * attempt failed or is still running (CONFLICT, with Retry-After), the order timed out (CONFLICT);
 * PayPal does not know the payment (NOT_FOUND) or is unavailable (CONFLICT).
 */
export type PlaceOrderRefusal = Refusal<
  | 'BAD_REQUEST'
  | 'OUT_OF_STOCK'
  | 'PROMO_INVALID'
  | 'PAYMENT_DECLINED'
  | 'PAYMENT_AMOUNT_CHANGED'
  | 'CONFLICT'
  | 'NOT_FOUND'
>;

/** Starting a PayPal payment: PayPal not offered here, the review's refusals, the code not for this buyer. */
export type PayPalStartRefusal = Refusal<'BAD_REQUEST' | 'OUT_OF_STOCK' | 'PROMO_INVALID' | 'CONFLICT'>;

/**
 * Checkout as named steps, each with its undo: reserve (stock, promo use and
 * the order, in one transaction), charge (the payment provider), confirm (paid, cart emptied).
 * A refused charge undoes the reservation, so a declined card leaves no order and no stock taken.
 */
export function createCheckoutService(db: Db, deps: CheckoutDeps) {
  const { confirm, sendConfirmation } = createConfirmation(db, deps);
  const placing = createPlacing(db, deps, confirm);
  const { rates, taxFor, loadCart, priced, place, withoutUsedUpPromo } = placing;
  const stripeCheckout = createStripeCheckout(deps, placing, confirm);
  const { cardPayer, payPalPayer } = createPayers(deps);

  /** How this store takes PayPal now; a store without a PayPal account of its own does not. */
  async function requirePayPal(tenantId: string): Promise<PayPalAccount> {
    const account = await deps.paymentAccounts.forStore(tenantId);
    if (!account)
      throw new Refused(refuse(409, 'CONFLICT', 'PayPal is not available in this store. Please pay by card.'));
    return account;
  }

  const service = {
    /**
     * What the checkout steps need: the cart, shipping methods for the destination, and the totals
     * with the chosen method (the first one when none or an unknown one is chosen).
     */
    async options(
      ctx: TenantContext,
      owner: CartOwner,
      destination: { countryGeoId: string; stateProvinceGeoId?: string | undefined; postalCode?: string | undefined },
      shippingMethodId?: string,
      customerKey?: string,
    ) {
      const cart = await withoutUsedUpPromo(ctx, await deps.cart.view(ctx, owner), customerKey);
      const shipping = await rates(ctx, cart, destination);
      const { tax, lines } = await taxFor(ctx, destination.countryGeoId, destination.stateProvinceGeoId, cart);
      const chosen = shipping.find((r) => r.methodId === shippingMethodId) ?? shipping[0];
      return {
        cart,
        shippingMethods: shipping,
        shippingMethodId: chosen?.methodId ?? null,
        quote: quote({ ...cart, lines: lines ?? cart.lines }, chosen?.rate ?? 0, tax),
      };
    },

    /** The code on the cart as the shopper typed it in (upper-cased), to name it in a refusal. */
    async promoCodeOnCart(ctx: TenantContext, owner: CartOwner): Promise<string | null> {
      return (await loadCart(ctx, owner)).cartRow?.promoCode ?? null;
    },

    async review(
      ctx: TenantContext,
      owner: CartOwner,
      input: { shipTo: PlaceOrder['shipTo']; shippingMethodId: string },
    ) {
      return returnRefusals<Ok<{ cart: Cart; quote: Quote; shippingMethod: string }>, ReviewRefusal>(async () => {
        const r = await priced(ctx, await loadCart(ctx, owner), input.shipTo, input.shippingMethodId);
        return ok({ cart: r.cart, quote: r.quote, shippingMethod: r.method });
      });
    },

    /**
     * Places the order. The same Idempotency-Key returns the same order; the same key with another
     * cart, address or payment is refused (409). Nothing the client sends about money is used.
     */
    async placeOrder(
      ctx: RequestContext,
      input: PlaceOrder,
      idempotencyKey: string,
    ): Promise<Result<Order, PlaceOrderRefusal>> {
      return returnRefusals<Ok<Order>, PlaceOrderRefusal>(async () => {
        const buyer = buyerOf(ctx);
        // A store with a live Stripe key takes real money: the built-in test provider takes no order there.
        if (!(await stripeCheckout.testCardsOffered(ctx.tenantId))) {
          throw new Refused(
            refuse(409, 'CONFLICT', 'This store takes cards through Stripe. Please choose “Pay with card (Stripe)”.'),
          );
        }
        return ok(await place(ctx, buyer, input, idempotencyKey, await cardPayer(ctx, buyer, input.payment)));
      });
    },

    /**
     * PayPal, step one: prices the checkout as `review` does and asks PayPal for an order of exactly
     * that total. Nothing is reserved while the shopper is at PayPal; `capturePayPal` places the
     * order when they come back. `requestKey` makes a retried create return the same PayPal order.
     */
    async createPayPalOrder(
      ctx: RequestContext,
      input: PayPalCheckout,
      a: { returnOrigin: string; requestKey: string; saveAddress?: boolean },
    ): Promise<Result<{ paypalOrderId: string; approveUrl: string }, PayPalStartRefusal>> {
      return returnRefusals<Ok<{ paypalOrderId: string; approveUrl: string }>, PayPalStartRefusal>(() =>
        startPayPal(ctx, input, a),
      );
    },

    /**
     * PayPal, step two, when the shopper comes back approved: reserves the order, checks that PayPal's
     * order is for this order's amount and currency, captures, confirms. Capturing again returns the
     * same order. A PayPal order of another shopper or cart is a 404, as if it did not exist. The
     * capture goes through the account the PayPal order was created in, whatever the store uses now.
     */
    async capturePayPal(ctx: RequestContext, paypalOrderId: string): Promise<Result<Order, PlaceOrderRefusal>> {
      return returnRefusals<Ok<Order>, PlaceOrderRefusal>(() => capture(ctx, paypalOrderId));
    },

    /** Whether this store offers PayPal at checkout: it has a PayPal account of its own (decision 049). */
    payPalOffered: async (tenantId: string) => Boolean(await deps.paymentAccounts.forStore(tenantId)),

    sendConfirmation,

    // Stripe's hosted page (decision 118): offered, start, the shopper's return or cancel, the webhook.
    ...stripeCheckout,
  };
  return service;

  async function startPayPal(
    ctx: RequestContext,
    input: PayPalCheckout,
    a: { returnOrigin: string; requestKey: string; saveAddress?: boolean },
  ): Promise<Ok<{ paypalOrderId: string; approveUrl: string }>> {
    {
      const account = await requirePayPal(ctx.tenantId);
      const buyer = buyerOf(ctx);
      const email = buyer.accountEmail ?? input.email;
      if (!email) throw new Refused(noEmail());
      const {
        cart,
        cartRow,
        quote: q,
      } = await priced(ctx, await loadCart(ctx, buyer.owner), input.shipTo, input.shippingMethodId);
      // A code that does not apply is refused now, at checkout, where the shopper can remove it, and
      // not after they approved a payment at PayPal (placing the order would refuse it then).
      if (cartRow.promoCode) {
        const forBuyer = await withoutUsedUpPromo(ctx, cart, promoCustomerKey(buyer.userId, email));
        if (forBuyer.promoProblem) throw new Refused(refuse(422, 'PROMO_INVALID', forBuyer.promoProblem));
      }
      const store = await storeIdentity(db, ctx);
      // The order's number is chosen now so PayPal records it (invoice_id) in the seller's account.
      const orderId = newOrderId(ctx.tenantId);
      const created = await account.client.createOrder({
        amountMinor: q.total,
        currency: q.currency,
        referenceId: cartRow.cartId,
        requestId: `${ctx.tenantId}:${a.requestKey}`,
        returnUrl: `${a.returnOrigin}/checkout/paypal/return`,
        cancelUrl: `${a.returnOrigin}/checkout?paypal=cancelled`,
        // The store, so PayPal's webhooks about this money can be matched to it (decision 049).
        customId: ctx.tenantId,
        invoiceId: orderId,
        // A connected seller is the payee: the money lands in the store's PayPal account.
        ...(account.merchantId ? { payeeMerchantId: account.merchantId } : {}),
        ...(store ? { brandName: store.name } : {}),
      });
      await db
        .insert(ppc)
        .values({
          tenantId: ctx.tenantId,
          paypalOrderId: created.id,
          cartId: cartRow.cartId,
          userId: buyer.userId,
          request: {
            ...input,
            email,
            orderId,
            // Kept for when the order is placed: the shopper is at PayPal in between.
            ...(a.saveAddress && buyer.userId ? { saveAddress: true } : {}),
          },
          amount: q.total,
          currency: q.currency,
          idempotencyKey: `paypal:${created.id}`,
          paymentAccount: account.account,
        })
        .onConflictDoNothing();
      return ok({ paypalOrderId: created.id, approveUrl: created.approveUrl });
    }
  }

  async function capture(ctx: RequestContext, paypalOrderId: string): Promise<Ok<Order>> {
    {
      const buyer = buyerOf(ctx);
      const [row] = await db
        .select()
        .from(ppc)
        .where(and(eq(ppc.tenantId, ctx.tenantId), eq(ppc.paypalOrderId, paypalOrderId)));
      // A guest is known by the cart that started the PayPal order; a shopper by their account.
      const guestCart = row && !buyer.userId ? await deps.cart.findCart(ctx, buyer.owner) : null;
      if (!row || row.userId !== buyer.userId || (!buyer.userId && guestCart?.cartId !== row.cartId)) {
        throw AppError.notFound('This PayPal payment could not be found. Please start the payment again.');
      }
      if (row.orderId) return ok(await deps.orders.placed(ctx, row.orderId, !buyer.userId));
      const account = await deps.paymentAccounts.forOrder(ctx.tenantId, row.paymentAccount);
      if (!account) {
        throw new Refused(
          refuse(409, 'CONFLICT', 'PayPal is not available in this store any more. Please pay by card.'),
        );
      }
      // What the shopper asked for, without what checkout kept beside it (the order id, saving the address).
      const { orderId: _planned, saveAddress: _save, ...asked } = row.request;
      const parsed = payPalCheckoutSchema.parse(asked);
      const order = await place(
        ctx,
        buyer,
        { ...parsed, payment: { method: 'paypal', paypalOrderId } },
        row.idempotencyKey,
        payPalPayer(ctx, row, account),
      );
      // Only the request that records the order saves the address: a second return saves nothing.
      const [recorded] = await db
        .update(ppc)
        .set({ orderId: order.orderId, status: 'placed', closedAt: new Date() })
        .where(and(eq(ppc.tenantId, ctx.tenantId), eq(ppc.paypalOrderId, paypalOrderId), isNull(ppc.orderId)))
        .returning({ request: ppc.request });
      if (recorded?.request.saveAddress === true && buyer.userId && deps.addresses) {
        // A full address book must not spoil a paid order: the address is then just not kept.
        const saved = await deps.addresses.create(ctx, buyer.userId, parsed.shipTo).catch((err: unknown) => {
          deps.log.warn({ err, orderId: order.orderId }, 'address from a PayPal checkout not saved');
          return null;
        });
        if (saved && !saved.ok) {
          deps.log.warn({ refusal: saved.code, orderId: order.orderId }, 'address from a PayPal checkout not saved');
        }
      }
      return ok(order);
    }
  }
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
