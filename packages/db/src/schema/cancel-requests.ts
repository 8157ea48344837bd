import { sql } from 'drizzle-orm';
import { check, foreignKey, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

/**
 * A tenant's request to cancel its store on the platform (decision 028): one row per tenant, whose
 * status only `transitionCancelRequest` writes (the owner-side seams, one writer per state).
 */
export const cancelRequests = pgTable(
  'cancel_requests',
  {
    tenantId: text('tenant_id').notNull(),
    status: text('status', { enum: ['none', 'requested', 'withdrawn', 'approved', 'declined', 'closed'] }).notNull(),
    reason: text('reason'),
    requestedBy: text('requested_by'),
    requestedAt: timestamp('requested_at', { withTimezone: true }),
    /** The platform's answer (approved or declined): when, and the reason the owner is shown. */
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decisionReason: text('decision_reason'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId] }),
    check(
      'cancel_requests_status_ck',
      sql`${t.status} IN ('none', 'requested', 'withdrawn', 'approved', 'declined', 'closed')`,
    ),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('cascade'),
  ],
);

/** Every transition of a tenant's cancel request: who, when, from, to and the reason given. */
export const cancelRequestHistory = pgTable(
  'cancel_request_history',
  {
    tenantId: text('tenant_id').notNull(),
    seq: integer('seq').notNull(),
    fromStatus: text('from_status').notNull(),
    status: text('status').notNull(),
    reason: text('reason'),
    actorKind: text('actor_kind').notNull(),
    actorId: text('actor_id'),
    requestId: text('request_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.seq] }),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('cascade'),
  ],
);
