// Tables of the promotions module. Split out of one commerce.ts so each domain's tables sit in a file of their own.
import { sql } from 'drizzle-orm';
import { boolean, check, foreignKey, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

/** Promo codes: a percentage (1-100) or a fixed amount (minor units) off the subtotal. */
export const promoCodes = pgTable(
  'promo_codes',
  {
    tenantId: text('tenant_id').notNull(),
    /** Stored upper-cased; shoppers may type any case. */
    code: text('code').notNull(),
    kind: text('kind', { enum: ['percent', 'amount'] }).notNull(),
    value: integer('value').notNull(),
    description: text('description').notNull().default(''),
    minSubtotal: integer('min_subtotal').notNull().default(0),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    /** How many orders may use it in all; null: no limit. */
    usageLimit: integer('usage_limit'),
    /** How many orders one customer (account or guest email) may use it for; null: no limit. */
    perCustomerLimit: integer('per_customer_limit'),
    timesUsed: integer('times_used').notNull().default(0),
    active: boolean('active').notNull().default(true),
    /**
     * Set by the dashboard's writes (modules/promotions); the list shows the newest first. Kept to
     * the millisecond, as the list's cursor (a JavaScript date) carries it, so keyset steps are exact.
     */
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.code] }),
    index('promo_codes_created_idx').on(t.tenantId, t.createdAt.desc(), t.code),
    check(
      'promo_codes_value_ck',
      sql`${t.value} > 0 AND (${t.kind} <> 'percent' OR ${t.value} <= 100) AND ${t.timesUsed} >= 0`,
    ),
    check('promo_codes_dates_ck', sql`${t.startsAt} IS NULL OR ${t.endsAt} IS NULL OR ${t.startsAt} < ${t.endsAt}`),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
  ],
);

/** Which order used which code, by whom: per-customer limits count these. */
export const promoRedemptions = pgTable(
  'promo_redemptions',
  {
    tenantId: text('tenant_id').notNull(),
    orderId: text('order_id').notNull(),
    code: text('code').notNull(),
    /** `user:<id>` or `email:<address>`. */
    customerKey: text('customer_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.orderId] }),
    index('promo_redemptions_customer_idx').on(t.tenantId, t.code, t.customerKey),
    /** A code's orders, newest first (the dashboard's usage list). */
    index('promo_redemptions_code_created_idx').on(t.tenantId, t.code, t.createdAt.desc()),
    foreignKey({ columns: [t.tenantId, t.code], foreignColumns: [promoCodes.tenantId, promoCodes.code] }),
  ],
);
