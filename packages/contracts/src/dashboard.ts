import { z } from 'zod';
import type { StaffPermission } from './staff-permissions';

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

/** Paid orders' takings over a period: the sum of their totals (minor units) and how many. */
export const salesFigureSchema = z.object({ total: z.number().int(), orders: z.number().int() });
export type SalesFigure = z.infer<typeof salesFigureSchema>;

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
  sales: z.object({
    /** Since 00:00 UTC today. */
    today: salesFigureSchema,
    /** The last 30 UTC calendar days, today included. */
    last30Days: salesFigureSchema,
  }),
  /** Paid orders waiting to be shipped: how many, and the newest few. */
  toFulfil: z.object({ count: z.number().int(), orders: z.array(orderToFulfilSchema) }),
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
  dashboardHome(): Promise<DashboardHome>;
  /** What the signed-in staff member may do (the owner: everything), for the menu; staff only. */
  dashboardPermissions(): Promise<StaffPermission[]>;
}
