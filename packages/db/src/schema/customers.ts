import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per customer of a store (decision 045): a shopper account (`u:<userId>`) or a guest who
 * ordered without one (`g:<lower email>`; a guest whose email has an account is that account). Kept
 * by triggers on orders and users (migration 0030), in the transaction of the write, so the
 * dashboard's list sorts and pages 20,000 customers by an index instead of aggregating every order.
 */
export const customerSummaries = pgTable(
  'customer_summaries',
  {
    tenantId: text('tenant_id').notNull(),
    customerKey: text('customer_key').notNull(),
    /** The account; null for a guest. */
    userId: text('user_id'),
    /** Lower-cased. */
    email: text('email').notNull(),
    /** The account's name, or the ship-to name of a guest's latest order. */
    name: text('name').notNull(),
    orderCount: integer('order_count').notNull(),
    /** Orders that were paid (captured > 0): the average order divides by these. */
    paidOrderCount: integer('paid_order_count').notNull(),
    /** Captured minus refunded over all orders, minor units. */
    amountSpent: bigint('amount_spent', { mode: 'number' }).notNull(),
    firstOrderAt: timestamp('first_order_at', { withTimezone: true }),
    lastOrderAt: timestamp('last_order_at', { withTimezone: true }),
    /** The account's creation, or a guest's first order. */
    customerSince: timestamp('customer_since', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.customerKey] }),
    // The list's three sorts, each with the key as tie-breaker (keyset paging).
    index('customer_summaries_last_order_idx').on(
      t.tenantId,
      sql`coalesce(${t.lastOrderAt}, '-infinity'::timestamptz)`,
      t.customerKey,
    ),
    index('customer_summaries_spent_idx').on(t.tenantId, t.amountSpent, t.customerKey),
    index('customer_summaries_name_idx').on(t.tenantId, sql`lower(${t.name})`, t.customerKey),
    index('customer_summaries_since_idx').on(t.tenantId, t.customerSince),
    index('customer_summaries_user_idx').on(t.tenantId, t.userId),
    // Search: part of a name or an email (trigram, from three characters).
    index('customer_summaries_search_idx').using('gin', sql`lower(${t.name} || ' ' || ${t.email}) gin_trgm_ops`),
  ],
);

/** Staff notes on a customer (account or guest), added and deleted in the dashboard, audited. */
export const customerNotes = pgTable(
  'customer_notes',
  {
    tenantId: text('tenant_id').notNull(),
    noteId: text('note_id').notNull(),
    customerKey: text('customer_key').notNull(),
    note: text('note').notNull(),
    authorId: text('author_id'),
    authorName: text('author_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.noteId] }),
    index('customer_notes_customer_idx').on(t.tenantId, t.customerKey, t.createdAt),
  ],
);
