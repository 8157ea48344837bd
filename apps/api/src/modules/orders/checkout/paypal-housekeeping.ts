import { formatMoney } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, eq, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { RequestContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import type { JobRunner, JobTools } from '../../jobs/index';
import type { PaymentAccounts, PayPalClient } from '../../payments/index';

const ppc = schema.paypalCheckouts;
const o = schema.orders;

export const PAYPAL_HOUSEKEEPING = 'checkout.paypal-housekeeping';

/**
 * A PayPal checkout still open this long is abandoned or lost (decision 052): PayPal lets a payer
 * approve an order for 3 hours and lets the merchant capture an approved one for 3 days, so after
 * 3 days and a margin nothing can still turn an open checkout into a paid order by the normal route.
 */
export const PAYPAL_CHECKOUT_STALE_HOURS = 73;

export interface PayPalHousekeepingDeps {
  jobs: JobRunner;
  paymentAccounts: Pick<PaymentAccounts, 'forOrder'>;
  /** The one writer of payment issues (modules/payments, issues/): money PayPal took with no order. */
  issues: CaptureWithoutOrderSink;
  log: FastifyBaseLogger;
  /** How old an open checkout must be to be looked at; default PAYPAL_CHECKOUT_STALE_HOURS. */
  afterHours?: number;
  /** The nightly run, UTC; default "03:30" (after the sweep of stuck orders). */
  dailyAtUtc?: string;
  /** The run after a process starts; default two minutes; null: none. */
  startupDelayMs?: number | null;
}

/**
 * What housekeeping needs of the payment issues: to raise one. The payments module's issues service
 * fits this shape; the checkout module passes it in when it registers the job.
 */
export interface CaptureWithoutOrderSink {
  raise(
    tx: Tx,
    ctx: RequestContext,
    issue: {
      kind: 'capture_without_order';
      paypalOrderId: string;
      captureId: string;
      amount: number;
      currency: string;
      message: string;
    },
  ): Promise<void>;
}

export interface HousekeepingResult {
  /** PayPal orders never paid: closed as abandoned. */
  abandoned: string[];
  /** PayPal orders PayPal took money for without an order here: flagged, with a payment issue. */
  flagged: string[];
  /** Closed because an order exists for them after all (the sweep of stuck orders placed it). */
  placed: string[];
  /** Left open for the next run, and why (PayPal could not be asked, a capture still pending). */
  left: { paypalOrderId: string; why: string }[];
}

type Outcome = { action: 'abandoned' | 'flagged' | 'placed' } | { action: 'left'; why: string };

/**
 * Housekeeping of PayPal checkouts (paypal_checkouts rows the shopper started and never came back
 * from), as a job per store: nightly and shortly after a start, like the sweep of stuck orders.
 * Each stale open checkout is settled by what PayPal says of it, through the account it was created
 * in: not paid -> `abandoned`; captured but no order here -> `flagged` and a `payment_issues` row
 * (capture_without_order) for the owner to refund or fulfil by hand, never silently lost; PayPal
 * unreachable -> left open for the next run. Every row moves only from `open`, so two runs agree.
 */
export function registerPayPalHousekeeping(db: Db, deps: PayPalHousekeepingDeps) {
  const afterHours = deps.afterHours ?? PAYPAL_CHECKOUT_STALE_HOURS;

  /** Moves an open checkout to its end state; false when another run (or a late capture) came first. */
  async function close(ctx: RequestContext, paypalOrderId: string, status: 'abandoned' | 'placed', orderId?: string) {
    const moved = await db
      .update(ppc)
      .set({ status, closedAt: new Date(), ...(orderId ? { orderId } : {}) })
      .where(and(eq(ppc.tenantId, ctx.tenantId), eq(ppc.paypalOrderId, paypalOrderId), eq(ppc.status, 'open')))
      .returning({ id: ppc.paypalOrderId });
    return moved.length > 0;
  }

  async function flag(
    ctx: RequestContext,
    row: typeof ppc.$inferSelect,
    capture: { id: string; amountMinor: number; currency: string },
  ): Promise<boolean> {
    return db.transaction(async (tx) => {
      const moved = await tx
        .update(ppc)
        .set({ status: 'flagged', closedAt: new Date() })
        .where(and(eq(ppc.tenantId, ctx.tenantId), eq(ppc.paypalOrderId, row.paypalOrderId), eq(ppc.status, 'open')))
        .returning({ id: ppc.paypalOrderId });
      if (moved.length === 0) return false;
      const email = typeof row.request.email === 'string' ? row.request.email : 'the shopper';
      // The webhook may have raised the same capture's issue first: one issue per capture.
      await deps.issues.raise(tx, ctx, {
        kind: 'capture_without_order',
        paypalOrderId: row.paypalOrderId,
        captureId: capture.id,
        amount: capture.amountMinor,
        currency: capture.currency,
        message:
          `PayPal took ${formatMoney(capture.amountMinor, capture.currency)} from ${email} ` +
          `(PayPal order ${row.paypalOrderId}, capture ${capture.id}) but no order was placed here. ` +
          'Refund the payment in PayPal, or contact the shopper and place the order for them.',
      });
      return true;
    });
  }

  async function settle(ctx: RequestContext, row: typeof ppc.$inferSelect): Promise<Outcome> {
    // An order placed for it after all (the stuck-order sweep completes a captured one): just close it.
    const [placed] = await db
      .select({ orderId: o.orderId })
      .from(o)
      .where(and(eq(o.tenantId, ctx.tenantId), eq(o.idempotencyKey, row.idempotencyKey)));
    if (placed) {
      return (await close(ctx, row.paypalOrderId, 'placed', placed.orderId))
        ? { action: 'placed' }
        : { action: 'left', why: 'no longer open' };
    }
    const account = await deps.paymentAccounts.forOrder(ctx.tenantId, row.paymentAccount);
    // Without the account PayPal cannot be asked: closing blind could hide money PayPal took.
    if (!account) return { action: 'left', why: "the store's PayPal account cannot be reached" };
    let at: Awaited<ReturnType<PayPalClient['getOrder']>> | null;
    try {
      at = await account.client.getOrder(row.paypalOrderId);
    } catch (err) {
      // PayPal no longer knows it (an unapproved order expires): nothing was paid.
      if (err instanceof AppError && err.statusCode === 404) at = null;
      else throw err;
    }
    const capture = at?.capture;
    if (capture?.status === 'COMPLETED' || capture?.status === 'PENDING') {
      if (capture.status === 'PENDING') return { action: 'left', why: 'PayPal holds the capture for review' };
      return (await flag(ctx, row, capture)) ? { action: 'flagged' } : { action: 'left', why: 'no longer open' };
    }
    return (await close(ctx, row.paypalOrderId, 'abandoned'))
      ? { action: 'abandoned' }
      : { action: 'left', why: 'no longer open' };
  }

  async function run(ctx: RequestContext, tools: JobTools): Promise<HousekeepingResult> {
    const cutoff = new Date(Date.now() - afterHours * 3_600_000);
    const stale = await db
      .select()
      .from(ppc)
      .where(and(eq(ppc.tenantId, ctx.tenantId), eq(ppc.status, 'open'), lt(ppc.createdAt, cutoff)))
      .orderBy(asc(ppc.createdAt))
      .limit(500);
    const result: HousekeepingResult = { abandoned: [], flagged: [], placed: [], left: [] };
    const errors: string[] = [];
    await tools.progress({ done: 0, total: stale.length });
    for (const [i, row] of stale.entries()) {
      if (tools.signal.aborted) break;
      try {
        const r = await settle(ctx, row);
        if (r.action === 'left') result.left.push({ paypalOrderId: row.paypalOrderId, why: r.why });
        else result[r.action].push(row.paypalOrderId);
      } catch (err) {
        // PayPal down: this checkout stays open for the next run; the others go on.
        deps.log.warn({ err, paypalOrderId: row.paypalOrderId }, 'PayPal checkout not settled');
        errors.push(`${row.paypalOrderId}: ${err instanceof Error ? err.message : String(err)}`);
      }
      await tools.progress({ done: i + 1, total: stale.length, ...(errors.length ? { errors } : {}) });
    }
    return result;
  }

  deps.jobs.register(PAYPAL_HOUSEKEEPING, (job, tools) => run(job.ctx, tools), { maxAttempts: 3 });
  deps.jobs.recurring(PAYPAL_HOUSEKEEPING, {
    dailyAtUtc: deps.dailyAtUtc ?? '03:30',
    startupDelayMs: deps.startupDelayMs === undefined ? 120_000 : deps.startupDelayMs,
  });
}
