import { createHash, randomBytes } from 'node:crypto';
import type { Cart, Order, PlaceOrder, Quote, ShippingRate } from '@app/contracts';
import { formatMoney } from '@app/contracts/client';
import { type Db, schema } from '@app/db';
import { and, asc, count, eq, gte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { checkPlace } from '../addresses/index';
import { type CartOwner, type CartService, evaluatePromo } from '../cart/index';
import type { Mailer } from '../mail/index';
import type { OrdersService } from '../orders/orders.service';
import type { CardsService } from '../payments/index';
import { quote, shippingRate, shipsTo, taxRateFor } from './quote';

const sm = schema.shippingMethods;
const tr = schema.taxRates;
const p = schema.products;
const o = schema.orders;
const pc = schema.promoCodes;
const pr = schema.promoRedemptions;
const cl = schema.cartLines;
const c = schema.carts;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface CheckoutDeps {
  cart: CartService;
  orders: OrdersService;
  cards: CardsService;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** scheme://host[:port] for links in mail, from the store's canonical host. */
  linkOrigin: (canonicalHost: string) => string;
}

/** Who is buying: an account (its email) or a guest (the email typed at checkout). */
export interface Buyer {
  owner: CartOwner;
  userId: string | null;
  accountEmail: string | null;
}

/** A short order number a shopper can read out on the phone: store prefix, then 8 characters. */
function newOrderId(tenantId: string) {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(8);
  const tail = Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
  return `${tenantId.slice(0, 3).toUpperCase()}-${tail}`;
}

const sha256 = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');

/** The rows a unique violation left behind look the same on PostgreSQL and PGlite. */
const isUniqueViolation = (err: unknown) =>
  (err as { code?: string })?.code === '23505' || (err as { cause?: { code?: string } })?.cause?.code === '23505';

/**
 * Checkout as named steps, each with its undo (DESIGN.md section 7): reserve (stock, promo use and
 * the order, in one transaction), charge (the payment provider), confirm (paid, cart emptied).
 * A refused charge undoes the reservation, so a declined card leaves no order and no stock taken.
 */
export function createCheckoutService(db: Db, deps: CheckoutDeps) {
  async function methods(ctx: TenantContext) {
    return db.select().from(sm).where(eq(sm.tenantId, ctx.tenantId)).orderBy(asc(sm.sequenceNum), asc(sm.methodId));
  }

  async function rates(ctx: TenantContext, cart: Cart, countryGeoId: string): Promise<ShippingRate[]> {
    return (await methods(ctx)).filter((m) => shipsTo(m, countryGeoId)).map((m) => shippingRate(m, cart));
  }

  async function taxFor(ctx: TenantContext, countryGeoId: string, region: string | null | undefined) {
    const rows = await db
      .select()
      .from(tr)
      .where(and(eq(tr.tenantId, ctx.tenantId), eq(tr.countryGeoId, countryGeoId)));
    return taxRateFor(rows, countryGeoId, region);
  }

  /** The cart must be buyable as it is, and the method must ship to the address. */
  async function loadCart(ctx: TenantContext, owner: CartOwner) {
    const cartRow = await deps.cart.findCart(ctx, owner);
    return { cartRow, cart: await deps.cart.price(ctx, cartRow) };
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
    if (!rate) throw AppError.badRequest('shippingMethodId: this shipping method does not deliver to that address.');
    const tax = await taxFor(ctx, shipTo.countryGeoId, shipTo.stateProvinceGeoId);
    return { cart, cartRow, quote: quote(cart, rate.rate, tax), method: rate.name };
  }

  /** Step 1: takes the stock and the promo use and writes the order, or nothing at all. */
  async function reserve(
    ctx: TenantContext,
    tx: Tx,
    a: {
      orderId: string;
      buyer: Buyer;
      email: string;
      input: PlaceOrder;
      cart: Cart;
      cartRow: { promoCode: string | null };
      quote: Quote;
      method: string;
      idempotencyKey: string;
      requestHash: string;
      paymentLabel: string;
    },
  ) {
    for (const line of a.cart.lines) {
      // Atomic: the row is only changed while enough is left, so concurrent orders cannot oversell.
      const taken = await tx
        .update(p)
        .set({ stockQuantity: sql`${p.stockQuantity} - ${line.quantity}` })
        .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, line.productId), gte(p.stockQuantity, line.quantity)))
        .returning({ productId: p.productId });
      if (taken.length === 0) {
        throw new AppError(409, 'OUT_OF_STOCK', `Sorry, ${line.productName} sold out while you were checking out.`);
      }
    }
    if (a.cartRow.promoCode) {
      const code = a.cartRow.promoCode;
      // The row lock of this update serialises uses of one code: usage limits hold under concurrency.
      const [row] = await tx
        .update(pc)
        .set({ timesUsed: sql`${pc.timesUsed} + 1` })
        .where(and(eq(pc.tenantId, ctx.tenantId), eq(pc.code, code)))
        .returning();
      const before = row ? { ...row, timesUsed: row.timesUsed - 1 } : null;
      const check = evaluatePromo(before, a.cart.subtotal, a.cart.currency, new Date());
      if (!check.ok) throw new AppError(422, 'PROMO_INVALID', check.message);
      const customerKey = a.buyer.userId ? `user:${a.buyer.userId}` : `email:${a.email.toLowerCase()}`;
      if (row?.perCustomerLimit != null) {
        const [{ n } = { n: 0 }] = await tx
          .select({ n: count() })
          .from(pr)
          .where(and(eq(pr.tenantId, ctx.tenantId), eq(pr.code, code), eq(pr.customerKey, customerKey)));
        if (n >= row.perCustomerLimit) {
          throw new AppError(
            422,
            'PROMO_INVALID',
            `${code} can be used only ${row.perCustomerLimit === 1 ? 'once' : `${row.perCustomerLimit} times`} per customer.`,
          );
        }
      }
      await tx.insert(o).values(orderRow(ctx, a));
      await tx.insert(pr).values({ tenantId: ctx.tenantId, orderId: a.orderId, code, customerKey });
    } else {
      await tx.insert(o).values(orderRow(ctx, a));
    }
    await tx.insert(schema.orderLines).values(
      a.cart.lines.map((l, i) => ({
        tenantId: ctx.tenantId,
        orderId: a.orderId,
        lineNo: i + 1,
        productId: l.productId,
        productName: l.productName,
        optionsText: l.optionsText,
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        lineTotal: l.lineTotal,
      })),
    );
    await tx.insert(schema.orderStatusHistory).values({
      tenantId: ctx.tenantId,
      orderId: a.orderId,
      seq: 1,
      status: 'placed',
      note: 'Order placed',
    });
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
      paymentProvider: deps.cards.provider.id,
      paymentLabel: a.paymentLabel,
      idempotencyKey: a.idempotencyKey,
      requestHash: a.requestHash,
    };
  }

  /** Undo of step 1: the stock and the promo use go back, and the order is gone. */
  async function release(ctx: TenantContext, orderId: string, cart: Cart, promoCode: string | null) {
    await db.transaction(async (tx) => {
      const [gone] = await tx
        .delete(o)
        .where(and(eq(o.tenantId, ctx.tenantId), eq(o.orderId, orderId)))
        .returning({ orderId: o.orderId });
      if (!gone) return;
      for (const line of cart.lines) {
        await tx
          .update(p)
          .set({ stockQuantity: sql`${p.stockQuantity} + ${line.quantity}` })
          .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, line.productId)));
      }
      if (promoCode) {
        const removed = await tx
          .delete(pr)
          .where(and(eq(pr.tenantId, ctx.tenantId), eq(pr.orderId, orderId)))
          .returning();
        if (removed.length) {
          await tx
            .update(pc)
            .set({ timesUsed: sql`greatest(${pc.timesUsed} - 1, 0)` })
            .where(and(eq(pc.tenantId, ctx.tenantId), eq(pc.code, promoCode)));
        }
      }
    });
  }

  async function existing(ctx: TenantContext, idempotencyKey: string) {
    const [row] = await db
      .select({ orderId: o.orderId, requestHash: o.requestHash, status: o.status, userId: o.userId })
      .from(o)
      .where(and(eq(o.tenantId, ctx.tenantId), eq(o.idempotencyKey, idempotencyKey)));
    return row ?? null;
  }

  return {
    /** What the checkout steps need: the cart, shipping methods for the destination, and the totals. */
    async options(
      ctx: TenantContext,
      owner: CartOwner,
      destination: { countryGeoId: string; stateProvinceGeoId?: string },
    ) {
      const cart = await deps.cart.view(ctx, owner);
      const shipping = await rates(ctx, cart, destination.countryGeoId);
      const tax = await taxFor(ctx, destination.countryGeoId, destination.stateProvinceGeoId);
      const first = shipping[0];
      return { cart, shippingMethods: shipping, quote: quote(cart, first?.rate ?? 0, tax) };
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
    async placeOrder(ctx: TenantContext, buyer: Buyer, input: PlaceOrder, idempotencyKey: string): Promise<Order> {
      const email = buyer.accountEmail ?? input.email;
      if (!email) throw AppError.badRequest('email: please enter your email address for the receipt.');
      const paymentFingerprint =
        input.payment.method === 'card'
          ? `card:${input.payment.cardNumber.slice(-4)}`
          : `saved:${input.payment.paymentMethodId}`;
      // What was asked (address, method, email, payment) and with which cart, hashed apart: a retry
      // after success finds the cart emptied by its own order, and must still get that order.
      const inputHash = sha256({ shipTo: input.shipTo, method: input.shippingMethodId, email, paymentFingerprint });
      const loaded = await loadCart(ctx, buyer.owner);
      const cartNow = loaded.cart;
      const cartHash = sha256(cartNow.lines.map((l) => [l.productId, l.optionsText, l.quantity]));
      const found = await existing(ctx, idempotencyKey);
      if (found) {
        const [askedFor, withCart] = found.requestHash.split(':');
        const sameCart = cartNow.lines.length === 0 || withCart === cartHash;
        if (askedFor !== inputHash || !sameCart || found.userId !== buyer.userId) {
          throw AppError.conflict('This Idempotency-Key was already used for a different order.');
        }
        return deps.orders.placed(ctx, found.orderId, !buyer.userId);
      }
      const requestHash = `${inputHash}:${cartHash}`;
      const { cart, cartRow, quote: q, method } = await priced(ctx, loaded, input.shipTo, input.shippingMethodId);

      // The saved card must be the shopper's own; a typed card is only checked by the provider.
      const source =
        input.payment.method === 'card'
          ? {
              kind: 'card' as const,
              card: {
                number: input.payment.cardNumber,
                cvc: input.payment.cvc,
                expMonth: input.payment.expMonth,
                expYear: input.payment.expYear,
                name: input.payment.nameOnCard,
              },
            }
          : buyer.userId
            ? {
                kind: 'token' as const,
                ...(await deps.cards.forCharge(ctx, buyer.userId, input.payment.paymentMethodId)),
              }
            : (() => {
                throw AppError.badRequest('paymentMethodId: log in to pay with a saved card.');
              })();

      const orderId = newOrderId(ctx.tenantId);
      const paymentLabelGuess = source.kind === 'token' ? `${source.brand} •••• ${source.last4}` : 'Card';
      try {
        await db.transaction((tx) =>
          reserve(ctx, tx, {
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
            paymentLabel: paymentLabelGuess,
          }),
        );
      } catch (err) {
        // The same key sent twice at once: the other request made the order.
        if (isUniqueViolation(err)) {
          const raced = await existing(ctx, idempotencyKey);
          if (raced && raced.requestHash === requestHash && raced.userId === buyer.userId) {
            return deps.orders.placed(ctx, raced.orderId, !buyer.userId);
          }
          if (raced) throw AppError.conflict('This Idempotency-Key was already used for a different order.');
        }
        throw err;
      }

      // Step 2: charge. A refusal undoes step 1.
      let charge: Awaited<ReturnType<typeof deps.cards.provider.charge>>;
      try {
        charge = await deps.cards.provider.charge({
          amountMinor: q.total,
          currency: q.currency,
          source: source.kind === 'card' ? source : { kind: 'token', token: source.token },
          // One charge per reservation: a retry after a decline makes a new order, so a new charge.
          idempotencyKey: `${ctx.tenantId}:${orderId}`,
          description: `Order ${orderId}`,
        });
      } catch (err) {
        await release(ctx, orderId, cart, cartRow.promoCode);
        throw err;
      }
      if (!charge.ok) {
        await release(ctx, orderId, cart, cartRow.promoCode);
        if (charge.reason === 'declined') throw new AppError(422, 'PAYMENT_DECLINED', charge.message);
        throw AppError.badRequest(charge.message);
      }

      // Step 3: confirm. The order is paid and the cart is emptied.
      const cartId = cartRow.cartId;
      await db.transaction(async (tx) => {
        await tx
          .update(o)
          .set({
            status: 'paid',
            paymentRef: charge.chargeId,
            paymentLabel: charge.last4 ? `${charge.brand} •••• ${charge.last4}` : charge.brand,
            updatedAt: new Date(),
          })
          .where(and(eq(o.tenantId, ctx.tenantId), eq(o.orderId, orderId)));
        await tx.insert(schema.orderStatusHistory).values({
          tenantId: ctx.tenantId,
          orderId,
          seq: 2,
          status: 'paid',
          note: `Payment received (${charge.brand})`,
        });
        await tx.delete(cl).where(and(eq(cl.tenantId, ctx.tenantId), eq(cl.cartId, cartId)));
        await tx
          .update(c)
          .set({ promoCode: null, updatedAt: new Date() })
          .where(and(eq(c.tenantId, ctx.tenantId), eq(c.cartId, cartId)));
      });

      const order = await deps.orders.placed(ctx, orderId, !buyer.userId);
      // A mail outage never fails a paid order.
      await this.sendConfirmation(ctx, order).catch((err: unknown) =>
        deps.log.error({ err, orderId }, 'order mail not sent'),
      );
      return order;
    },

    /** The receipt by email: lines, totals and, for a guest, the signed link to the order. */
    async sendConfirmation(ctx: TenantContext, order: Order) {
      const [store] = await db
        .select({ host: schema.productStores.canonicalHost, name: schema.productStores.storeName })
        .from(schema.productStores)
        .where(
          and(
            eq(schema.productStores.tenantId, ctx.tenantId),
            eq(schema.productStores.productStoreId, ctx.productStoreId),
          ),
        );
      if (!store) return;
      // Links go to the store's canonical host from the database, never the request's Host.
      const key = order.accessKey ? `&key=${encodeURIComponent(order.accessKey)}` : '';
      const link = `${deps.linkOrigin(store.host)}/order?orderId=${encodeURIComponent(order.orderId)}${key}`;
      const money = (n: number) => formatMoney(n, order.currency);
      await deps.mailer.send({
        to: order.email,
        subject: `Your ${store.name} order ${order.orderId}`,
        text: [
          `Thank you for your order at ${store.name}.`,
          '',
          `Order ${order.orderId}`,
          ...order.lines.map(
            (l) =>
              `${l.quantity} x ${l.productName}${l.optionsText ? ` (${l.optionsText})` : ''}: ${money(l.lineTotal)}`,
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
      });
    },
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
