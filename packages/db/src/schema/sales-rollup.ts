import { bigint, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The dashboard's daily sales rollups (decision 048): the analytics home reads a range's days from
 * these instead of aggregating its orders each time. They are derived data: `refreshSalesRollup`
 * (modules/dashboard) rebuilds the days whose orders changed since its watermark (orders.updated_at
 * moves with every status change and refund), so they are exact whenever the home is read, and can
 * be dropped and rebuilt at any time. Days are UTC calendar days of `placed_at`; only paid orders
 * (every status but placed and cancelled) count. Keys lead with the day: a rebuild deletes a day of
 * every currency, and a range read scans the range's days.
 */
const bigMoney = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);

/** A day's paid orders and their gross sales and refunds, per currency. */
export const salesDaily = pgTable(
  'sales_daily',
  {
    tenantId: text('tenant_id').notNull(),
    currency: text('currency').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    orders: integer('orders').notNull(),
    sales: bigMoney('sales'),
    refunded: bigMoney('refunded'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day, t.currency] })],
);

/** A day's units and revenue per product (order lines of the day's paid orders). */
export const productSalesDaily = pgTable(
  'product_sales_daily',
  {
    tenantId: text('tenant_id').notNull(),
    currency: text('currency').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    productId: text('product_id').notNull(),
    productName: text('product_name').notNull(),
    units: integer('units').notNull(),
    revenue: bigMoney('revenue'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day, t.currency, t.productId] })],
);

/** Who bought on a day: the account id, else the order's email in lower case. */
export const customerSalesDaily = pgTable(
  'customer_sales_daily',
  {
    tenantId: text('tenant_id').notNull(),
    currency: text('currency').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    customerKey: text('customer_key').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.day, t.currency, t.customerKey] }),
    index('customer_sales_daily_key_idx').on(t.tenantId, t.currency, t.customerKey, t.day),
  ],
);

/** Each customer's first day with a paid order: a period's new customers are a range count. */
export const customerFirstOrders = pgTable(
  'customer_first_orders',
  {
    tenantId: text('tenant_id').notNull(),
    currency: text('currency').notNull(),
    customerKey: text('customer_key').notNull(),
    firstDay: date('first_day', { mode: 'string' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.currency, t.customerKey] }),
    index('customer_first_orders_day_idx').on(t.tenantId, t.currency, t.firstDay),
  ],
);

/** Up to when each store's rollups have read order changes (null row: never built). */
export const salesRollupState = pgTable('sales_rollup_state', {
  tenantId: text('tenant_id').primaryKey(),
  readUpTo: timestamp('read_up_to', { withTimezone: true }).notNull(),
});
