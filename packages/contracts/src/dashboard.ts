import { z } from 'zod';
import { MAX_RANGE_DAYS, RANGE_PRESETS } from './analytics-ranges';
import type { StaffPermission } from './staff-permissions';
import { isoDay } from './strict-input';

export * from './analytics-ranges';

export const TOP_PRODUCTS_LIMIT = 8;

/**
 * The home's range as the address carries it (a GET form): a preset, or `custom` with `from` and
 * `to` (inclusive UTC days, at most a year apart). Refusals name the field.
 */
export const analyticsQuerySchema = z
  .object({
    range: z.enum(RANGE_PRESETS).default('30d'),
    from: isoDay('from').optional(),
    to: isoDay('to').optional(),
  })
  .superRefine((q, c) => {
    if (q.range !== 'custom') return;
    if (!q.from) c.addIssue({ code: 'custom', path: ['from'], message: 'is required for a custom range' });
    if (!q.to) c.addIssue({ code: 'custom', path: ['to'], message: 'is required for a custom range' });
    if (!q.from || !q.to) return;
    const days = (Date.parse(`${q.to}T00:00:00Z`) - Date.parse(`${q.from}T00:00:00Z`)) / 86_400_000 + 1;
    if (days < 1) c.addIssue({ code: 'custom', path: ['to'], message: 'must be on or after the start date' });
    else if (days > MAX_RANGE_DAYS)
      c.addIssue({
        code: 'custom',
        path: ['to'],
        message: `must be at most ${MAX_RANGE_DAYS} days after the start date`,
      });
  });
export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;

/** A range of whole UTC days: `from` inclusive, `to` exclusive (ISO instants); `days` long. */
export const analyticsRangeSchema = z.object({
  preset: z.enum(RANGE_PRESETS),
  label: z.string(),
  from: z.string(),
  to: z.string(),
  days: z.number().int(),
  previousFrom: z.string(),
  previousTo: z.string(),
  /** The chart's buckets: hours for one day, days up to 90 days, weeks (from `from`) beyond. */
  bucket: z.enum(['hour', 'day', 'week']),
});
export type AnalyticsRange = z.infer<typeof analyticsRangeSchema>;

/**
 * A figure and the same figure for the previous period. `change` is the change in percent, null
 * when the previous value is 0 (no previous data: a percentage of nothing would be a lie).
 */
export const comparedFigureSchema = z.object({
  value: z.number(),
  previous: z.number(),
  change: z.number().nullable(),
});
export type ComparedFigure = z.infer<typeof comparedFigureSchema>;

export const salesPointSchema = z.object({
  /** The bucket's start (ISO instant). */
  start: z.string(),
  orders: z.number().int(),
  /** Minor units. */
  sales: z.number().int(),
});
export type SalesPoint = z.infer<typeof salesPointSchema>;

export const topProductSchema = z.object({
  productId: z.string(),
  productName: z.string(),
  units: z.number().int(),
  /** Minor units: the lines' totals (before order-level discounts). */
  revenue: z.number().int(),
});
export type TopProduct = z.infer<typeof topProductSchema>;

/** The home's sales figures over the chosen range (decision 048). */
export const analyticsSchema = z.object({
  /** Gross sales of paid orders, minor units. */
  sales: comparedFigureSchema,
  orders: comparedFigureSchema,
  /** Minor units, rounded. */
  averageOrderValue: comparedFigureSchema,
  /** Share (0..1) of the period's customers who had a paid order before the period began. */
  returningCustomerRate: comparedFigureSchema,
  /** What has been refunded so far on the period's orders (not subtracted from sales). */
  refunded: z.number().int(),
  series: z.array(salesPointSchema),
  topProducts: z.array(topProductSchema),
});
export type Analytics = z.infer<typeof analyticsSchema>;

/** What one order came to in a run of the clean-up. */
export const cleanupOrderSchema = z.object({
  orderId: z.string(),
  action: z.enum(['cancelled', 'paid', 'left']),
  /** Why: the history's reason for a cancelled or completed order, the run's own for one left. */
  why: z.string(),
});
export const cleanupRunSchema = z.object({
  jobId: z.string(),
  status: z.string(),
  at: z.string(),
  orders: z.array(cleanupOrderSchema),
  errors: z.array(z.string()),
});
export type CleanupRun = z.infer<typeof cleanupRunSchema>;
export const ordersCleanupSchema = z.object({
  /** Minutes an unpaid order waits before the clean-up releases it. */
  afterMinutes: z.number().int(),
  /** Runs that did something, newest first (at most 50). */
  runs: z.array(cleanupRunSchema),
  /** Runs among the latest that found nothing to do. */
  idleRuns: z.number().int(),
});
export type OrdersCleanup = z.infer<typeof ordersCleanupSchema>;

/**
 * One entry of the store's audit log as the dashboard reads it (the audit module writes them).
 * `changes` holds the before/after of what was changed, keyed by field.
 */
export const activityEntrySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  /** Who acted: a person of the store (userId), or the platform (userId null, e.g. a job). */
  actor: z.object({ userId: z.string().nullable(), name: z.string() }),
  /** What kind of thing changed ('theme', 'product', 'order', ...) and which one. */
  entity: z.string(),
  entityId: z.string(),
  action: z.string(),
  changes: z.record(z.string(), z.unknown()).nullable(),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

/**
 * An activity line of the home page: the entry without its before/after values (which may be long
 * or sensitive), only the names of the fields that changed.
 */
export const homeActivitySchema = activityEntrySchema.omit({ changes: true }).extend({
  changedFields: z.array(z.string()),
});
export type HomeActivity = z.infer<typeof homeActivitySchema>;

export const orderToFulfilSchema = z.object({
  orderId: z.string(),
  customerName: z.string(),
  email: z.string(),
  /** Grand total in minor units of `currency`. */
  total: z.number().int(),
  currency: z.string(),
  placedAt: z.string(),
});
export type OrderToFulfil = z.infer<typeof orderToFulfilSchema>;

export const lowStockProductSchema = z.object({
  productId: z.string(),
  productName: z.string(),
  stock: z.number().int(),
  /** The variant running low (decision 112: the card lists enabled live variants), its title ('' for a default one) and SKU. */
  variantId: z.string(),
  variantTitle: z.string(),
  sku: z.string(),
});
export type LowStockProduct = z.infer<typeof lowStockProductSchema>;

/** How many products the home lists as low in stock, and the stock at or below which they count. */
export const LOW_STOCK_LIMIT = 8;
export const LOW_STOCK_THRESHOLD = 5;
export const TO_FULFIL_LIMIT = 5;
export const ACTIVITY_LIMIT = 8;

/** The dashboard's home: what happened, and what needs the owner now. */
export const dashboardHomeSchema = z.object({
  /** The store's currency: every amount below is in it (orders in another currency are not counted). */
  currency: z.string(),
  /** When the figures were taken; "today" is this instant's UTC calendar day. */
  asOf: z.string(),
  /** The range the figures are for, and the one before it they are compared with. */
  range: analyticsRangeSchema,
  /**
   * Sales, orders, average order value, returning customers, sales over time and top products.
   * null for staff without the orders permission: the home shows them the rest.
   */
  analytics: analyticsSchema.nullable(),
  /** What the unpaid-order clean-up released in the last 7 days; null without the orders permission. */
  cleanup: z.object({ released: z.number().int(), since: z.string() }).nullable(),
  /** Paid orders waiting to be shipped: how many, and the newest few; null without the orders permission. */
  toFulfil: z.object({ count: z.number().int(), orders: z.array(orderToFulfilSchema) }).nullable(),
  /** Products at or below `threshold` in stock, the emptiest first. */
  lowStock: z.object({ threshold: z.number().int(), products: z.array(lowStockProductSchema) }),
  /**
   * The latest audit entries. `available` is false while the store has no activity log to read,
   * which the page says instead of pretending nothing happened.
   */
  activity: z.object({ available: z.boolean(), entries: z.array(homeActivitySchema) }),
});
export type DashboardHome = z.infer<typeof dashboardHomeSchema>;

/** The dashboard's page functions, as React Router loaders call them (`context.api`). */
export interface DashboardPages {
  /** The home's figures and lists; staff only (a visitor gets 401, a shopper 403). */
  dashboardHome(query?: Record<string, string | undefined>): Promise<DashboardHomePage>;
  /** The unpaid-order clean-up's runs (what each released and why); the orders permission. */
  ordersCleanup(): Promise<OrdersCleanup>;
  /** What the signed-in staff member may do (the owner: everything), for the menu; staff only. */
  dashboardPermissions(): Promise<StaffPermission[]>;
}

/**
 * The home as its page reads it: the figures, what the form asked for (kept as typed), and the
 * refusal of a custom range beside its field (the figures are then the default range's).
 */
export type DashboardHomePage = DashboardHome & {
  query: { range: string; from: string; to: string };
  rangeError: { field: 'range' | 'from' | 'to'; message: string } | null;
};
