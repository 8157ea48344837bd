import { randomUUID } from 'node:crypto';
import {
  CARRIERS,
  type CancelOrderRequest,
  carrierTrackingUrl,
  type FulfilRequest,
  formatMoney,
  type OrderActionResult,
  type RefundRequest,
} from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, eq } from 'drizzle-orm';
import type { RequestContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import type { EventBus } from '../../../lib/events/index';
import { ok, Refused, type Result, returnRefusals } from '../../../lib/result';
import type { AuditService } from '../../audit/index';
import type { MailQueue } from '../../mail/index';
import { changeStock } from '../../products/index';
import { type StoreService, storeIdentity } from '../../store/index';
import { type InvoiceRenderer, invoiceData } from '../invoice/index';
import { recordOrderEvent } from '../order-events';
import { type OrderRefunds, type RefundRefusal, refundRefused } from '../order-refund';
import { type TransitionRefusal, transitionOrder, transitionRefused } from '../order-transition';
import type { OrdersService } from '../orders.service';

import { createOrderReader } from './order-view';

const o = schema.orders;
const ol = schema.orderLines;
const _oh = schema.orderStatusHistory;
const of = schema.orderFulfillments;
const _oev = schema.orderEvents;
const _p = schema.products;
const _u = schema.users;

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

/**
 * The store side of one order: the page staff read, and its actions. Every action
 * is a transition of the orders state machine (`transitionOrder`, which refuses a move not in its
 * table: the action returns that 409 refusal) in one transaction with what it means (a shipment, stock back, a mail queued, the
 * timeline, the audit entry); `order.transitioned` is emitted after the commit. Money goes back only
 * through `refunds` (modules/orders), which never lets the refunds exceed the capture.
 */
export function createOrderAdminService(db: Db, deps: OrderAdminDeps) {
  const { row, view } = createOrderReader(db, deps);

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
          .select({ productId: ol.productId, variantId: ol.variantId, quantity: ol.quantity })
          .from(ol)
          .where(and(eq(ol.tenantId, ctx.tenantId), eq(ol.orderId, orderId)));
        const back = await changeStock(
          tx,
          ctx,
          lines.map((l) => ({
            variantId: l.variantId ?? l.productId,
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
      return deps.invoices.render(invoiceData(order, details, ctx.hostName, await deps.invoices.taxNumber(ctx)));
    },
  };
}

export type OrderAdminService = ReturnType<typeof createOrderAdminService>;
