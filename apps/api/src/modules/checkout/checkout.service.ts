import { createHash, randomBytes } from 'node:crypto';
import {
  type Cart,
  type Order,
  type PayPalCheckout,
  type PlaceOrder,
  payPalCheckoutSchema,
  type Quote,
  type ShippingRate,
} from '@app/contracts';
import { formatMoney } from '@app/contracts/client';
import { type Db, insertWhere, schema } from '@app/db';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type RequestContext, signedInUser, systemContext, type TenantContext } from '../../lib/context';
import { AppError, isUniqueViolation } from '../../lib/errors';
import type { Emitter } from '../../lib/events/index';
import { type AddressesService, checkPlace } from '../addresses/index';
import { type CartOwner, type CartService, cartOwnerOf, evaluatePromo } from '../cart/index';
import { changeStock, changeStockAlong } from '../inventory/index';
import type { MailQueue } from '../mail/index';
import {
  historyActor,
  type OrderHistoryRow,
  type OrderRow,
  type OrdersService,
  transitionOrder,
} from '../orders/index';
import type { CardsService } from '../payments/index';
import type { PaymentAccounts, PayPalAccount } from '../paypal-seller/index';
import { storeIdentity } from '../store/index';
import type { CheckoutTables } from './checkout-tables';
import { quote, shippingRate, shipsTo, taxRateFor } from './quote';

const o = schema.orders;
const pc = schema.promoCodes;
const pr = schema.promoRedemptions;
const cl = schema.cartLines;
const c = schema.carts;
const ppc = schema.paypalCheckouts;
const ol = schema.orderLines;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface CheckoutDeps {
  cart: CartService;
  orders: OrdersService;
  cards: CardsService;
  mailer: MailQueue;
  log: FastifyBaseLogger;
  /**
   * Whose PayPal account each store takes PayPal into (decision 049): a store without one (not
   * connected, no own app, or switched off) offers cards only.
   */
  paymentAccounts: Pick<PaymentAccounts, 'forStore' | 'forOrder'>;
  /** Keeps the address a signed-in shopper asked to save once their PayPal order is placed. */
  addresses?: Pick<AddressesService, 'create'>;
  /** scheme://host[:port] for links in mail, from the store's canonical host. */
  linkOrigin: (canonicalHost: string) => string;
  /** Told of stock an order took or gave back, once committed (`stock.changed`). */
  events: Emitter;
  /** The stores' shipping methods and tax rates, kept in memory (decision 070). */
  tables: CheckoutTables;
}

/** Who is buying: an account (its email) or a guest (the email typed at checkout). */
export interface Buyer {
  owner: CartOwner;
  userId: string | null;
  accountEmail: string | null;
}

/** The buyer of a request: its signed-in account (whose login is its email), else the guest's cart. */
export function buyerOf(ctx: RequestContext): Buyer {
  const user = signedInUser(ctx);
  return { owner: cartOwnerOf(ctx), userId: user?.userId ?? null, accountEmail: user?.userLoginId ?? null };
}

/** What an order is asked for with, whatever pays for it. */
type OrderRequest = Omit<PlaceOrder, 'payment'> & {
  payment: PlaceOrder['payment'] | { method: 'paypal'; paypalOrderId: string };
};

/** What a payment is for: an order's total in its currency. */
type Amount = Pick<Quote, 'total' | 'currency'>;

/**
 * A checkout takes seconds; one whose order is still `placed` after this long died between reserving
 * and confirming, and a retry with its key finishes it (see `resume`).
 */
const IN_DOUBT_AFTER_MS = 2 * 60_000;
/** How long a retry waits for the same order's checkout still running in another request. */
const RETRY_WAIT_MS = 5_000;

/**
 * What an order keeps of cart line `i`, numbered from 1: written by reserve, and the same fields
 * in the answer of the request that placed it.
 */
function orderLineOf(l: Cart['lines'][number], i: number) {
  return {
    lineNo: i + 1,
    productId: l.productId,
    productName: l.productName,
    optionsText: l.optionsText ?? null,
    quantity: l.quantity,
    unitPrice: l.unitPrice,
    lineTotal: l.lineTotal,
  };
}

/** What reserve wrote: the order's row and its first history row. */
interface Placed {
  row: OrderRow;
  entry: OrderHistoryRow;
}

/** One way of paying, as the place-order steps see it. */
interface Payer {
  providerId: string;
  /** The order's id when the payment named it before the order existed (PayPal's invoice id). */
  orderId?: string;
  /** orders.payment_account: whose account takes the money (decision 049); null for cards. */
  account?: string | null;
  /** Part of the idempotency hash: the same key with another way of paying is a different order. */
  fingerprint: string;
  /** Shown until the payment says more ("Visa •••• 4242"). */
  labelGuess: string;
  /** Takes the money for the reserved order, or throws the AppError the shopper sees. */
  take(orderId: string, q: Amount): Promise<{ ref: string; label: string; note: string }>;
  /** Gives the money back when the order cannot be confirmed after all; false when a person must. */
  giveBack(ref: string, q: Amount): Promise<boolean>;
}

/**
 * Who the order's history names. Until every route hands checkout a RequestContext, a bare store
 * context records the checkout itself as the actor (the order row names the buyer).
 */
const acting = (ctx: TenantContext | RequestContext): RequestContext =>
  'actor' in ctx ? ctx : systemContext(ctx, 'checkout');

/**
 * The units of each product the lines hold: two lines of one product (other options) are taken, and
 * given back, as their sum, in one stock movement.
 */
function unitsByProduct(lines: readonly { productId: string; quantity: number }[]): [string, number][] {
  const units = new Map<string, number>();
  for (const l of lines) units.set(l.productId, (units.get(l.productId) ?? 0) + l.quantity);
  return [...units];
}

/**
 * Gives back what reserve took for an order, in the caller's transaction: each line's stock, and the
 * promo use if the order had one. Called by checkout's undo and by the sweep of stuck orders; each
 * calls it only in the transaction that removed or cancelled a still-placed order, so it runs once.
 */
export async function giveBackReservation(
  tx: Tx,
  ctx: TenantContext,
  orderId: string,
  lines: { productId: string; quantity: number }[],
) {
  // Through the books (modules/inventory): the stock comes back as RELEASED, linked to the order, one
  // movement per product as reserve took it.
  const back = await changeStock(
    tx,
    ctx,
    unitsByProduct(lines).map(([productId, quantity]) => ({
      productId,
      delta: quantity,
      reason: 'RELEASED' as const,
      orderId,
    })),
  );
  // A product of a placed order cannot be gone (products with orders are archived, not deleted).
  if (!back.ok) throw new Error(`stock of order ${orderId} not given back: ${back.code} ${back.productId}`);
  const removed = await tx
    .delete(pr)
    .where(and(eq(pr.tenantId, ctx.tenantId), eq(pr.orderId, orderId)))
    .returning({ code: pr.code });
  for (const r of removed) {
    await tx
      .update(pc)
      .set({ timesUsed: sql`greatest(${pc.timesUsed} - 1, 0)` })
      .where(and(eq(pc.tenantId, ctx.tenantId), eq(pc.code, r.code)));
  }
}

/** A short order number a shopper can read out on the phone: store prefix, then 8 characters. */
function newOrderId(tenantId: string) {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(8);
  const tail = Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
  return `${tenantId.slice(0, 3).toUpperCase()}-${tail}`;
}

/** How a code's per-customer limit is told, at checkout and when the order is placed alike. */
const perCustomerMessage = (code: string, limit: number) =>
  `${code} can be used only ${limit === 1 ? 'once' : `${limit} times`} per customer.`;

/** Who a code's per-customer limit counts: the account, else the receipt's email. */
export const promoCustomerKey = (userId: string | null, email: string) =>
  userId ? `user:${userId}` : `email:${email.toLowerCase()}`;

const sha256 = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');

/**
 * Checkout as named steps, each with its undo (DESIGN.md section 7): reserve (stock, promo use and
 * the order, in one transaction), charge (the payment provider), confirm (paid, cart emptied).
 * A refused charge undoes the reservation, so a declined card leaves no order and no stock taken.
 */
export function createCheckoutService(db: Db, deps: CheckoutDeps) {
  async function rates(ctx: TenantContext, cart: Cart, countryGeoId: string): Promise<ShippingRate[]> {
    return (await deps.tables.methods(ctx)).filter((m) => shipsTo(m, countryGeoId)).map((m) => shippingRate(m, cart));
  }

  async function taxFor(ctx: TenantContext, countryGeoId: string, region: string | null | undefined) {
    return taxRateFor(await deps.tables.taxRates(ctx, countryGeoId), countryGeoId, region);
  }

  /** The cart must be buyable as it is, and the method must ship to the address. */
  async function loadCart(ctx: TenantContext, owner: CartOwner) {
    return deps.cart.findAndPrice(ctx, owner);
  }

  async function priced(
    ctx: TenantContext,
    { cartRow, cart }: Awaited<ReturnType<typeof loadCart>>,
    shipTo: PlaceOrder['shipTo'],
    shippingMethodId: string,
  ): Promise<{ cart: Cart; cartRow: { cartId: string; promoCode: string | null }; quote: Quote; method: string }> {
    if (!cartRow || cart.lines.length === 0) throw AppError.badRequest('Your cart is empty.');
    const problem = cart.lines.find((l) => l.problem);
    if (problem) throw new AppError(409, 'OUT_OF_STOCK', `${problem.productName}: ${problem.problem}.`);
    checkPlace({ ...shipTo });
    const rate = (await rates(ctx, cart, shipTo.countryGeoId)).find((r) => r.methodId === shippingMethodId);
    if (!rate)
      throw AppError.field(
        400,
        'BAD_REQUEST',
        'shippingMethodId',
        'this shipping method does not deliver to that address.',
      );
    const tax = await taxFor(ctx, shipTo.countryGeoId, shipTo.stateProvinceGeoId);
    return { cart, cartRow, quote: quote(cart, rate.rate, tax), method: rate.name };
  }

  /**
   * Step 1: takes the stock and the promo use and writes the order, or nothing at all. Without a
   * promo code, `db` is the database and the step is one statement with no transaction around it:
   * the order, its lines, its first history row, the stock and its movements (decision 064). With
   * one, `db` is a transaction, and the code's use is written in it after that statement.
   */
  async function reserve(
    ctx: TenantContext,
    db: Db,
    a: {
      orderId: string;
      buyer: Buyer;
      email: string;
      input: Pick<PlaceOrder, 'shipTo' | 'shippingMethodId'>;
      cart: Cart;
      cartRow: { promoCode: string | null };
      quote: Quote;
      method: string;
      idempotencyKey: string;
      requestHash: string;
      paymentLabel: string;
      paymentProvider: string;
      paymentAccount: string | null;
    },
  ): Promise<Placed> {
    const placed = {
      tenantId: ctx.tenantId,
      orderId: a.orderId,
      seq: 1,
      status: 'placed',
      fromStatus: null,
      note: 'Order placed',
      reason: null,
      ...historyActor(acting(ctx)),
    };
    // Through the books (modules/inventory): the take and its SOLD movements, and with them the order,
    // all or nothing. Atomic per product: a take only happens while enough is left, so concurrent
    // orders cannot oversell. The order's key's unique index turns a retry away (an error, so the
    // statement writes nothing). In one statement, the product rows, which every order of a popular
    // product waits for, are locked only until the statement ends: no trip back here before COMMIT.
    const taken = await changeStockAlong(
      db,
      ctx,
      unitsByProduct(a.cart.lines).map(([productId, quantity]) => ({
        productId,
        delta: -quantity,
        reason: 'SOLD' as const,
        orderId: a.orderId,
      })),
      (ok) => [
        insertWhere(o, [orderRow(ctx, a)], ok),
        insertWhere(
          ol,
          a.cart.lines.map((l, i) => ({ tenantId: ctx.tenantId, orderId: a.orderId, ...orderLineOf(l, i) })),
          ok,
        ),
        insertWhere(schema.orderStatusHistory, [placed], ok),
      ],
    );
    if (!taken.ok) {
      const name = a.cart.lines.find((l) => l.productId === taken.productId)?.productName ?? 'An item';
      throw new AppError(409, 'OUT_OF_STOCK', `Sorry, ${name} sold out while you were checking out.`);
    }
    if (a.cartRow.promoCode) {
      const code = a.cartRow.promoCode;
      // The row lock of this update serialises uses of one code: usage limits hold under concurrency.
      const [row] = await db
        .update(pc)
        .set({ timesUsed: sql`${pc.timesUsed} + 1` })
        .where(and(eq(pc.tenantId, ctx.tenantId), eq(pc.code, code)))
        .returning();
      const before = row ? { ...row, timesUsed: row.timesUsed - 1 } : null;
      const check = evaluatePromo(before, a.cart.subtotal, a.cart.currency, new Date());
      if (!check.ok) throw new AppError(422, 'PROMO_INVALID', check.message);
      const customerKey = promoCustomerKey(a.buyer.userId, a.email);
      if (row?.perCustomerLimit != null) {
        const [{ n } = { n: 0 }] = await db
          .select({ n: count() })
          .from(pr)
          .where(and(eq(pr.tenantId, ctx.tenantId), eq(pr.code, code), eq(pr.customerKey, customerKey)));
        if (n >= row.perCustomerLimit) {
          throw new AppError(422, 'PROMO_INVALID', perCustomerMessage(code, row.perCustomerLimit));
        }
      }
      await db.insert(pr).values({ tenantId: ctx.tenantId, orderId: a.orderId, code, customerKey });
    }
    // The row as written: the values given, and the columns' defaults (PostgreSQL's now() is the
    // statement's, which `at` is).
    const row: OrderRow = {
      ...orderRow(ctx, a),
      paymentRef: null,
      capturedAmount: 0,
      refundedAmount: 0,
      placedAt: taken.at,
      updatedAt: taken.at,
    } as OrderRow;
    return { entry: { ...placed, createdAt: taken.at }, row };
  }

  function orderRow(ctx: TenantContext, a: Parameters<typeof reserve>[2]): typeof o.$inferInsert {
    const s = a.input.shipTo;
    return {
      tenantId: ctx.tenantId,
      orderId: a.orderId,
      userId: a.buyer.userId,
      email: a.email,
      status: 'placed',
      currency: a.quote.currency,
      subtotal: a.quote.subtotal,
      discount: a.quote.discount,
      shippingTotal: a.quote.shipping,
      taxTotal: a.quote.tax,
      grandTotal: a.quote.total,
      promoCode: a.quote.discount > 0 ? a.cartRow.promoCode : null,
      shippingMethodId: a.input.shippingMethodId,
      shippingMethodName: a.method,
      shipTo: {
        toName: s.toName,
        address1: s.address1,
        address2: s.address2 ?? null,
        city: s.city,
        postalCode: s.postalCode.toUpperCase(),
        countryGeoId: s.countryGeoId,
        stateProvinceGeoId: s.stateProvinceGeoId ?? null,
        phone: s.phone ?? null,
      },
      billTo: null,
      paymentProvider: a.paymentProvider,
      paymentAccount: a.paymentAccount,
      paymentLabel: a.paymentLabel,
      idempotencyKey: a.idempotencyKey,
      requestHash: a.requestHash,
    };
  }

  /**
   * Undo of step 1: the stock and the promo use go back, and the order is gone. Only while it is still
   * placed: if the sweep of stuck orders has cancelled it (and given the stock back) meanwhile, there
   * is nothing left to undo.
   */
  async function release(ctx: TenantContext, orderId: string, cart: Cart) {
    await releaseLines(ctx, orderId, cart.lines);
  }

  async function releaseLines(ctx: TenantContext, orderId: string, lines: { productId: string; quantity: number }[]) {
    const released = await db.transaction(async (tx) => {
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
        throw AppError.conflict(
          'The earlier attempt with this key did not go through, and nothing was charged. Please try again.',
        );
      if (row.status === 'cancelled') {
        throw AppError.conflict('This order was not completed and has been cancelled. Please place it again.');
      }
      if (row.status !== 'placed') return deps.orders.placed(ctx, orderId, !buyer.userId);
      if (Date.now() - row.placedAt.getTime() >= IN_DOUBT_AFTER_MS) {
        // PayPal's side is settled by asking PayPal, which the sweep of stuck orders does.
        if (row.provider !== payer.providerId) {
          throw new AppError(
            409,
            'CONFLICT',
            'Your payment is still being confirmed. We will email you once it is.',
            undefined,
            {
              'Retry-After': '60',
            },
          );
        }
        return finish(ctx, buyer, orderId, payer, { total: row.total, currency: row.currency }, cartId);
      }
      if (Date.now() - started >= RETRY_WAIT_MS) {
        throw new AppError(
          409,
          'CONFLICT',
          'Your order is still being confirmed. Please try again in a moment.',
          undefined,
          {
            'Retry-After': '5',
          },
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

  /** How this store takes PayPal now; a store without a PayPal account of its own does not. */
  async function requirePayPal(tenantId: string): Promise<PayPalAccount> {
    const account = await deps.paymentAccounts.forStore(tenantId);
    if (!account) throw AppError.conflict('PayPal is not available in this store. Please pay by card.');
    return account;
  }

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
          ? { kind: 'token' as const, ...(await deps.cards.forCharge(ctx, buyer.userId, payment.paymentMethodId)) }
          : (() => {
              throw AppError.field(400, 'BAD_REQUEST', 'paymentMethodId', 'log in to pay with a saved card.');
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
          if (charge.reason === 'declined') throw new AppError(422, 'PAYMENT_DECLINED', charge.message);
          throw AppError.badRequest(charge.message);
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
  function payPalPayer(ctx: TenantContext, row: typeof ppc.$inferSelect, account: PayPalAccount): Payer {
    const paypal = account.client;
    const planned = (row.request as { orderId?: unknown }).orderId;
    const changed = () =>
      new AppError(
        409,
        'PAYMENT_AMOUNT_CHANGED',
        'Your order total changed while you were at PayPal. Please check your order and pay again.',
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
          if (capture.reason === 'declined') throw new AppError(422, 'PAYMENT_DECLINED', capture.message);
          if (capture.reason === 'not_found') throw AppError.notFound(capture.message);
          throw AppError.conflict(capture.message);
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
   * Reserve, take the payment, confirm (DESIGN.md section 7), for any way of paying. The same
   * Idempotency-Key returns the same order; the same key with another cart or request is a 409.
   */
  async function place(
    ctx: TenantContext,
    buyer: Buyer,
    input: OrderRequest,
    idempotencyKey: string,
    payer: Payer,
  ): Promise<Order> {
    const email = buyer.accountEmail ?? input.email;
    if (!email) throw AppError.field(400, 'BAD_REQUEST', 'email', 'please enter your email address for the receipt.');
    // What was asked (address, method, email, payment) and with which cart, hashed apart: a retry
    // after success finds the cart emptied by its own order, and must still get that order.
    const inputHash = sha256({
      shipTo: input.shipTo,
      method: input.shippingMethodId,
      email,
      paymentFingerprint: payer.fingerprint,
    });
    const loaded = await loadCart(ctx, buyer.owner);
    const cartNow = loaded.cart;
    const cartHash = sha256(cartNow.lines.map((l) => [l.productId, l.optionsText, l.quantity]));
    const requestHash = `${inputHash}:${cartHash}`;
    // A retry of a key whose order exists. Not looked up first: the order's insert, the reservation's
    // first statement, meets the key's unique index (below). Only when the cart cannot be ordered
    // (emptied by the earlier request's order, or its last units taken by it) is the key read here.
    const again = (found: NonNullable<Awaited<ReturnType<typeof existing>>>) => {
      const [askedFor, withCart] = found.requestHash.split(':');
      const sameCart = cartNow.lines.length === 0 || withCart === cartHash;
      if (askedFor !== inputHash || !sameCart || found.userId !== buyer.userId) {
        throw AppError.conflict('This Idempotency-Key was already used for a different order.');
      }
      return resume(ctx, buyer, found.orderId, payer, loaded.cartRow?.cartId ?? null);
    };
    let pricedOrder: Awaited<ReturnType<typeof priced>>;
    try {
      pricedOrder = await priced(ctx, loaded, input.shipTo, input.shippingMethodId);
    } catch (err) {
      const found = await existing(ctx, idempotencyKey);
      if (found) return again(found);
      throw err;
    }
    const { cart, cartRow, quote: q, method } = pricedOrder;

    const orderId = payer.orderId ?? newOrderId(ctx.tenantId);
    let placed: Placed;
    try {
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
        requestHash,
        paymentLabel: payer.labelGuess,
        paymentProvider: payer.providerId,
        paymentAccount: payer.account ?? null,
      };
      // A promo code's use is written after the take, in the same transaction; without one, the
      // reservation is one statement and needs none.
      placed = cartRow.promoCode
        ? await db.transaction((tx) => reserve(ctx, tx, reservation))
        : await reserve(ctx, db, reservation);
    } catch (err) {
      // The key's order exists (a retry, or the same key sent twice at once): that order, if the same.
      if (isUniqueViolation(err)) {
        const raced = await existing(ctx, idempotencyKey);
        if (raced) return again(raced);
      }
      throw err;
    }
    deps.events.emit('stock.changed', { tenantId: ctx.tenantId, productIds: cart.lines.map((l) => l.productId) });

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
   * Step 3: confirm. The order is paid and the cart is emptied; the receipt is mailed. `written`:
   * the order's row and first history row as reserve wrote them, and the cart's lines, when this
   * request placed the order, so the answer is built from what it wrote instead of read again.
   *
   * One statement, with no transaction around it (decision 064): the change to paid, its history
   * row, the cart emptied and the receipt's mail job, the last three only when the change happened.
   * So the receipt exists if and only if the order is paid.
   */
  async function confirm(
    ctx: TenantContext,
    buyer: Buyer,
    orderId: string,
    payer: Payer,
    q: Amount,
    paid: Awaited<ReturnType<Payer['take']>>,
    cartId: string | null,
    written?: Placed & { lines: Cart['lines'] },
  ): Promise<Order> {
    const set = { paymentRef: paid.ref, paymentLabel: paid.label, capturedAmount: q.total };
    // As reserve wrote them, with the product link and picture the cart showed.
    const lines = written?.lines.map((l, i) => ({ ...orderLineOf(l, i), slug: l.slug, imageUrl: l.imageUrl }));
    // The receipt is written before the statement that enqueues it, from the order as it will be
    // once paid: what a receipt shows (lines, totals, the payment's label) is all known by now.
    let receipt: ReturnType<typeof receiptOf> | null = null;
    if (written && lines) {
      const store = await storeIdentity(db, ctx);
      // A receipt that cannot be written (a template's bug) never undoes a paid order: logged, not sent.
      try {
        const paidOrder = await deps.orders.placed(ctx, orderId, !buyer.userId, {
          row: { ...written.row, ...set, status: 'paid' },
          history: [written.entry],
          lines,
        });
        receipt = store ? receiptOf(store, paidOrder) : null;
      } catch (err) {
        deps.log.error({ err, orderId }, 'order mail not sent');
      }
    }
    const confirmed = await transitionOrder(db, acting(ctx), orderId, 'paid', {
      from: 'placed',
      note: `Payment received (${paid.note})`,
      set,
      alongside: (changed) => [
        // The cart emptied and its promo code dropped.
        ...(cartId
          ? [
              sql`DELETE FROM ${cl} WHERE ${cl.tenantId} = ${ctx.tenantId} AND ${cl.cartId} = ${cartId} AND ${changed}`,
              sql`UPDATE ${c} SET promo_code = NULL, updated_at = now()
                WHERE ${c.tenantId} = ${ctx.tenantId} AND ${c.cartId} = ${cartId} AND ${changed}`,
            ]
          : []),
        ...(receipt ? [deps.mailer.sendWhere(ctx, receipt, changed)] : []),
      ],
    });
    // This request placed the order: the answer is built from what it wrote (no read).
    const answer =
      confirmed.ok && written && lines
        ? await deps.orders.placed(ctx, orderId, !buyer.userId, {
            row: confirmed.order,
            history: [written.entry, confirmed.entry],
            lines,
          })
        : undefined;
    if (!confirmed.ok) {
      // This checkout outlived the sweep's threshold and the sweep decided first. If it found the
      // payment, the order is paid and mailed already; if it cancelled the order (and gave the stock
      // back), the money just taken must go back too.
      if (confirmed.from !== 'paid') {
        const refunded = await payer.giveBack(paid.ref, q).catch(() => false);
        if (!refunded) {
          deps.log.error(
            { orderId, paymentRef: paid.ref, provider: payer.providerId },
            'payment taken for an order the sweep had cancelled; refund it by hand',
          );
        }
        throw AppError.conflict(
          refunded
            ? 'Your order timed out before the payment went through, and the payment has been refunded. Please place it again.'
            : 'Your order timed out before the payment went through. The store will refund the payment; please place the order again.',
        );
      }
      return deps.orders.placed(ctx, orderId, !buyer.userId);
    }

    deps.events.emit('order.transitioned', { tenantId: ctx.tenantId, orderId, from: 'placed', to: 'paid' });
    if (answer) {
      if (receipt) deps.mailer.committed(); // the receipt enqueued with the change goes now, not at the next poll
      return answer;
    }
    const order = await deps.orders.placed(ctx, orderId, !buyer.userId);
    // A mail outage never fails a paid order.
    await sendConfirmation(ctx, order).catch((err: unknown) => deps.log.error({ err, orderId }, 'order mail not sent'));
    return order;
  }

  /** The receipt by email: lines, totals and, for a guest, the signed link to the order. */
  async function sendConfirmation(ctx: TenantContext, order: Order) {
    const store = await storeIdentity(db, ctx);
    if (!store) return;
    await deps.mailer.send(ctx, receiptOf(store, order));
  }

  function receiptOf(store: { host: string; name: string }, order: Order) {
    // Links go to the store's canonical host from the database, never the request's Host.
    const key = order.accessKey ? `&key=${encodeURIComponent(order.accessKey)}` : '';
    const link = `${deps.linkOrigin(store.host)}/order?orderId=${encodeURIComponent(order.orderId)}${key}`;
    const money = (n: number) => formatMoney(n, order.currency);
    return {
      to: order.email,
      subject: `Your ${store.name} order ${order.orderId}`,
      text: [
        `Thank you for your order at ${store.name}.`,
        '',
        `Order ${order.orderId}`,
        ...order.lines.map(
          (l) => `${l.quantity} x ${l.productName}${l.optionsText ? ` (${l.optionsText})` : ''}: ${money(l.lineTotal)}`,
        ),
        '',
        `Subtotal: ${money(order.subtotal)}`,
        ...(order.discount ? [`Discount (${order.promoCode}): -${money(order.discount)}`] : []),
        `Shipping (${order.shippingMethod}): ${money(order.shipping)}`,
        `Tax: ${money(order.tax)}`,
        `Total: ${money(order.total)}`,
        `Paid with: ${order.payment}`,
        '',
        `See your order: ${link}`,
      ].join('\n'),
    };
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

  return {
    /**
     * What the checkout steps need: the cart, shipping methods for the destination, and the totals
     * with the chosen method (the first one when none or an unknown one is chosen).
     */
    async options(
      ctx: TenantContext,
      owner: CartOwner,
      destination: { countryGeoId: string; stateProvinceGeoId?: string | undefined },
      shippingMethodId?: string,
      customerKey?: string,
    ) {
      const cart = await withoutUsedUpPromo(ctx, await deps.cart.view(ctx, owner), customerKey);
      const shipping = await rates(ctx, cart, destination.countryGeoId);
      const tax = await taxFor(ctx, destination.countryGeoId, destination.stateProvinceGeoId);
      const chosen = shipping.find((r) => r.methodId === shippingMethodId) ?? shipping[0];
      return {
        cart,
        shippingMethods: shipping,
        shippingMethodId: chosen?.methodId ?? null,
        quote: quote(cart, chosen?.rate ?? 0, tax),
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
      const r = await priced(ctx, await loadCart(ctx, owner), input.shipTo, input.shippingMethodId);
      return { cart: r.cart, quote: r.quote, shippingMethod: r.method };
    },

    /**
     * Places the order. The same Idempotency-Key returns the same order; the same key with another
     * cart, address or payment is refused (409). Nothing the client sends about money is used.
     */
    async placeOrder(ctx: RequestContext, input: PlaceOrder, idempotencyKey: string): Promise<Order> {
      const buyer = buyerOf(ctx);
      return place(ctx, buyer, input, idempotencyKey, await cardPayer(ctx, buyer, input.payment));
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
    ): Promise<{ paypalOrderId: string; approveUrl: string }> {
      const account = await requirePayPal(ctx.tenantId);
      const buyer = buyerOf(ctx);
      const email = buyer.accountEmail ?? input.email;
      if (!email) throw AppError.field(400, 'BAD_REQUEST', 'email', 'please enter your email address for the receipt.');
      const {
        cart,
        cartRow,
        quote: q,
      } = await priced(ctx, await loadCart(ctx, buyer.owner), input.shipTo, input.shippingMethodId);
      // A code that does not apply is refused now, at checkout, where the shopper can remove it, and
      // not after they approved a payment at PayPal (placing the order would refuse it then).
      if (cartRow.promoCode) {
        const forBuyer = await withoutUsedUpPromo(ctx, cart, promoCustomerKey(buyer.userId, email));
        if (forBuyer.promoProblem) throw new AppError(422, 'PROMO_INVALID', forBuyer.promoProblem);
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
      return { paypalOrderId: created.id, approveUrl: created.approveUrl };
    },

    /**
     * PayPal, step two, when the shopper comes back approved: reserves the order, checks that PayPal's
     * order is for this order's amount and currency, captures, confirms. Capturing again returns the
     * same order. A PayPal order of another shopper or cart is a 404, as if it did not exist. The
     * capture goes through the account the PayPal order was created in, whatever the store uses now.
     */
    async capturePayPal(ctx: RequestContext, paypalOrderId: string): Promise<Order> {
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
      if (row.orderId) return deps.orders.placed(ctx, row.orderId, !buyer.userId);
      const account = await deps.paymentAccounts.forOrder(ctx.tenantId, row.paymentAccount);
      if (!account) throw AppError.conflict('PayPal is not available in this store any more. Please pay by card.');
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
        await deps.addresses.create(ctx, buyer.userId, parsed.shipTo).catch((err: unknown) => {
          deps.log.warn({ err, orderId: order.orderId }, 'address from a PayPal checkout not saved');
        });
      }
      return order;
    },

    /** Whether this store offers PayPal at checkout: it has a PayPal account of its own (decision 049). */
    payPalOffered: async (tenantId: string) => Boolean(await deps.paymentAccounts.forStore(tenantId)),

    sendConfirmation,
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
