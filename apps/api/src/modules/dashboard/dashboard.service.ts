import {
  ACTIVITY_LIMIT,
  type ActivityEntry,
  type AnalyticsQuery,
  type CleanupRun,
  type DashboardHome,
  LOW_STOCK_LIMIT,
  LOW_STOCK_THRESHOLD,
  type OrderStatus,
  type OrdersCleanup,
  TO_FULFIL_LIMIT,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, count, desc, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import { hasPermission, type RequestContext } from '../../lib/context';
import { STUCK_ORDER_SWEEP, type SweepResult } from '../orders/index';
import { createAnalytics, resolveRange } from './analytics';

const o = schema.orders;
const p = schema.products;
const v = schema.productVariants;
const u = schema.users;

const TO_FULFIL: OrderStatus = 'paid';
const DAY_MS = 24 * 3600 * 1000;
/** How many of the clean-up's latest runs its page reads. */
const CLEANUP_RUNS = 200;

export interface DashboardDeps {
  /**
   * The store's latest audit entries, newest first (the audit module's `list`). Absent until that
   * module is wired in: the home then says the activity log is not available, rather than "nothing
   * happened".
   */
  recentActivity?: (ctx: RequestContext, limit: number) => Promise<ActivityEntry[] | null>;
  /** The clock; tests pin it. */
  now?: () => Date;
  /** The store's low-stock threshold (the inventory module's); LOW_STOCK_THRESHOLD when absent. */
  lowStockThreshold?: (ctx: RequestContext) => Promise<number>;
  /** Minutes an unpaid order waits before the clean-up releases it (the sweep's setting); default 30. */
  cleanupAfterMinutes?: number;
}

/** What the owner sees first: takings, orders waiting, stock running out, and who changed what. */
export function createDashboardService(db: Db, deps: DashboardDeps = {}) {
  const clock = deps.now ?? (() => new Date());

  async function storeCurrency(ctx: RequestContext): Promise<string> {
    const [row] = await db
      .select({ currency: schema.productStores.currencyUomId })
      .from(schema.productStores)
      .where(
        and(
          eq(schema.productStores.tenantId, ctx.tenantId),
          eq(schema.productStores.productStoreId, ctx.productStoreId),
        ),
      );
    return row?.currency ?? 'USD';
  }

  const analytics = createAnalytics(db);

  /** How many orders the clean-up released (cancelled or completed) in its runs since `since`. */
  async function released(ctx: RequestContext, since: Date) {
    const j = schema.jobs;
    const [row] = await db
      .select({
        n: sql<string>`coalesce(sum(jsonb_array_length(coalesce(${j.result}->'cancelled', '[]'::jsonb))
                                  + jsonb_array_length(coalesce(${j.result}->'paid', '[]'::jsonb))), 0)`,
      })
      .from(j)
      .where(
        and(
          eq(j.tenantId, ctx.tenantId),
          eq(j.type, STUCK_ORDER_SWEEP),
          gte(j.createdAt, since),
          eq(j.status, 'succeeded'),
        ),
      );
    return Number(row?.n ?? 0);
  }

  async function toFulfil(ctx: RequestContext) {
    const waiting = and(eq(o.tenantId, ctx.tenantId), eq(o.status, TO_FULFIL));
    const [[counted], rows] = await Promise.all([
      db.select({ n: count() }).from(o).where(waiting),
      db
        .select({
          orderId: o.orderId,
          email: o.email,
          firstName: u.firstName,
          lastName: u.lastName,
          shipToName: sql<string | null>`${o.shipTo}->>'toName'`,
          total: o.grandTotal,
          currency: o.currency,
          placedAt: o.placedAt,
        })
        .from(o)
        .leftJoin(u, and(eq(u.tenantId, o.tenantId), eq(u.userId, o.userId)))
        .where(waiting)
        .orderBy(desc(o.placedAt), desc(o.orderId))
        .limit(TO_FULFIL_LIMIT),
    ]);
    return {
      count: counted?.n ?? 0,
      orders: rows.map((r) => ({
        orderId: r.orderId,
        // The account's name; a guest's order has only the name it ships to.
        customerName: (r.firstName ? `${r.firstName} ${r.lastName ?? ''}`.trim() : r.shipToName) || r.email,
        email: r.email,
        total: r.total,
        currency: r.currency,
        placedAt: r.placedAt.toISOString(),
      })),
    };
  }

  /**
   * Variants at or below the threshold, out of stock first, then the fewest left (decision 112: a
   * product's variants run out one by one). Only enabled live variants: a disabled one is not sold,
   * a removed one is gone. product_variants_stock_idx (tenant_id, stock_quantity, variant_id) WHERE
   * removed_at IS NULL reads only these rows.
   */
  async function lowStock(ctx: RequestContext, threshold: number) {
    const rows = await db
      .select({
        productId: v.productId,
        productName: p.productName,
        stock: v.stockQuantity,
        variantId: v.variantId,
        variantTitle: v.title,
        sku: v.sku,
      })
      .from(v)
      .innerJoin(p, and(eq(p.tenantId, v.tenantId), eq(p.productId, v.productId)))
      .where(
        and(eq(v.tenantId, ctx.tenantId), isNull(v.removedAt), eq(v.enabled, true), lte(v.stockQuantity, threshold)),
      )
      .orderBy(asc(v.stockQuantity), asc(p.productName), asc(v.position), asc(v.variantId))
      .limit(LOW_STOCK_LIMIT);
    return { threshold, products: rows };
  }

  async function activity(ctx: RequestContext): Promise<DashboardHome['activity']> {
    // null: this staff member may not read the log (it needs the settings permission).
    const entries = deps.recentActivity ? await deps.recentActivity(ctx, ACTIVITY_LIMIT) : null;
    if (!entries) return { available: false, entries: [] };
    return {
      available: true,
      entries: entries.slice(0, ACTIVITY_LIMIT).map(({ changes, ...entry }) => ({
        ...entry,
        changedFields: Object.keys(changes ?? {}),
      })),
    };
  }

  return {
    /** The home page's figures; the caller has checked that `ctx` is staff of this store. */
    async home(
      ctx: RequestContext,
      query: AnalyticsQuery = { range: '30d' },
      opts: { lowStockThreshold?: number } = {},
    ): Promise<DashboardHome> {
      const now = clock();
      const range = resolveRange(query, now);
      // Sales and orders are the orders permission's (decision 041); other staff see stock and activity.
      const sales = hasPermission(ctx, 'orders');
      const [currency, threshold] = await Promise.all([
        storeCurrency(ctx),
        opts.lowStockThreshold ?? (deps.lowStockThreshold ? deps.lowStockThreshold(ctx) : LOW_STOCK_THRESHOLD),
      ]);
      const since = new Date(now.getTime() - 7 * DAY_MS);
      const [figures, waiting, low, recent, cleanup] = await Promise.all([
        sales ? analytics.figures(ctx.tenantId, currency, range) : null,
        sales ? toFulfil(ctx) : null,
        lowStock(ctx, threshold),
        activity(ctx),
        sales ? released(ctx, since) : null,
      ]);
      return {
        currency,
        asOf: now.toISOString(),
        range,
        analytics: figures,
        cleanup: cleanup === null ? null : { released: cleanup, since: since.toISOString() },
        toFulfil: waiting,
        lowStock: low,
        activity: recent,
      };
    },

    /**
     * The clean-up's runs for this store, newest first: what each cancelled, completed or left, and
     * why (the order history's reason for what it moved, the run's own words for what it left).
     */
    async cleanup(ctx: RequestContext): Promise<OrdersCleanup> {
      const j = schema.jobs;
      const jobs = await db
        .select({
          jobId: j.jobId,
          status: j.status,
          result: j.result,
          progress: j.progress,
          lastError: j.lastError,
          at: sql<Date>`coalesce(${j.finishedAt}, ${j.startedAt}, ${j.createdAt})`.mapWith((v) => new Date(v)),
        })
        .from(j)
        .where(
          and(eq(j.tenantId, ctx.tenantId), eq(j.type, STUCK_ORDER_SWEEP), inArray(j.status, ['succeeded', 'failed'])),
        )
        .orderBy(desc(j.createdAt), desc(j.jobId))
        .limit(CLEANUP_RUNS);
      const moved = jobs.flatMap((run) => {
        const r = run.result as Partial<SweepResult> | null;
        return [...(r?.cancelled ?? []), ...(r?.paid ?? [])];
      });
      const h = schema.orderStatusHistory;
      const reasons = new Map<string, string>();
      if (moved.length > 0) {
        const rows = await db
          .select({ orderId: h.orderId, status: h.status, reason: h.reason, note: h.note })
          .from(h)
          .where(and(eq(h.tenantId, ctx.tenantId), inArray(h.orderId, moved), eq(h.fromStatus, 'placed')));
        for (const row of rows) reasons.set(`${row.orderId}:${row.status}`, row.reason ?? row.note ?? '');
      }
      const runs: CleanupRun[] = [];
      let idleRuns = 0;
      for (const run of jobs) {
        const r = (run.result ?? {}) as Partial<SweepResult>;
        const errors = [
          ...((run.progress as { errors?: string[] } | null)?.errors ?? []),
          ...(run.status === 'failed' && run.lastError ? [run.lastError] : []),
        ];
        const orders: CleanupRun['orders'] = [
          ...(r.cancelled ?? []).map((orderId) => ({
            orderId,
            action: 'cancelled' as const,
            why: reasons.get(`${orderId}:cancelled`) || 'no payment arrived',
          })),
          ...(r.paid ?? []).map((orderId) => ({
            orderId,
            action: 'paid' as const,
            why: reasons.get(`${orderId}:paid`) || 'the payment was found',
          })),
          ...(r.left ?? []).map((x) => ({ orderId: x.orderId, action: 'left' as const, why: x.why })),
        ];
        if (orders.length === 0 && errors.length === 0) {
          idleRuns++;
          continue;
        }
        runs.push({ jobId: run.jobId, status: run.status, at: run.at.toISOString(), orders, errors });
      }
      return { afterMinutes: deps.cleanupAfterMinutes ?? 30, runs: runs.slice(0, 50), idleRuns };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
