import { randomBytes } from 'node:crypto';
import { formatMoney, type OrderRefund, type OrderStatus, type RefundRequest } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, eq, sql } from 'drizzle-orm';
import type { RequestContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import { type Refusal, refuse, refuseField } from '../../lib/result';
import type { AuditService } from '../audit/index';
import type {
  PaymentAccounts,
  PaymentProvider,
  PayPalAccount,
  RefundRequest as ProviderRefundRequest,
  RefundResult,
} from '../payments/index';
import { refundTaxShare } from '../tax/index';
import { recordOrderEvent } from './order-events';
import { canTransition } from './order-state';
import { historyActor, transitionOrder } from './order-transition';

const o = schema.orders;
const ol = schema.orderLines;
const rf = schema.orderRefunds;

type RefundRow = typeof rf.$inferSelect;

export interface OrderRefundDeps {
  /** The card provider checkout charged through (its `id` is the order's payment_provider). */
  provider: PaymentProvider;
  /**
   * The PayPal account each order was paid into (decision 049): a PayPal order is refunded through
   * that account, acting for the connected seller whose money it is.
   */
  paymentAccounts: Pick<PaymentAccounts, 'forOrder'>;
  audit: Pick<AuditService, 'record'>;
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
  /**
   * A provider of the store's own other than the card provider and PayPal (Stripe, decision 118),
   * by the order's payment_provider: it refunds through the store's account.
   */
  otherProvider?: (providerId: string) => OtherRefunder | undefined;
}

/** A store's own provider as refunds see it: the order's payment reference is in the request. */
export interface OtherRefunder {
  refund(tenantId: string, orderId: string, req: ProviderRefundRequest): Promise<RefundResult>;
}

/** What a refund asks; `returnId` links it to the return it settles (the returns module's). */
export type RefundInput = Omit<RefundRequest, 'notify'> & { returnId?: string | null };

export type RefundOutcome =
  | {
      ok: true;
      refund: OrderRefund;
      order: { orderId: string; status: OrderStatus; capturedAmount: number; refundedAmount: number };
      /** The order became `refunded` with this refund (all that was captured is back). */
      fullyRefunded: boolean;
    }
  | {
      ok: false;
      /**
       * NOT_REFUNDABLE: nothing was captured, or the order's payment cannot be refunded here.
       * REFUND_EXCEEDS_CAPTURED: more than is left (captured - refunded - pending refunds).
       * LINE_EXCEEDS / SHIPPING_EXCEEDS: a line or the shipping refunded more than it was bought for.
       * REFUND_DECLINED: the provider refused; nothing was refunded (the refund row says failed).
       * REFUND_IN_PAYPAL: the PayPal account that took the money cannot be reached from here any more
       * (the store's own PayPal app was removed): the staff refunds it in PayPal. Nothing was written.
       */
      code:
        | 'NOT_REFUNDABLE'
        | 'REFUND_EXCEEDS_CAPTURED'
        | 'LINE_EXCEEDS'
        | 'SHIPPING_EXCEEDS'
        | 'REFUND_DECLINED'
        | 'REFUND_IN_PAYPAL';
      message: string;
      /** The form field at fault, for the dashboard's inline error. */
      field?: string;
    };

/** Statuses with money that may still go back; `placed` has none, `refunded` has none left. */
const REFUNDABLE: readonly OrderStatus[] = ['paid', 'fulfilled', 'delivered', 'completed', 'cancelled'];

function newRefundId() {
  return `RF-${randomBytes(6).toString('hex').toUpperCase()}`;
}

export function refundView(r: RefundRow): OrderRefund {
  return {
    refundId: r.refundId,
    amount: r.amount,
    currency: r.currency,
    status: r.status,
    reason: r.reason,
    lines: r.lines,
    shippingAmount: r.shippingAmount,
    taxAmount: r.taxAmount,
    returnId: r.returnId,
    failure: r.failure,
    createdAt: r.createdAt.toISOString(),
  };
}

/**
 * A refused refund as an operation returns it: CONFLICT (409) when the order's payment cannot be
 * refunded here (nothing captured, paid into a PayPal account no longer connected), REFUND_DECLINED
 * (422) when the provider refused, REFUND_EXCEEDS_CAPTURED (422) for amounts, lines or shipping
 * beyond what is left; on its form field when it has one.
 */
export type RefundRefusal = Refusal<'CONFLICT' | 'REFUND_DECLINED' | 'REFUND_EXCEEDS_CAPTURED'>;

/** The refusal an operation returns for a refused refund (409 for a state problem, 422 for amounts). */
export function refundRefused(outcome: Extract<RefundOutcome, { ok: false }>): RefundRefusal {
  const status = outcome.code === 'NOT_REFUNDABLE' || outcome.code === 'REFUND_IN_PAYPAL' ? 409 : 422;
  const code =
    outcome.code === 'REFUND_DECLINED' ? 'REFUND_DECLINED' : status === 409 ? 'CONFLICT' : 'REFUND_EXCEEDS_CAPTURED';
  return outcome.field
    ? refuseField(status, code, outcome.field, outcome.message)
    : refuse(status, code, outcome.message);
}

/**
 * Refunds (checkout's named steps, for money going back): the one writer of
 * `orders.refunded_amount` and of order_refunds.
 *
 * 1. Reserve: under the order's row lock, check what is left (captured - refunded - refunds still
 *    pending) and what the lines and shipping may still take, and write the refund `pending`.
 * 2. Ask the provider that took the money (the card provider or PayPal), with the refund's id as the
 *    idempotency key: asking twice refunds once.
 * 3. Settle: `succeeded` adds the amount to the order (and moves it to `refunded` once everything is
 *    back, through the state machine); `failed` changes nothing else. Timeline entry, audit entry and
 *    the `order.refunded` event commit with it.
 *
 * A provider that cannot be reached (AppError 502) leaves the refund pending, still counted against
 * what is left so no second refund can overdraw the capture; `retry` asks again with the same key.
 */
export function createOrderRefunds(db: Db, deps: OrderRefundDeps) {
  /**
   * The PayPal account a PayPal order's money is in, looked up before anything is written; a refusal
   * when it cannot be reached from here any more. Other providers need no lookup.
   */
  async function paypalAccountOf(
    ctx: RequestContext,
    orderId: string,
  ): Promise<{ ok: true; account: PayPalAccount | null } | Extract<RefundOutcome, { ok: false }>> {
    const [order] = await db
      .select({ provider: o.paymentProvider, account: o.paymentAccount })
      .from(o)
      .where(and(eq(o.tenantId, ctx.tenantId), eq(o.orderId, orderId)));
    if (order?.provider !== 'paypal') return { ok: true, account: null };
    const account = await deps.paymentAccounts.forOrder(ctx.tenantId, order.account);
    if (account) return { ok: true, account };
    return {
      ok: false,
      code: 'REFUND_IN_PAYPAL',
      message: `Order ${orderId} was paid into a PayPal account this store is no longer connected to${order.account?.startsWith('app:') ? ` (PayPal app ${order.account.slice(4)})` : ''}: refund it in that PayPal account.`,
    };
  }

  async function askProvider(
    order: typeof o.$inferSelect,
    refund: RefundRow,
    paypal: PayPalAccount | null,
  ): Promise<RefundResult> {
    const ref = order.paymentRef ?? '';
    if (order.paymentProvider === 'paypal') {
      if (!paypal) {
        return { ok: false, reason: 'declined', message: 'PayPal cannot be reached from here: refund it in PayPal.' };
      }
      return paypal.client.refundCapture(ref, {
        amountMinor: refund.amount,
        currency: refund.currency,
        requestId: `${order.tenantId}:refund:${refund.refundId}`,
        invoiceId: order.orderId,
        ...(refund.reason ? { noteToPayer: refund.reason } : {}),
        // The seller's money: the platform refunds it acting for the seller (PayPal-Auth-Assertion).
        ...(paypal.merchantId ? { onBehalfOf: paypal.merchantId } : {}),
      });
    }
    const other = deps.otherProvider?.(order.paymentProvider);
    if (other) {
      return other.refund(order.tenantId, order.orderId, {
        chargeId: ref,
        amountMinor: refund.amount,
        currency: refund.currency,
        idempotencyKey: `${order.tenantId}:refund:${refund.refundId}`,
      });
    }
    return deps.provider.refund({
      chargeId: ref,
      amountMinor: refund.amount,
      currency: refund.currency,
      idempotencyKey: `${order.tenantId}:refund:${refund.refundId}`,
    });
  }

  async function reserve(
    ctx: RequestContext,
    orderId: string,
    input: RefundInput,
  ): Promise<{ ok: true; order: typeof o.$inferSelect; refund: RefundRow } | Extract<RefundOutcome, { ok: false }>> {
    return db.transaction(async (tx) => {
      const [order] = await tx
        .select()
        .from(o)
        .where(and(eq(o.tenantId, ctx.tenantId), eq(o.orderId, orderId)))
        .for('update');
      if (!order) throw AppError.notFound(`Order ${orderId} was not found.`);
      if (!REFUNDABLE.includes(order.status as OrderStatus) || order.capturedAmount === 0 || !order.paymentRef) {
        return {
          ok: false as const,
          code: 'NOT_REFUNDABLE' as const,
          message: `Order ${orderId} has no payment to refund (it is ${order.status}).`,
        };
      }
      if (
        order.paymentProvider !== 'paypal' &&
        order.paymentProvider !== deps.provider.id &&
        !deps.otherProvider?.(order.paymentProvider)
      ) {
        return {
          ok: false as const,
          code: 'NOT_REFUNDABLE' as const,
          message: `Order ${orderId} was paid through ${order.paymentProvider}, which this platform cannot refund.`,
        };
      }
      const earlier = await tx
        .select({
          amount: rf.amount,
          status: rf.status,
          lines: rf.lines,
          shippingAmount: rf.shippingAmount,
          taxAmount: rf.taxAmount,
        })
        .from(rf)
        .where(and(eq(rf.tenantId, ctx.tenantId), eq(rf.orderId, orderId)));
      const holding = earlier.filter((r) => r.status !== 'failed');
      const pending = holding.filter((r) => r.status === 'pending').reduce((s, r) => s + r.amount, 0);
      const left = order.capturedAmount - order.refundedAmount - pending;
      if (input.amount > left) {
        return {
          ok: false as const,
          code: 'REFUND_EXCEEDS_CAPTURED' as const,
          field: 'amount',
          message:
            left <= 0
              ? 'Nothing is left to refund on this order.'
              : `At most ${formatMoney(left, order.currency)} can still be refunded (${formatMoney(order.capturedAmount, order.currency)} was captured).`,
        };
      }
      const shippingLeft = order.shippingTotal - holding.reduce((s, r) => s + r.shippingAmount, 0);
      if (input.shipping > Math.max(0, shippingLeft)) {
        return {
          ok: false as const,
          code: 'SHIPPING_EXCEEDS' as const,
          field: 'shipping',
          message: `At most ${formatMoney(Math.max(0, shippingLeft), order.currency)} of shipping can still be refunded.`,
        };
      }
      const orderLines = await tx
        .select({ lineNo: ol.lineNo, quantity: ol.quantity, unitPrice: ol.unitPrice, productName: ol.productName })
        .from(ol)
        .where(and(eq(ol.tenantId, ctx.tenantId), eq(ol.orderId, orderId)));
      const refundedQty = new Map<number, number>();
      for (const r of holding)
        for (const l of r.lines) refundedQty.set(l.lineNo, (refundedQty.get(l.lineNo) ?? 0) + l.quantity);
      const asked = new Map<number, number>();
      for (const l of input.lines) asked.set(l.lineNo, (asked.get(l.lineNo) ?? 0) + l.quantity);
      const lines: RefundRow['lines'] = [];
      for (const [no, quantity] of asked) {
        const line = orderLines.find((l) => l.lineNo === no);
        if (!line) {
          return {
            ok: false as const,
            code: 'LINE_EXCEEDS' as const,
            field: 'lines',
            message: `Order ${orderId} has no line ${no}.`,
          };
        }
        const free = line.quantity - (refundedQty.get(no) ?? 0);
        if (quantity > free) {
          return {
            ok: false as const,
            code: 'LINE_EXCEEDS' as const,
            field: 'lines',
            message: `${line.productName}: ${free === 0 ? 'already refunded' : `at most ${free} more can be refunded`} (${line.quantity} bought).`,
          };
        }
        lines.push({ lineNo: no, quantity, amount: line.unitPrice * quantity });
      }
      const [refund] = await tx
        .insert(rf)
        .values({
          tenantId: ctx.tenantId,
          refundId: newRefundId(),
          orderId,
          amount: input.amount,
          currency: order.currency,
          status: 'pending',
          reason: input.reason,
          lines,
          shippingAmount: input.shipping,
          // The order's tax share of this refund; the refund that completes the order gives back the
          // rest of its tax, so a full refund returns exactly the tax charged (decision 116).
          taxAmount: refundTaxShare(order, input.amount, {
            amount: holding.reduce((s, r) => s + r.amount, 0),
            tax: holding.reduce((s, r) => s + r.taxAmount, 0),
          }),
          returnId: input.returnId ?? null,
          provider: order.paymentProvider,
          actorKind: historyActor(ctx).actorKind,
          actorId: historyActor(ctx).actorId,
        })
        .returning();
      return { ok: true as const, order, refund: refund as RefundRow };
    });
  }

  async function settle(
    ctx: RequestContext,
    orderId: string,
    refund: RefundRow,
    result: RefundResult,
  ): Promise<RefundOutcome> {
    return deps.events.transaction(async (tx: Tx) => {
      const [order] = await tx
        .select()
        .from(o)
        .where(and(eq(o.tenantId, ctx.tenantId), eq(o.orderId, orderId)))
        .for('update');
      if (!order) throw AppError.notFound(`Order ${orderId} was not found.`);
      // Settled once: a retry that finds the refund settled by another request reports it as it is.
      const [current] = await tx
        .select()
        .from(rf)
        .where(and(eq(rf.tenantId, ctx.tenantId), eq(rf.refundId, refund.refundId)));
      if (!current) throw AppError.notFound(`Refund ${refund.refundId} was not found.`);
      const money = formatMoney(refund.amount, refund.currency);
      if (current.status === 'pending') {
        const [updated] = await tx
          .update(rf)
          .set(
            result.ok
              ? { status: 'succeeded', providerRef: result.refundId, settledAt: new Date() }
              : { status: 'failed', failure: result.message, settledAt: new Date() },
          )
          .where(and(eq(rf.tenantId, ctx.tenantId), eq(rf.refundId, refund.refundId)))
          .returning();
        Object.assign(current, updated);
        if (!result.ok) {
          await recordOrderEvent(tx, ctx, orderId, {
            kind: 'refund',
            message: `Refund of ${money} failed: ${result.message}`,
            data: { refundId: refund.refundId, reason: result.reason },
          });
        } else {
          // The refunded amount lowers the customer's amount spent (customer_summaries), by the
          // triggers modules/customers/summaries.ts names, in this transaction.
          const [after] = await tx
            .update(o)
            .set({ refundedAmount: sql`${o.refundedAmount} + ${refund.amount}`, updatedAt: new Date() })
            .where(and(eq(o.tenantId, ctx.tenantId), eq(o.orderId, orderId)))
            .returning();
          Object.assign(order, after);
          await recordOrderEvent(tx, ctx, orderId, {
            kind: 'refund',
            message: `Refunded ${money}${refund.reason ? `: ${refund.reason}` : ''}`,
            data: { refundId: refund.refundId, providerRef: result.refundId, returnId: refund.returnId },
            visibleToShopper: true,
          });
          await deps.audit.record(tx, ctx, {
            entity: 'order',
            entityId: orderId,
            action: 'refund',
            before: { refundedAmount: order.refundedAmount - refund.amount },
            after: { refundedAmount: order.refundedAmount, refundId: refund.refundId },
          });
          if (order.refundedAmount >= order.capturedAmount && canTransition(order.status as OrderStatus, 'refunded')) {
            const moved = await transitionOrder(tx, ctx, orderId, 'refunded', {
              note: `Refunded ${formatMoney(order.capturedAmount, order.currency)}`,
              reason: refund.reason || 'refunded in full',
            });
            if (moved.ok) {
              order.status = moved.order.status;
              deps.events.emitAfterCommit(tx, 'order.transitioned', {
                tenantId: ctx.tenantId,
                orderId,
                from: moved.from,
                to: 'refunded',
              });
            }
          }
          deps.events.emitAfterCommit(tx, 'order.refunded', {
            tenantId: ctx.tenantId,
            orderId,
            refundId: refund.refundId,
          });
        }
      }
      if (current.status === 'failed') {
        return {
          ok: false as const,
          code: 'REFUND_DECLINED' as const,
          message: `The refund was not made: ${current.failure ?? 'the payment provider refused it'}.`,
        };
      }
      return {
        ok: true as const,
        refund: refundView(current),
        order: {
          orderId,
          status: order.status as OrderStatus,
          capturedAmount: order.capturedAmount,
          refundedAmount: order.refundedAmount,
        },
        fullyRefunded: order.status === 'refunded' || order.refundedAmount >= order.capturedAmount,
      };
    });
  }

  return {
    /**
     * Gives `input.amount` back to the shopper through the provider that took it. The caller has
     * checked the actor's permission (routes: `orders`). An order of another store is a 404; an
     * unreachable provider throws AppError 502 and leaves the refund pending (see `retry`).
     */
    async refund(ctx: RequestContext, orderId: string, input: RefundInput): Promise<RefundOutcome> {
      const paypal = await paypalAccountOf(ctx, orderId);
      if (!paypal.ok) return paypal;
      const reserved = await reserve(ctx, orderId, input);
      if (!reserved.ok) return reserved;
      const result = await askProvider(reserved.order, reserved.refund, paypal.account);
      return settle(ctx, orderId, reserved.refund, result);
    },

    /** Asks the provider again about a refund left pending (same idempotency key), and settles it. */
    async retry(ctx: RequestContext, orderId: string, refundId: string): Promise<RefundOutcome> {
      const [row] = await db
        .select({ refund: rf, order: o })
        .from(rf)
        .innerJoin(o, and(eq(o.tenantId, rf.tenantId), eq(o.orderId, rf.orderId)))
        .where(and(eq(rf.tenantId, ctx.tenantId), eq(rf.orderId, orderId), eq(rf.refundId, refundId)));
      if (!row) throw AppError.notFound(`Refund ${refundId} was not found.`);
      if (row.refund.status !== 'pending') return settle(ctx, orderId, row.refund, { ok: true, refundId: '' });
      const paypal = await paypalAccountOf(ctx, orderId);
      if (!paypal.ok) return paypal;
      const result = await askProvider(row.order, row.refund, paypal.account);
      return settle(ctx, orderId, row.refund, result);
    },

    /** The order's refunds, oldest first (the order page and the shopper's order view). */
    async list(ctx: RequestContext, orderId: string): Promise<OrderRefund[]> {
      const rows = await db
        .select()
        .from(rf)
        .where(and(eq(rf.tenantId, ctx.tenantId), eq(rf.orderId, orderId)))
        .orderBy(rf.createdAt, rf.refundId);
      return rows.map(refundView);
    },
  };
}

export type OrderRefunds = ReturnType<typeof createOrderRefunds>;
