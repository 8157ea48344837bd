import { createHash } from 'node:crypto';
import {
  type Cart,
  type Order,
  type PlaceOrder,
  type Quote,
  type ShippingRate,
  type TaxClass,
  variantDisplayName,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, count, eq } from 'drizzle-orm';
import type { TenantContext } from '../../../lib/context';
import { isUniqueViolation } from '../../../lib/errors';
import { Refused, refuse, refuseField } from '../../../lib/result';
import { checkPlace } from '../../addresses/index';
import type { CartOwner } from '../../cart/index';
import type { Destination } from '../../shipping/index';
import type { Amount, Buyer, CheckoutDeps, OrderRequest } from './checkout-types';
import type { createConfirmation } from './confirm-order';
import type { Payer } from './payers';
import { type QuoteTax, quote, taxRateFor } from './quote';
import { giveBackReservation, newOrderId, type Placed, perCustomerMessage, reserve } from './reserve-order';

const o = schema.orders;
const pc = schema.promoCodes;
const pr = schema.promoRedemptions;
const ol = schema.orderLines;

/**
 * A checkout takes seconds; one whose order is still `placed` after this long died between reserving
 * and confirming, and a retry with its key finishes it (see `resume`).
 */
const IN_DOUBT_AFTER_MS = 2 * 60_000;
/** How long a retry waits for the same order's checkout still running in another request. */
const RETRY_WAIT_MS = 5_000;

const sha256 = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');

/**
 * Pricing a checkout and placing its order (reserve, take the payment, confirm), with the retries of
 * an Idempotency-Key. Refusals are thrown as `Refused` inside these steps, so that a refused payment
 * still undoes its reservation on the way out, and are returned by the service's operations.
 */
/** A guest's order needs an email for its receipt. */
export const noEmail = () =>
  refuseField(400, 'BAD_REQUEST', 'email', 'please enter your email address for the receipt.');

export function createPlacing(
  db: Db,
  deps: Pick<CheckoutDeps, 'cart' | 'orders' | 'events' | 'tables' | 'shipping' | 'liveRates'>,
  confirm: ReturnType<typeof createConfirmation>['confirm'],
) {
  /**
   * What the store charges to ship the cart there: the owner's zones (decision 115), then live
   * carrier rates (decision 117), none when the carrier is slow or down. `chosen`: the rate Place
   * order charges, checked against the one shown.
   */
  async function rates(
    ctx: TenantContext,
    cart: Cart,
    destination: Destination,
    chosen?: string,
  ): Promise<ShippingRate[]> {
    const table = await deps.shipping.ratesFor(ctx, { cart, destination });
    const carriers = deps.liveRates?.();
    if (!carriers) return table;
    return [...table, ...(await carriers.ratesFor(ctx, cart, destination, chosen))];
  }

  /**
   * The destination's tax rule with the store's settings, and the cart's lines with their products'
   * tax classes (decision 116); classes are read only when the destination has a rate and the
   * caller has not read them with the cart (`known`).
   */
  async function taxFor(
    ctx: TenantContext,
    countryGeoId: string,
    region: string | null | undefined,
    cart?: Pick<Cart, 'lines'>,
    known?: ReadonlyMap<string, TaxClass>,
  ): Promise<{ tax: QuoteTax | null; lines: { lineTotal: number; taxClass: TaxClass }[] | undefined }> {
    const [rate, settings] = await Promise.all([
      deps.tables.taxRates(ctx, countryGeoId).then((rates) => taxRateFor(rates, countryGeoId, region)),
      deps.tables.taxSettings(ctx),
    ]);
    const tax = rate ? { ...rate, pricesIncludeTax: settings.pricesIncludeTax } : null;
    if (!tax || !cart) return { tax, lines: undefined };
    // Place order has them from the cart's own read; the checkout page reads them here.
    const classes =
      known ??
      (await deps.tables.taxClasses(
        ctx,
        cart.lines.map((l) => l.productId),
      ));
    return {
      tax,
      lines: cart.lines.map((l) => ({ lineTotal: l.lineTotal, taxClass: classes.get(l.productId) ?? 'standard' })),
    };
  }

  /** The cart must be buyable as it is, and the method must ship to the address. */
  async function loadCart(ctx: TenantContext, owner: CartOwner) {
    return deps.cart.findAndPrice(ctx, owner);
  }

  async function priced(
    ctx: TenantContext,
    { cartRow, cart, taxClasses }: Awaited<ReturnType<typeof loadCart>>,
    shipTo: PlaceOrder['shipTo'],
    shippingMethodId: string,
  ): Promise<{ cart: Cart; cartRow: { cartId: string; promoCode: string | null }; quote: Quote; method: string }> {
    if (!cartRow || cart.lines.length === 0) throw new Refused(refuse(400, 'BAD_REQUEST', 'Your cart is empty.'));
    const problem = cart.lines.find((l) => l.problem);
    if (problem) {
      const name = variantDisplayName(problem.productName, problem.variantTitle);
      throw new Refused(refuse(409, 'OUT_OF_STOCK', `${name}: ${problem.problem}.`));
    }
    const place = checkPlace({ ...shipTo });
    if (!place.ok) throw new Refused(place);
    const rate = (await rates(ctx, cart, shipTo, shippingMethodId)).find((r) => r.methodId === shippingMethodId);
    if (!rate)
      throw new Refused(
        refuseField(400, 'BAD_REQUEST', 'shippingMethodId', 'this shipping method does not deliver to that address.'),
      );
    const { tax, lines } = await taxFor(ctx, shipTo.countryGeoId, shipTo.stateProvinceGeoId, cart, taxClasses);
    return { cart, cartRow, quote: quote({ ...cart, lines }, rate.rate, tax), method: rate.name };
  }

  /**
   * Undo of step 1: the stock and the promo use go back, and the order is gone. Only while it is still
   * placed: if the sweep of stuck orders has cancelled it (and given the stock back) meanwhile, there
   * is nothing left to undo.
   */
  async function release(ctx: TenantContext, orderId: string, cart: Cart) {
    await releaseLines(ctx, orderId, cart.lines);
  }

  async function releaseLines(
    ctx: TenantContext,
    orderId: string,
    lines: { productId: string; variantId?: string | null; quantity: number }[],
  ) {
    const released = await db.transaction(async (tx) => {
      // The erased order leaves its customer's figures (customer_summaries, by the triggers
      // modules/customers/summaries.ts names); a guest with no order left leaves the list.
      const [gone] = await tx
        .delete(o)
        .where(and(eq(o.tenantId, ctx.tenantId), eq(o.orderId, orderId), eq(o.status, 'placed')))
        .returning({ orderId: o.orderId });
      if (!gone) return false;
      await giveBackReservation(tx, ctx, orderId, lines);
      return true;
    });
    if (released) {
      deps.events.emit('stock.changed', { tenantId: ctx.tenantId, productIds: lines.map((l) => l.productId) });
    }
  }

  async function existing(ctx: TenantContext, idempotencyKey: string) {
    const [row] = await db
      .select({ orderId: o.orderId, requestHash: o.requestHash, status: o.status, userId: o.userId })
      .from(o)
      .where(and(eq(o.tenantId, ctx.tenantId), eq(o.idempotencyKey, idempotencyKey)));
    return row ?? null;
  }

  /**
   * A retry of a key whose order exists. Paid (or further on): that order. Not paid yet: another
   * request may still be taking the payment, so wait a little for it; if the order is older than any
   * live checkout, its request died between reserving and confirming, and this retry finishes it by
   * charging under the same provider idempotency key (the provider answers the earlier charge if
   * there was one) and confirming. A retry never answers success for an unpaid order.
   */
  async function resume(
    ctx: TenantContext,
    buyer: Buyer,
    orderId: string,
    payer: Payer,
    cartId: string | null,
  ): Promise<Order> {
    const started = Date.now();
    for (;;) {
      const [row] = await db
        .select({
          status: o.status,
          placedAt: o.placedAt,
          provider: o.paymentProvider,
          total: o.grandTotal,
          currency: o.currency,
        })
        .from(o)
        .where(and(eq(o.tenantId, ctx.tenantId), eq(o.orderId, orderId)));
      // A declined payment removes its order: nothing was charged.
      if (!row)
        throw new Refused(
          refuse(
            409,
            'CONFLICT',
            'The earlier attempt with this key did not go through, and nothing was charged. Please try again.',
          ),
        );
      if (row.status === 'cancelled') {
        throw new Refused(
          refuse(409, 'CONFLICT', 'This order was not completed and has been cancelled. Please place it again.'),
        );
      }
      if (row.status !== 'placed') return deps.orders.placed(ctx, orderId, !buyer.userId);
      if (Date.now() - row.placedAt.getTime() >= IN_DOUBT_AFTER_MS) {
        // PayPal's side is settled by asking PayPal, which the sweep of stuck orders does.
        if (row.provider !== payer.providerId) {
          throw new Refused(
            refuse(409, 'CONFLICT', 'Your payment is still being confirmed. We will email you once it is.', {
              headers: { 'Retry-After': '60' },
            }),
          );
        }
        return finish(ctx, buyer, orderId, payer, { total: row.total, currency: row.currency }, cartId);
      }
      if (Date.now() - started >= RETRY_WAIT_MS) {
        throw new Refused(
          refuse(409, 'CONFLICT', 'Your order is still being confirmed. Please try again in a moment.', {
            headers: { 'Retry-After': '5' },
          }),
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Steps 2 and 3 for an order whose own checkout died after reserving it. */
  async function finish(
    ctx: TenantContext,
    buyer: Buyer,
    orderId: string,
    payer: Payer,
    q: Amount,
    cartId: string | null,
  ) {
    let paid: Awaited<ReturnType<Payer['take']>>;
    try {
      paid = await payer.take(orderId, q);
    } catch (err) {
      const lines = await db
        .select({ productId: ol.productId, quantity: ol.quantity })
        .from(ol)
        .where(and(eq(ol.tenantId, ctx.tenantId), eq(ol.orderId, orderId)));
      await releaseLines(ctx, orderId, lines);
      throw err;
    }
    return confirm(ctx, buyer, orderId, payer, q, paid, cartId);
  }

  /**
   * Step 1, shared by `place` and `reserveOnly`: who is asking and what (hashed apart from the cart:
   * a retry after success finds the cart emptied by its own order, and must still get that order),
   * the cart priced, and the reservation. Answers the key's existing order instead when there is one:
   * it is not looked up first, since the order's insert, the reservation's first statement, meets the
   * key's unique index; only when the cart cannot be ordered (emptied by the earlier request's order,
   * or its last units taken by it) is the key read here.
   */
  async function reserveStep(
    ctx: TenantContext,
    buyer: Buyer,
    input: OrderRequest,
    idempotencyKey: string,
    payer: Payer,
    orderId: string,
  ) {
    const email = buyer.accountEmail ?? input.email;
    if (!email) throw new Refused(noEmail());
    const inputHash = sha256({
      shipTo: input.shipTo,
      method: input.shippingMethodId,
      email,
      paymentFingerprint: payer.fingerprint,
    });
    const loaded = await loadCart(ctx, buyer.owner);
    // By variant: two variants of one product are two things bought (a default variant's id is its product's).
    const cartHash = sha256(loaded.cart.lines.map((l) => [l.variantId, l.optionsText, l.quantity]));
    const asked = { email, inputHash, cartHash, loaded };
    let pricedOrder: Awaited<ReturnType<typeof priced>>;
    try {
      pricedOrder = await priced(ctx, loaded, input.shipTo, input.shippingMethodId);
    } catch (err) {
      const found = await existing(ctx, idempotencyKey);
      if (found) return { ...asked, found };
      throw err;
    }
    const { cart, cartRow, quote: q, method } = pricedOrder;
    const reservation = {
      orderId,
      buyer,
      email,
      input,
      cart,
      cartRow,
      quote: q,
      method,
      idempotencyKey,
      requestHash: `${inputHash}:${cartHash}`,
      paymentLabel: payer.labelGuess,
      paymentProvider: payer.providerId,
      paymentAccount: payer.account ?? null,
    };
    let placed: Placed;
    try {
      // A promo code's use is written after the take, in the same transaction; without one, the
      // reservation is one statement and needs none.
      placed = cartRow.promoCode
        ? await db.transaction((tx) => reserve(ctx, tx, reservation))
        : await reserve(ctx, db, reservation);
    } catch (err) {
      // The key's order exists (a retry, or the same key sent twice at once): that order, if the same.
      if (isUniqueViolation(err)) {
        const found = await existing(ctx, idempotencyKey);
        if (found) return { ...asked, found };
      }
      throw err;
    }
    deps.events.emit('stock.changed', { tenantId: ctx.tenantId, productIds: cart.lines.map((l) => l.productId) });
    return { ...asked, found: null, reserved: { orderId, placed, ...pricedOrder } };
  }

  /** The key's order was asked for with something else (another address, payment, buyer or cart). */
  const otherRequest = () =>
    new Refused(refuse(409, 'CONFLICT', 'This Idempotency-Key was already used for a different order.'));

  /**
   * Reserve, take the payment, confirm, for any way of paying. The same
   * Idempotency-Key returns the same order; the same key with another cart or request is a 409.
   */
  async function place(
    ctx: TenantContext,
    buyer: Buyer,
    input: OrderRequest,
    idempotencyKey: string,
    payer: Payer,
  ): Promise<Order> {
    const step = await reserveStep(ctx, buyer, input, idempotencyKey, payer, payer.orderId ?? newOrderId(ctx.tenantId));
    if (step.found) {
      const [askedFor, withCart] = step.found.requestHash.split(':');
      const sameCart = step.loaded.cart.lines.length === 0 || withCart === step.cartHash;
      if (askedFor !== step.inputHash || !sameCart || step.found.userId !== buyer.userId) throw otherRequest();
      return resume(ctx, buyer, step.found.orderId, payer, step.loaded.cartRow?.cartId ?? null);
    }
    const { orderId, placed, cart, cartRow, quote: q } = step.reserved;

    // Step 2: the payment. A refusal, or an error, undoes step 1.
    let paid: Awaited<ReturnType<Payer['take']>>;
    try {
      paid = await payer.take(orderId, q);
    } catch (err) {
      await release(ctx, orderId, cart);
      throw err;
    }

    return confirm(ctx, buyer, orderId, payer, q, paid, cartRow.cartId, { ...placed, lines: cart.lines });
  }

  /**
   * The cart as this customer may buy it: a code they have already used as often as it allows
   * takes nothing off, and says why (the cart alone cannot know who is buying). Placing the order
   * checks the same under the code's lock; this is what the summary shows before and after.
   */
  async function withoutUsedUpPromo(ctx: TenantContext, cart: Cart, customerKey: string | undefined): Promise<Cart> {
    if (!cart.promo || cart.discount === 0 || !customerKey) return cart;
    const code = cart.promo.code;
    const [row] = await db
      .select({ limit: pc.perCustomerLimit })
      .from(pc)
      .where(and(eq(pc.tenantId, ctx.tenantId), eq(pc.code, code)));
    if (row?.limit == null) return cart;
    const [{ n } = { n: 0 }] = await db
      .select({ n: count() })
      .from(pr)
      .where(and(eq(pr.tenantId, ctx.tenantId), eq(pr.code, code), eq(pr.customerKey, customerKey)));
    if (n < row.limit) return cart;
    return { ...cart, discount: 0, total: cart.subtotal, promoProblem: perCustomerMessage(code, row.limit) };
  }

  /**
   * Step 1 alone, for a payment the shopper makes elsewhere after a redirect (Stripe's hosted page,
   * decision 118): the order is reserved (stock, promo use) and stays placed until it is confirmed
   * paid or released (`releaseOrder`: the shopper came back without paying; else the sweep of stuck
   * orders cancels it). The same key with the same request returns the order it reserved
   * (`fresh: false`), whatever became of it; with another request it is a 409.
   */
  async function reserveOnly(
    ctx: TenantContext,
    buyer: Buyer,
    input: OrderRequest,
    idempotencyKey: string,
    payer: Payer,
  ): Promise<{ orderId: string; amount: Amount; cartId: string | null; email: string; fresh: boolean }> {
    const step = await reserveStep(ctx, buyer, input, idempotencyKey, payer, newOrderId(ctx.tenantId));
    const { email, loaded } = step;
    if (step.found) {
      const [askedFor] = step.found.requestHash.split(':');
      if (askedFor !== step.inputHash || step.found.userId !== buyer.userId) throw otherRequest();
      const [row] = await db
        .select({ total: o.grandTotal, currency: o.currency })
        .from(o)
        .where(and(eq(o.tenantId, ctx.tenantId), eq(o.orderId, step.found.orderId)));
      const amount = { total: row?.total ?? 0, currency: row?.currency ?? '' };
      return { orderId: step.found.orderId, amount, cartId: loaded.cartRow?.cartId ?? null, email, fresh: false };
    }
    const { orderId, cartRow, quote: q } = step.reserved;
    return { orderId, amount: { total: q.total, currency: q.currency }, cartId: cartRow.cartId, email, fresh: true };
  }

  /** Undoes `reserveOnly` while the order is still placed: its stock and promo use go back, the order is gone. */
  async function releaseOrder(ctx: TenantContext, orderId: string) {
    const lines = await db
      .select({ productId: ol.productId, variantId: ol.variantId, quantity: ol.quantity })
      .from(ol)
      .where(and(eq(ol.tenantId, ctx.tenantId), eq(ol.orderId, orderId)));
    await releaseLines(ctx, orderId, lines);
  }

  return { rates, taxFor, loadCart, priced, place, withoutUsedUpPromo, reserveOnly, releaseOrder };
}
