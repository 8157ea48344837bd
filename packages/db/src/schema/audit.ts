import { bigint, foreignKey, index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

/** One changed field of an audit entry: absent `before` on a create, absent `after` on a delete. */
export type AuditFieldChange = { before?: unknown; after?: unknown };

/**
 * Who changed what in a store, and how (decision 019): written in the same transaction as the change,
 * never updated or deleted (a trigger refuses both, migration audit_log_append_only), kept for good.
 * `id` orders entries of the same millisecond; `created_at` keeps milliseconds only, so a page
 * cursor made of the two round-trips through JavaScript exactly.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    tenantId: text('tenant_id').notNull(),
    id: bigint('id', { mode: 'number' }).generatedAlwaysAsIdentity(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** The actor as it was then: a renamed or deleted account does not rewrite history. */
    actorKind: text('actor_kind', { enum: ['staff', 'shopper', 'system', 'guest'] }).notNull(),
    /** The user id of staff and shoppers, the job's name for the system, null for a guest. */
    actorId: text('actor_id'),
    actorRole: text('actor_role'),
    actorName: text('actor_name'),
    actorEmail: text('actor_email'),
    /** Set when a platform operator acted in the store as support, with the owner's consent (decision 101). */
    supportOperatorId: text('support_operator_id'),
    supportOperatorEmail: text('support_operator_email'),
    /** What was changed: e.g. `product`, `store.settings`, `page`. */
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    /** e.g. `create`, `update`, `delete`, `publish`. */
    action: text('action').notNull(),
    /** The fields that changed, secrets masked. */
    changes: jsonb('changes').$type<Record<string, AuditFieldChange>>().notNull(),
    requestId: text('request_id'),
    ip: text('ip'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // One index per way the owner filters the log, each ending in the page order.
    index('audit_log_time_idx').on(t.tenantId, t.createdAt, t.id),
    index('audit_log_entity_idx').on(t.tenantId, t.entity, t.createdAt, t.id),
    index('audit_log_entity_id_idx').on(t.tenantId, t.entity, t.entityId, t.createdAt, t.id),
    index('audit_log_actor_idx').on(t.tenantId, t.actorId, t.createdAt, t.id),
    index('audit_log_action_idx').on(t.tenantId, t.action, t.createdAt, t.id),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
  ],
);
