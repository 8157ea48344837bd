// Tables of the returns domain (returns, return admin). Split out of one commerce.ts so each domain's tables sit in a file of their own.
import { sql } from 'drizzle-orm';
import { check, foreignKey, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { orderLines, orders } from './orders';

/**
 * Return requests (RMA). A shopper asks to send back delivered lines of an order; the request has a
 * state machine of its own (the returns module) and never covers more than was bought, counting the
 * quantities of earlier requests that were not rejected.
 */
export const returnRequests = pgTable(
  'return_requests',
  {
    tenantId: text('tenant_id').notNull(),
    returnId: text('return_id').notNull(),
    orderId: text('order_id').notNull(),
    userId: text('user_id'),
    status: text('status').notNull(),
    reason: text('reason').notNull(),
    note: text('note'),
    /**
     * Set while a refund for the return is with the payment provider (the request's id): a second
     * refund of the same return is refused until the first has settled (migration 0030).
     */
    refundClaim: text('refund_claim'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.returnId] }),
    index('return_requests_order_idx').on(t.tenantId, t.orderId),
    index('return_requests_user_idx').on(t.tenantId, t.userId, t.createdAt),
    // The dashboard's list: newest first, keyset, all or by status (migration 0030).
    index('return_requests_created_idx').on(t.tenantId, t.createdAt, t.returnId),
    index('return_requests_status_idx').on(t.tenantId, t.status, t.createdAt, t.returnId),
    foreignKey({ columns: [t.tenantId, t.orderId], foreignColumns: [orders.tenantId, orders.orderId] }).onDelete(
      'cascade',
    ),
  ],
);

export const returnLines = pgTable(
  'return_lines',
  {
    tenantId: text('tenant_id').notNull(),
    returnId: text('return_id').notNull(),
    orderId: text('order_id').notNull(),
    /** The order line this returns. */
    lineNo: integer('line_no').notNull(),
    quantity: integer('quantity').notNull(),
    /** How many of them the store put back in stock when the parcel arrived (RETURNED movements). */
    restockedQuantity: integer('restocked_quantity').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.returnId, t.lineNo] }),
    index('return_lines_order_idx').on(t.tenantId, t.orderId, t.lineNo),
    check('return_lines_quantity_ck', sql`${t.quantity} > 0`),
    check('return_lines_restocked_ck', sql`${t.restockedQuantity} >= 0 AND ${t.restockedQuantity} <= ${t.quantity}`),
    foreignKey({
      columns: [t.tenantId, t.returnId],
      foreignColumns: [returnRequests.tenantId, returnRequests.returnId],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.tenantId, t.orderId, t.lineNo],
      foreignColumns: [orderLines.tenantId, orderLines.orderId, orderLines.lineNo],
    }).onDelete('cascade'),
  ],
);

/** Every status a return request went through. */
export const returnStatusHistory = pgTable(
  'return_status_history',
  {
    tenantId: text('tenant_id').notNull(),
    returnId: text('return_id').notNull(),
    seq: integer('seq').notNull(),
    status: text('status').notNull(),
    /** Shown to the shopper: the store's instructions, the reason for a rejection. */
    note: text('note'),
    /** For the store only ("restocked 2 of 3"). */
    reason: text('reason'),
    /** The money a `refunded` step gave back (minor units, the order's currency). */
    amount: integer('amount'),
    /** Who acted: shopper, staff or system (the RequestContext's actor); null on older rows. */
    actorKind: text('actor_kind'),
    actorId: text('actor_id'),
    actorName: text('actor_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.returnId, t.seq] }),
    foreignKey({
      columns: [t.tenantId, t.returnId],
      foreignColumns: [returnRequests.tenantId, returnRequests.returnId],
    }).onDelete('cascade'),
  ],
);
