import {
  ACTIVITY_LIMIT,
  type ActivityEntry,
  type DashboardHome,
  LOW_STOCK_LIMIT,
  LOW_STOCK_THRESHOLD,
  type OrderStatus,
  orderStatuses,
  TO_FULFIL_LIMIT,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, count, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { RequestContext } from '../../lib/context';

const o = schema.orders;
const p = schema.products;
const u = schema.users;

/**
 * An order counts as a sale once it was paid: every status but `placed` (awaiting payment) and
 * `cancelled` (never paid). Refunded orders stay counted: these are gross sales, as Shopify's
 * home shows them; refunds belong to a finance report, not here.
 */
export const SOLD_STATUSES = orderStatuses.filter((s) => s !== 'placed' && s !== 'cancelled');
const TO_FULFIL: OrderStatus = 'paid';
const DAY_MS = 24 * 3600 * 1000;

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
}

/** The start of `now`'s UTC calendar day. A store time zone would replace UTC here (decision 021). */
function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
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

  /**
   * Today's and the last 30 days' sales in one pass over the 30 days' paid orders: the index
   * (tenant, status, placed_at) gives a range per paid status, no order outside the window is read.
   */
  async function sales(ctx: RequestContext, currency: string, now: Date) {
    const today = startOfUtcDay(now);
    const from = new Date(today.getTime() - 29 * DAY_MS);
    const inToday = sql`${o.placedAt} >= ${today.toISOString()}::timestamptz`;
    const [row] = await db
      .select({
        todayTotal: sql<string>`coalesce(sum(${o.grandTotal}) filter (where ${inToday}), 0)`,
        todayOrders: sql<string>`count(*) filter (where ${inToday})`,
        total: sql<string>`coalesce(sum(${o.grandTotal}), 0)`,
        orders: count(),
      })
      .from(o)
      .where(
        and(
          eq(o.tenantId, ctx.tenantId),
          inArray(o.status, SOLD_STATUSES),
          gte(o.placedAt, from),
          eq(o.currency, currency),
        ),
      );
    // Sums of integers come back as numeric text: exact, and far inside Number's safe range.
    return {
      today: { total: Number(row?.todayTotal ?? 0), orders: Number(row?.todayOrders ?? 0) },
      last30Days: { total: Number(row?.total ?? 0), orders: Number(row?.orders ?? 0) },
    };
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

  /** Out of stock first, then the fewest left; the index (tenant, stock) reads only these rows. */
  async function lowStock(ctx: RequestContext, threshold: number) {
    const rows = await db
      .select({ productId: p.productId, productName: p.productName, stock: p.stockQuantity })
      .from(p)
      .where(and(eq(p.tenantId, ctx.tenantId), lte(p.stockQuantity, threshold)))
      .orderBy(asc(p.stockQuantity), asc(p.productName), asc(p.productId))
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
    async home(ctx: RequestContext, opts: { lowStockThreshold?: number } = {}): Promise<DashboardHome> {
      const now = clock();
      const currency = await storeCurrency(ctx);
      const threshold =
        opts.lowStockThreshold ?? (deps.lowStockThreshold ? await deps.lowStockThreshold(ctx) : LOW_STOCK_THRESHOLD);
      const [sold, waiting, low, recent] = await Promise.all([
        sales(ctx, currency, now),
        toFulfil(ctx),
        lowStock(ctx, threshold),
        activity(ctx),
      ]);
      return { currency, asOf: now.toISOString(), sales: sold, toFulfil: waiting, lowStock: low, activity: recent };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
