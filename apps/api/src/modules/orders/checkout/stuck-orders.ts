import { type Db, schema, type Tx } from '@app/db';
import { and, asc, eq, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { RequestContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import type { Emitter } from '../../../lib/events/index';
import type { JobRunner, JobTools } from '../../jobs/index';
import type { PaymentAccounts, PayPalClient } from '../../payments/index';
import { transitionOrder } from '../order-transition';
import type { OrdersService } from '../orders.service';
import type { CheckoutService } from './checkout.service';
import { giveBackReservation } from './reserve-order';

const o = schema.orders;
const ol = schema.orderLines;
const ppc = schema.paypalCheckouts;

export const STUCK_ORDER_SWEEP = 'orders.sweep-stuck';

export interface StuckOrderSweepDeps {
  jobs: JobRunner;
  checkout: CheckoutService;
  orders: OrdersService;
  /** The PayPal account each order was paid into (decision 049): the sweep asks that one. */
  paymentAccounts: Pick<PaymentAccounts, 'forOrder'>;
  log: FastifyBaseLogger;
  /** An order still placed this long after it was placed has lost its payment step; default 30. */
  afterMinutes?: number;
  /** The nightly run, UTC; default "03:00". */
  dailyAtUtc?: string;
  /** The run after a process starts; default a minute, so a crash's orders are settled soon after. */
  startupDelayMs?: number | null;
  events: Emitter;
}

/** What the sweep did with one order, as the job's result lists it. */
type Outcome =
  | { orderId: string; action: 'cancelled' }
  | { orderId: string; action: 'paid'; captureId?: string }
  | { orderId: string; action: 'left'; why: string };

export interface SweepResult {
  cancelled: string[];
  paid: string[];
  left: { orderId: string; why: string }[];
}

/**
 * Makes a placed PayPal order paid with the capture PayPal reports, in the caller's transaction:
 * the sweep (PayPal answered its look-up) and the webhook (PayPal told us) settle an order the same
 * way. False when the order is no longer placed (its checkout or the other one got there first).
 */
export async function markPaidByPayPal(
  tx: Tx,
  ctx: RequestContext,
  input: { orderId: string; paypalOrderId: string; captureId: string; amountMinor: number; reason: string },
): Promise<boolean> {
  const moved = await transitionOrder(tx, ctx, input.orderId, 'paid', {
    from: 'placed',
    reason: input.reason,
    note: 'Payment received (PayPal)',
  });
  if (!moved.ok) return false;
  // The captured amount reaches the customer's amount spent (customer_summaries) by the triggers
  // modules/customers/summaries.ts names, in this transaction.
  await tx
    .update(o)
    .set({ paymentRef: input.captureId, paymentLabel: 'PayPal', capturedAmount: input.amountMinor })
    .where(and(eq(o.tenantId, ctx.tenantId), eq(o.orderId, input.orderId)));
  await tx
    .update(ppc)
    .set({ orderId: input.orderId, status: 'placed', closedAt: new Date() })
    .where(and(eq(ppc.tenantId, ctx.tenantId), eq(ppc.paypalOrderId, input.paypalOrderId)));
  return true;
}

/**
 * The receipt of an order paid without its checkout finishing: the shopper never saw a confirmation
 * page, so the mail is their news that the order went through. A mail failure never fails the caller
 * (the order is paid either way, and a retry would not mail again).
 */
export async function mailPaidReceipt(
  deps: { orders: OrdersService; checkout: CheckoutService; log: FastifyBaseLogger },
  ctx: RequestContext,
  order: { orderId: string; userId: string | null },
): Promise<void> {
  try {
    const view = await deps.orders.placed(ctx, order.orderId, !order.userId);
    await deps.checkout.sendConfirmation(ctx, view);
  } catch (err) {
    deps.log.error({ err, orderId: order.orderId }, 'order mail not sent');
  }
}

/**
 * The sweep of orders stuck in `placed` (decision 010's crash between reserve and confirm): a job per
 * store, nightly and shortly after a start. A PayPal order is settled by what PayPal says: captured
 * means the order is completed (paid, the capture recorded, the receipt mailed); otherwise it is
 * cancelled and its stock and promo use go back, as for a card order, which has no payment to look up.
 * Each order moves only from `placed` under its row lock, so running the sweep twice, or next to a
 * checkout that finally finishes, settles each order once.
 */
export function registerStuckOrderSweep(db: Db, deps: StuckOrderSweepDeps) {
  const afterMinutes = deps.afterMinutes ?? 30;

  async function cancel(ctx: RequestContext, orderId: string): Promise<Outcome> {
    const lines = await db.transaction(async (tx) => {
      const moved = await transitionOrder(tx, ctx, orderId, 'cancelled', {
        from: 'placed',
        reason: `abandoned: no payment after ${afterMinutes} minutes`,
        note: 'Cancelled: the payment did not go through',
      });
      if (!moved.ok) return null;
      const taken = await tx
        .select({ productId: ol.productId, variantId: ol.variantId, quantity: ol.quantity })
        .from(ol)
        .where(and(eq(ol.tenantId, ctx.tenantId), eq(ol.orderId, orderId)));
      await giveBackReservation(tx, ctx, orderId, taken);
      return taken;
    });
    if (!lines) return { orderId, action: 'left', why: 'no longer placed' };
    deps.events.emit('stock.changed', { tenantId: ctx.tenantId, productIds: lines.map((l) => l.productId) });
    deps.events.emit('order.transitioned', { tenantId: ctx.tenantId, orderId, from: 'placed', to: 'cancelled' });
    return { orderId, action: 'cancelled' };
  }

  async function complete(
    ctx: RequestContext,
    order: { orderId: string; userId: string | null },
    paypalOrderId: string,
    capture: { id: string; amountMinor: number },
  ): Promise<Outcome> {
    const captureId = capture.id;
    const done = await db.transaction((tx) =>
      markPaidByPayPal(tx, ctx, {
        orderId: order.orderId,
        paypalOrderId,
        captureId,
        amountMinor: capture.amountMinor,
        reason: `payment found at PayPal by the sweep (capture ${captureId})`,
      }),
    );
    if (!done) return { orderId: order.orderId, action: 'left', why: 'no longer placed' };
    deps.events.emit('order.transitioned', {
      tenantId: ctx.tenantId,
      orderId: order.orderId,
      from: 'placed',
      to: 'paid',
    });
    await mailPaidReceipt(deps, ctx, order);
    return { orderId: order.orderId, action: 'paid', captureId };
  }

  /**
   * A Stripe order: its session is expired at Stripe before the order is cancelled, so the hosted
   * page a shopper kept open cannot take money for an order whose stock is back on sale.
   */
  async function settleStripe(ctx: RequestContext, orderId: string): Promise<Outcome> {
    const became = await deps.checkout.expireStripeOrder(ctx, orderId);
    if (became === 'paid') return { orderId, action: 'paid' };
    if (became === 'unpaid') return { orderId, action: 'left', why: 'Stripe has the payment under way' };
    if (became === 'no-account') {
      return { orderId, action: 'left', why: "The store's Stripe account is not connected: Stripe cannot be asked" };
    }
    return cancel(ctx, orderId);
  }

  async function settle(ctx: RequestContext, order: typeof o.$inferSelect): Promise<Outcome> {
    if (order.paymentProvider === 'stripe') return settleStripe(ctx, order.orderId);
    if (order.paymentProvider !== 'paypal') return cancel(ctx, order.orderId);
    // A PayPal order is placed under the key `paypal:<PayPal order id>` (createPayPalOrder).
    const paypalOrderId = order.idempotencyKey.startsWith('paypal:') ? order.idempotencyKey.slice(7) : '';
    const [pending] = await db
      .select({ paypalOrderId: ppc.paypalOrderId })
      .from(ppc)
      .where(
        and(
          eq(ppc.tenantId, ctx.tenantId),
          eq(ppc.paypalOrderId, paypalOrderId),
          eq(ppc.idempotencyKey, order.idempotencyKey),
        ),
      );
    if (!pending) return cancel(ctx, order.orderId);
    // Without the account PayPal cannot be asked; cancelling blind could cancel a paid order.
    const account = await deps.paymentAccounts.forOrder(ctx.tenantId, order.paymentAccount);
    if (!account) {
      return { orderId: order.orderId, action: 'left', why: "The store's PayPal account cannot be reached" };
    }
    let at: Awaited<ReturnType<PayPalClient['getOrder']>>;
    try {
      at = await account.client.getOrder(pending.paypalOrderId);
    } catch (err) {
      // PayPal does not know the order: nothing was paid. Anything else (an outage) waits for the next run.
      if (err instanceof AppError && err.statusCode === 404) return cancel(ctx, order.orderId);
      throw err;
    }
    const capture = at.capture;
    if (at.status === 'COMPLETED' && capture?.status === 'COMPLETED') {
      if (capture.amountMinor !== order.grandTotal || capture.currency !== order.currency) {
        deps.log.error(
          { orderId: order.orderId, paypalOrderId: at.id, captured: capture.amountMinor, expected: order.grandTotal },
          'PayPal captured another amount than the stuck order total; settle it by hand',
        );
        return { orderId: order.orderId, action: 'left', why: 'PayPal captured another amount than the order total' };
      }
      return complete(ctx, order, at.id, capture);
    }
    if (capture?.status === 'PENDING') {
      return { orderId: order.orderId, action: 'left', why: 'PayPal holds the capture for review' };
    }
    return cancel(ctx, order.orderId);
  }

  async function sweep(ctx: RequestContext, tools: JobTools): Promise<SweepResult> {
    const cutoff = new Date(Date.now() - afterMinutes * 60_000);
    const stuck = await db
      .select()
      .from(o)
      .where(and(eq(o.tenantId, ctx.tenantId), eq(o.status, 'placed'), lt(o.placedAt, cutoff)))
      .orderBy(asc(o.placedAt));
    const result: SweepResult = { cancelled: [], paid: [], left: [] };
    const errors: string[] = [];
    await tools.progress({ done: 0, total: stuck.length });
    for (const [i, order] of stuck.entries()) {
      if (tools.signal.aborted) break;
      try {
        const r = await settle(ctx, order);
        if (r.action === 'cancelled') result.cancelled.push(r.orderId);
        else if (r.action === 'paid') result.paid.push(r.orderId);
        else result.left.push({ orderId: r.orderId, why: r.why });
      } catch (err) {
        // One order's trouble (PayPal down) does not stop the others; it stays placed for the next run.
        deps.log.warn({ err, orderId: order.orderId }, 'stuck order not settled');
        errors.push(`${order.orderId}: ${err instanceof Error ? err.message : String(err)}`);
      }
      await tools.progress({ done: i + 1, total: stuck.length, ...(errors.length ? { errors } : {}) });
    }
    return result;
  }

  deps.jobs.register(STUCK_ORDER_SWEEP, (job, tools) => sweep(job.ctx, tools), { maxAttempts: 3 });
  deps.jobs.recurring(STUCK_ORDER_SWEEP, {
    dailyAtUtc: deps.dailyAtUtc ?? '03:00',
    startupDelayMs: deps.startupDelayMs === undefined ? 60_000 : deps.startupDelayMs,
  });
}
