// Tables of checkout (PayPal's side of an order in progress). Split out of one commerce.ts so each domain's tables sit in a file of their own.
import { sql } from 'drizzle-orm';
import { foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

/**
 * A PayPal payment on its way: created when the shopper chooses PayPal, used when PayPal sends them
 * back approved. It keeps what the shopper asked for (address, shipping method, email) and the
 * amount PayPal was asked to take, so the capture can be checked against the order it pays for.
 * No stock is held while the shopper is at PayPal: the order is reserved at capture time.
 */
export const paypalCheckouts = pgTable(
  'paypal_checkouts',
  {
    tenantId: text('tenant_id').notNull(),
    paypalOrderId: text('paypal_order_id').notNull(),
    cartId: text('cart_id').notNull(),
    userId: text('user_id'),
    request: jsonb('request').$type<Record<string, unknown>>().notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** Set once the capture placed the order. */
    orderId: text('order_id'),
    /** The PayPal account the order was created in (as orders.payment_account). */
    paymentAccount: text('payment_account'),
    /**
     * open (the shopper is at PayPal), placed (the order exists), abandoned (never came back: closed
     * by the housekeeping job), flagged (PayPal has money without an order: a payment issue).
     */
    status: text('status').notNull().default('open'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.paypalOrderId] }),
    index('paypal_checkouts_created_idx').on(t.createdAt),
    // The housekeeping job's path: the open checkouts, oldest first.
    index('paypal_checkouts_open_idx').on(t.createdAt).where(sql`${t.status} = 'open'`),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('cascade'),
  ],
);
