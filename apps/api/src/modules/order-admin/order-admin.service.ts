import { randomUUID } from 'node:crypto';
import {
  CARRIERS,
  type CancelOrderRequest,
  carrierTrackingUrl,
  customerHref,
  type FulfilRequest,
  formatMoney,
  type OrderActionResult,
  type OrderStatus,
  PAYMENT_STATUS_LABELS,
  paymentStatusOf,
  type RefundRequest,
  type StaffOrder,
} from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { RequestContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import { ok, Refused, type Result, returnRefusals } from '../../lib/result';
import type { AuditService } from '../audit/index';
import { COUNTRIES } from '../geo/index';
import { changeStock } from '../inventory/index';
import type { MailQueue } from '../mail/index';
import {
  canTransition,
  type InvoiceRenderer,
  invoiceData,
  type OrderRefunds,
  type OrdersService,
  type RefundRefusal,
  recordOrderEvent,
  refundRefused,
  STATUS_LABELS,
  type TransitionRefusal,
  transitionOrder,
  transitionRefused,
} from '../orders/index';
import { type StoreService, storeIdentity } from '../store/index';

const o = schema.orders;
const ol = schema.orderLines;
const oh = schema.orderStatusHistory;
const of = schema.orderFulfillments;
const oev = schema.orderEvents;
const p = schema.products;
const u = schema.users;

export interface OrderAdminDeps {
  refunds: OrderRefunds;
  orders: Pick<OrdersService, 'accessKey' | 'placed'>;
  audit: Pick<AuditService, 'record'>;
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
  mailer: MailQueue;
  store: Pick<StoreService, 'details'>;
  invoices: InvoiceRenderer;
  /** scheme://host[:port] for links in mail, from the store's canonical host. */
  linkOrigin: (canonicalHost: string) => string;
}

function placeNames(countryGeoId: string, regionGeoId: string | null | undefined) {
  const country = COUNTRIES.find((c) => c.geoId === countryGeoId);
  const region = regionGeoId ? (country?.regions.find((r) => r.geoId === regionGeoId)?.name ?? regionGeoId) : null;
  return { countryName: country?.name ?? countryGeoId, regionName: region };
}

const EVENT_WORDS: Record<string, string> = {
  placed: 'Order placed',
  paid: 'Payment received',
  fulfilled: 'Marked as shipped',
  delivered: 'Marked as delivered',
  completed: 'Completed',
  cancelled: 'Cancelled',
  refunded: 'Refunded in full',
};

/**
 * The store side of one order: the page staff read, and its actions. Every action
 * is a transition of the orders state machine (`transitionOrder`, which refuses a move not in its
 * table: the action returns that 409 refusal) in one transaction with what it means (a shipment, stock back, a mail queued, the
 * timeline, the audit entry); `order.transitioned` is emitted after the commit. Money goes back only
 * through `refunds` (modules/orders), which never lets the refunds exceed the capture.
 */
export function createOrderAdminService(db: Db, deps: OrderAdminDeps) {
  async function row(ctx: RequestContext, orderId: string) {
    const [order] = await db
      .select()
      .from(o)
      .where(and(eq(o.tenantId, ctx.tenantId), eq(o.orderId, orderId)));
    if (!order) throw AppError.notFound(`Order ${orderId} was not found.`);
    return order;
  }

  async function view(ctx: RequestContext, orderId: string): Promise<StaffOrder> {
    const order = await row(ctx, orderId);
    const [lines, history, shipments, events, refunds, [counted]] = await Promise.all([
      db
        .select({ line: ol, productExists: p.productId })
        .from(ol)
        .leftJoin(p, and(eq(p.tenantId, ol.tenantId), eq(p.productId, ol.productId)))
        .where(and(eq(ol.tenantId, ctx.tenantId), eq(ol.orderId, orderId)))
        .orderBy(asc(ol.lineNo)),
      db
        .select()
        .from(oh)
        .where(and(eq(oh.tenantId, ctx.tenantId), eq(oh.orderId, orderId)))
        .orderBy(asc(oh.seq)),
      db
        .select()
        .from(of)
        .where(and(eq(of.tenantId, ctx.tenantId), eq(of.orderId, orderId)))
        .orderBy(asc(of.createdAt)),
      db
        .select()
        .from(oev)
        .where(and(eq(oev.tenantId, ctx.tenantId), eq(oev.orderId, orderId)))
        .orderBy(asc(oev.createdAt)),
      deps.refunds.list(ctx, orderId),
      // The customer's orders in this store: by account (orders_user_idx), a guest by the email.
      order.userId
        ? db
            .select({ n: count() })
            .from(o)
            .where(and(eq(o.tenantId, ctx.tenantId), eq(o.userId, order.userId)))
        : db
            .select({ n: count() })
            .from(o)
            .where(
              and(
                eq(o.tenantId, ctx.tenantId),
                isNull(o.userId),
                sql`lower(${o.email}) = ${order.email.toLowerCase()}`,
              ),
            ),
    ]);
    // Names of the people in the history (the events keep theirs as written).
    const userIds = [
      ...new Set(
        [
          order.userId,
          ...history.map((h) => (h.actorKind === 'staff' || h.actorKind === 'shopper' ? h.actorId : null)),
        ].filter((x): x is string => Boolean(x)),
      ),
    ];
    const people = userIds.length
      ? await db
          .select({ userId: u.userId, firstName: u.firstName, lastName: u.lastName })
          .from(u)
          .where(and(eq(u.tenantId, ctx.tenantId), inArray(u.userId, userIds)))
      : [];
    const nameOf = (id: string | null) => {
      const person = people.find((x) => x.userId === id);
      return person ? [person.firstName, person.lastName].filter(Boolean).join(' ') : null;
    };
    const actorLabel = (kind: string | null, id: string | null, name?: string | null) => {
      if (kind === 'system') return id ? `System (${id})` : 'System';
      if (kind === 'guest') return 'Customer';
      if (kind === 'shopper') return name ?? nameOf(id) ?? 'Customer';
      if (kind === 'staff') return name ?? nameOf(id) ?? 'Staff';
      return null;
    };

    const holding = refunds.filter((r) => r.status !== 'failed');
    const refundedQty = new Map<number, number>();
    for (const r of holding)
      for (const l of r.lines) refundedQty.set(l.lineNo, (refundedQty.get(l.lineNo) ?? 0) + l.quantity);
    const pending = holding.filter((r) => r.status === 'pending').reduce((s, r) => s + r.amount, 0);
    const status = order.status as OrderStatus;
    // A unit's share of what the shopper paid for goods: its price less the order's discount, plus tax.
    const goodsFactor = order.subtotal > 0 ? (order.subtotal - order.discount + order.taxTotal) / order.subtotal : 1;
    const refundable = Math.max(0, order.capturedAmount - order.refundedAmount - pending);
    const customerName =
      nameOf(order.userId) || order.billTo?.toName || order.shipTo.toName || order.email.split('@')[0] || order.email;

    const timeline: StaffOrder['timeline'] = [
      ...history.map((h) => ({
        id: `status-${h.seq}`,
        kind: 'status',
        message: h.note ?? EVENT_WORDS[h.status] ?? h.status,
        detail:
          [
            h.fromStatus
              ? `${STATUS_LABELS[h.fromStatus as OrderStatus] ?? h.fromStatus} → ${STATUS_LABELS[h.status as OrderStatus] ?? h.status}`
              : null,
            h.reason,
          ]
            .filter(Boolean)
            .join(' · ') || null,
        actor: actorLabel(h.actorKind, h.actorId),
        visibleToShopper: true,
        at: h.createdAt.toISOString(),
        sort: h.createdAt.getTime(),
        tie: h.seq,
      })),
      ...events.map((e, i) => ({
        id: e.eventId,
        kind: e.kind,
        message: e.message,
        detail: null,
        actor: actorLabel(e.actorKind, e.actorId, e.actorName),
        visibleToShopper: e.visibleToShopper,
        at: e.createdAt.toISOString(),
        sort: e.createdAt.getTime(),
        tie: 10_000 + i,
      })),
    ]
      // Newest first; within one instant, what was written later first.
      .sort((a, b) => b.sort - a.sort || b.tie - a.tie)
      .map(({ sort: _s, tie: _t, ...entry }) => entry);

    return {
      orderId: order.orderId,
      status,
      statusLabel: STATUS_LABELS[status],
      paymentStatus: paymentStatusOf({
        status,
        capturedAmount: order.capturedAmount,
        refundedAmount: order.refundedAmount,
      }),
      paymentStatusLabel:
        PAYMENT_STATUS_LABELS[
          paymentStatusOf({ status, capturedAmount: order.capturedAmount, refundedAmount: order.refundedAmount })
        ],
      placedAt: order.placedAt.toISOString(),
      currency: order.currency,
      lines: lines.map(({ line: l, productExists }) => ({
        lineNo: l.lineNo,
        productId: l.productId,
        productName: l.productName,
        productHref: productExists ? `/manage-store/products/${encodeURIComponent(l.productId)}` : null,
        optionsText: l.optionsText,
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        lineTotal: l.lineTotal,
        refundedQuantity: refundedQty.get(l.lineNo) ?? 0,
        refundPerUnit: Math.round(l.unitPrice * goodsFactor),
      })),
      subtotal: order.subtotal,
      discount: order.discount,
      promoCode: order.promoCode,
      shippingMethod: order.shippingMethodName,
      shipping: order.shippingTotal,
      tax: order.taxTotal,
      total: order.grandTotal,
      shipTo: { ...order.shipTo, ...placeNames(order.shipTo.countryGeoId, order.shipTo.stateProvinceGeoId) },
      billTo: order.billTo
        ? { ...order.billTo, ...placeNames(order.billTo.countryGeoId, order.billTo.stateProvinceGeoId) }
        : null,
      payment: {
        label: order.paymentLabel,
        provider: order.paymentProvider,
        captured: order.capturedAmount,
        refunded: order.refundedAmount,
        refundable,
        shippingRefundable: Math.max(0, order.shippingTotal - holding.reduce((s, r) => s + r.shippingAmount, 0)),
        refunds,
      },
      customer: {
        userId: order.userId,
        email: order.email,
        name: customerName,
        registered: order.userId !== null,
        href: customerHref({ userId: order.userId, email: order.email }),
        orderCount: counted?.n ?? 0,
      },
      shipments: shipments.map((f) => ({
        fulfillmentId: f.fulfillmentId,
        carrierName: f.carrierName,
        trackingNumber: f.trackingNumber,
        trackingUrl: f.trackingUrl,
        shippedAt: f.createdAt.toISOString(),
      })),
      timeline,
      can: {
        fulfil: canTransition(status, 'fulfilled'),
        deliver: canTransition(status, 'delivered'),
        cancel: canTransition(status, 'cancelled'),
        refund: refundable > 0,
      },
    };
  }

  /** The link a mail gives the shopper: their account's order page, or a guest's signed link. */
  async function shopperMail(ctx: RequestContext, order: typeof o.$inferSelect) {
    const store = await storeIdentity(db, ctx);
    const origin = deps.linkOrigin(store?.host ?? ctx.hostName);
    const key = order.userId ? '' : `&key=${encodeURIComponent(deps.orders.accessKey(ctx, order.orderId))}`;
    return {
      storeName: store?.name ?? ctx.hostName,
      link: `${origin}/order?orderId=${encodeURIComponent(order.orderId)}${key}`,
    };
  }

  /** Queues a mail to the shopper in `tx` and says so in the timeline (the same transaction). */
  async function mailShopper(
    tx: Tx,
    ctx: RequestContext,
    order: typeof o.$inferSelect,
    what: string,
    message: { subject: string; text: string },
  ) {
    await deps.mailer.send(ctx, { to: order.email, ...message }, { tx });
    await recordOrderEvent(tx, ctx, order.orderId, {
      kind: 'email',
      message: `${what} sent to ${order.email}`,
      data: { subject: message.subject },
    });
  }

  /**
   * An action's transaction. A transition the state machine refuses is thrown inside it as `Refused`
   * (so everything the transaction wrote is undone) and comes back here as the returned refusal.
   */
  async function transact<T>(work: (tx: Tx) => Promise<T>): Promise<Result<T, TransitionRefusal>> {
    return returnRefusals<Result<T, TransitionRefusal>, TransitionRefusal>(async () =>
      ok(await deps.events.transaction(work)),
    );
  }

  async function result(ctx: RequestContext, orderId: string, message: string): Promise<OrderActionResult> {
    return { order: await view(ctx, orderId), message };
  }

  return {
    view,

    async addNote(ctx: RequestContext, orderId: string, input: { message: string }): Promise<OrderActionResult> {
      await row(ctx, orderId);
      await deps.events.transaction(async (tx: Tx) => {
        const event = await recordOrderEvent(tx, ctx, orderId, { kind: 'note', message: input.message });
        await deps.audit.record(tx, ctx, {
          entity: 'order',
          entityId: orderId,
          action: 'note',
          after: { note: input.message, eventId: event.eventId },
        });
      });
      return result(ctx, orderId, 'Note added.');
    },

    /** paid → fulfilled: the parcel, its tracking link, and (by default) the shopper's "on its way" mail. */
    async fulfil(
      ctx: RequestContext,
      orderId: string,
      input: FulfilRequest,
    ): Promise<Result<OrderActionResult, TransitionRefusal>> {
      const carrierName = input.carrier === 'other' ? (input.carrierName ?? 'Other') : CARRIERS[input.carrier].name;
      const trackingUrl =
        input.carrier === 'other'
          ? (input.trackingUrl ?? null)
          : carrierTrackingUrl(input.carrier, input.trackingNumber);
      // Read before the transaction: PGlite has one connection, so nothing may read beside an open one.
      const mail = input.notify ? await shopperMail(ctx, await row(ctx, orderId)) : null;
      const done = await transact(async (tx: Tx) => {
        const moved = await transitionOrder(tx, ctx, orderId, 'fulfilled', {
          note: `Shipped with ${carrierName}`,
          reason: `tracking ${input.trackingNumber}`,
        });
        if (!moved.ok) throw new Refused(transitionRefused(moved));
        const lines = await tx
          .select({ lineNo: ol.lineNo, quantity: ol.quantity })
          .from(ol)
          .where(and(eq(ol.tenantId, ctx.tenantId), eq(ol.orderId, orderId)));
        const fulfillmentId = `FF-${randomUUID().slice(0, 8).toUpperCase()}`;
        await tx.insert(of).values({
          tenantId: ctx.tenantId,
          fulfillmentId,
          orderId,
          carrier: input.carrier,
          carrierName,
          trackingNumber: input.trackingNumber,
          trackingUrl,
          lines,
          actorKind: ctx.actor.kind,
          actorId: ctx.actor.kind === 'staff' ? ctx.actor.userId : null,
        });
        await recordOrderEvent(tx, ctx, orderId, {
          kind: 'fulfillment',
          message: `Shipped with ${carrierName} · ${input.trackingNumber}`,
          data: { fulfillmentId, carrier: input.carrier, trackingNumber: input.trackingNumber, trackingUrl },
          visibleToShopper: true,
        });
        if (mail) {
          const { storeName, link } = mail;
          await mailShopper(tx, ctx, moved.order, 'Shipping confirmation', {
            subject: `Your ${storeName} order ${orderId} is on its way`,
            text: [
              `Good news: your order ${orderId} is on its way.`,
              '',
              `Carrier: ${carrierName}`,
              `Tracking number: ${input.trackingNumber}`,
              ...(trackingUrl ? [`Track your parcel: ${trackingUrl}`] : []),
              '',
              `Your order: ${link}`,
              '',
              `Thank you for shopping at ${storeName}.`,
            ].join('\n'),
          });
        }
        await deps.audit.record(tx, ctx, {
          entity: 'order',
          entityId: orderId,
          action: 'fulfil',
          before: { status: moved.from },
          after: { status: 'fulfilled', carrier: carrierName, trackingNumber: input.trackingNumber },
        });
        deps.events.emitAfterCommit(tx, 'order.transitioned', {
          tenantId: ctx.tenantId,
          orderId,
          from: moved.from,
          to: 'fulfilled',
        });
      });
      if (!done.ok) return done;
      return ok(await result(ctx, orderId, `Order ${orderId} marked as shipped with ${carrierName}.`));
    },

    /** fulfilled → delivered. */
    async deliver(ctx: RequestContext, orderId: string): Promise<Result<OrderActionResult, TransitionRefusal>> {
      const done = await transact(async (tx: Tx) => {
        const moved = await transitionOrder(tx, ctx, orderId, 'delivered', { note: 'Delivered' });
        if (!moved.ok) throw new Refused(transitionRefused(moved));
        await deps.audit.record(tx, ctx, {
          entity: 'order',
          entityId: orderId,
          action: 'deliver',
          before: { status: moved.from },
          after: { status: 'delivered' },
        });
        deps.events.emitAfterCommit(tx, 'order.transitioned', {
          tenantId: ctx.tenantId,
          orderId,
          from: moved.from,
          to: 'delivered',
        });
      });
      if (!done.ok) return done;
      return ok(await result(ctx, orderId, `Order ${orderId} marked as delivered.`));
    },

    /**
     * placed or paid → cancelled: the stock comes back (once: only the transaction that made the order
     * cancelled releases it, and a second cancel is refused by the state machine), then what was
     * captured goes back through the provider, then the shopper is told.
     */
    async cancel(
      ctx: RequestContext,
      orderId: string,
      input: CancelOrderRequest,
    ): Promise<Result<OrderActionResult, TransitionRefusal>> {
      const done = await transact(async (tx: Tx) => {
        const moved = await transitionOrder(tx, ctx, orderId, 'cancelled', {
          note: 'Cancelled by the store',
          reason: input.reason || 'cancelled by staff',
        });
        if (!moved.ok) throw new Refused(transitionRefused(moved));
        const lines = await tx
          .select({ productId: ol.productId, quantity: ol.quantity })
          .from(ol)
          .where(and(eq(ol.tenantId, ctx.tenantId), eq(ol.orderId, orderId)));
        const back = await changeStock(
          tx,
          ctx,
          lines.map((l) => ({
            productId: l.productId,
            delta: l.quantity,
            reason: 'RELEASED' as const,
            orderId,
            note: 'Order cancelled',
          })),
        );
        // Products with orders are archived, never deleted: a line's product is always there.
        if (!back.ok) throw new Error(`stock of order ${orderId} not released: ${back.code} ${back.productId}`);
        await deps.audit.record(tx, ctx, {
          entity: 'order',
          entityId: orderId,
          action: 'cancel',
          before: { status: moved.from },
          after: { status: 'cancelled', reason: input.reason, released: lines },
        });
        deps.events.emitAfterCommit(tx, 'stock.changed', {
          tenantId: ctx.tenantId,
          productIds: [...new Set(lines.map((l) => l.productId))],
        });
        deps.events.emitAfterCommit(tx, 'order.transitioned', {
          tenantId: ctx.tenantId,
          orderId,
          from: moved.from,
          to: 'cancelled',
        });
        return moved.order;
      });
      if (!done.ok) return done;
      const cancelled = done.value;

      // The money: everything still held, for the lines and shipping not yet refunded.
      const before = await view(ctx, orderId);
      let refundNote = '';
      if (before.payment.refundable > 0) {
        const amount = before.payment.refundable;
        const lines = before.lines
          .filter((l) => l.quantity > l.refundedQuantity)
          .map((l) => ({ lineNo: l.lineNo, quantity: l.quantity - l.refundedQuantity }));
        const shipping = Math.min(before.payment.shippingRefundable, amount);
        const money = formatMoney(amount, cancelled.currency);
        try {
          const outcome = await deps.refunds.refund(ctx, orderId, {
            amount,
            lines,
            shipping,
            reason: input.reason || 'Order cancelled',
          });
          refundNote = outcome.ok ? ` ${money} refunded.` : ` The refund of ${money} was not made: ${outcome.message}`;
        } catch (err) {
          // The provider could not be reached: the refund waits as pending, with Retry on the page.
          if (!(err instanceof AppError) || err.statusCode !== 502) throw err;
          refundNote = ` The refund of ${money} is pending: the payment provider could not be reached.`;
        }
      }
      const after = await row(ctx, orderId);
      if (input.notify) {
        const { storeName, link } = await shopperMail(ctx, after);
        const refunded = after.refundedAmount - cancelled.refundedAmount;
        await deps.events.transaction(async (tx: Tx) => {
          await mailShopper(tx, ctx, after, 'Cancellation notice', {
            subject: `Your ${storeName} order ${orderId} has been cancelled`,
            text: [
              `Your order ${orderId} has been cancelled by ${storeName}.`,
              ...(input.reason ? ['', `Reason: ${input.reason}`] : []),
              '',
              refunded > 0
                ? `We have refunded ${formatMoney(refunded, after.currency)} to your ${after.paymentLabel}. It may take a few days to appear.`
                : after.capturedAmount > 0 && after.refundedAmount < after.capturedAmount
                  ? 'Your payment will be refunded; we will email you when it is.'
                  : 'You have not been charged.',
              '',
              `Your order: ${link}`,
            ].join('\n'),
          });
        });
      }
      return ok(await result(ctx, orderId, `Order ${orderId} cancelled; its stock is back.${refundNote}`));
    },

    /**
     * Money back, by lines, shipping and/or an amount (refunds in modules/orders refuses more than is
     * left). Refunds from here do not restock: goods come back through returns, which restock on receipt.
     */
    async refund(
      ctx: RequestContext,
      orderId: string,
      input: RefundRequest,
    ): Promise<Result<OrderActionResult, RefundRefusal>> {
      const { notify, ...request } = input;
      const outcome = await deps.refunds.refund(ctx, orderId, request);
      if (!outcome.ok) return refundRefused(outcome);
      const money = formatMoney(outcome.refund.amount, outcome.refund.currency);
      if (notify) {
        const order = await row(ctx, orderId);
        const { storeName, link } = await shopperMail(ctx, order);
        await deps.events.transaction(async (tx: Tx) => {
          await mailShopper(tx, ctx, order, 'Refund notice', {
            subject: `Your ${storeName} refund for order ${orderId}`,
            text: [
              `We have refunded ${money} for your order ${orderId} to your ${order.paymentLabel}.`,
              ...(outcome.refund.reason ? ['', `Reason: ${outcome.refund.reason}`] : []),
              '',
              'It may take a few days to appear on your statement.',
              '',
              `Your order: ${link}`,
            ].join('\n'),
          });
        });
      }
      return ok(await result(ctx, orderId, `Refunded ${money}.`));
    },

    /** Asks the provider again about a refund left pending. */
    async retry(
      ctx: RequestContext,
      orderId: string,
      refundId: string,
    ): Promise<Result<OrderActionResult, RefundRefusal>> {
      const outcome = await deps.refunds.retry(ctx, orderId, refundId);
      if (!outcome.ok) return refundRefused(outcome);
      return ok(
        await result(
          ctx,
          orderId,
          `Refund of ${formatMoney(outcome.refund.amount, outcome.refund.currency)} ${outcome.refund.status === 'succeeded' ? 'made' : 'still pending'}.`,
        ),
      );
    },

    /** The invoice as the shopper's (refunds included), for staff. */
    async invoice(ctx: RequestContext, orderId: string): Promise<Buffer> {
      await row(ctx, orderId);
      const order = await deps.orders.placed(ctx, orderId, false);
      const details = await deps.store.details(ctx, ctx.productStoreId);
      return deps.invoices.render(invoiceData(order, details, ctx.hostName));
    },
  };
}

export type OrderAdminService = ReturnType<typeof createOrderAdminService>;
