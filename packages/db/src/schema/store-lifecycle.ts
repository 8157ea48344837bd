import { sql } from 'drizzle-orm';
import { check, foreignKey, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

const STATES = `'provisioning', 'active', 'suspended', 'closing', 'closed', 'purged'`;

/**
 * A store's place in its lifecycle (decision 099): one row per tenant, whose state only the
 * store-lifecycle module's `transition` writes, under a row lock, with a history row each time.
 * Every tenant has a row (the migration gave the existing ones `active`; the seed and sign-up write it).
 */
export const storeLifecycle = pgTable(
  'store_lifecycle',
  {
    tenantId: text('tenant_id').notNull(),
    state: text('state', {
      enum: ['provisioning', 'active', 'suspended', 'closing', 'closed', 'purged'],
    }).notNull(),
    /** For `closing`: when the sweep closes the store (the owner's export ends then). */
    closesAt: timestamp('closes_at', { withTimezone: true }),
    /** The last history row's seq: the next change writes seq + 1. */
    seq: integer('seq').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId] }),
    check('store_lifecycle_state_ck', sql.raw(`state IN (${STATES})`)),
    check('store_lifecycle_closes_ck', sql`${t.closesAt} IS NULL OR ${t.state} = 'closing'`),
    // The operator's list filters by state; the sweep looks for closing stores past their date.
    index('store_lifecycle_state_idx').on(t.state),
    index('store_lifecycle_closes_idx').on(t.closesAt).where(sql`${t.state} = 'closing'`),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('cascade'),
  ],
);

/** Every change of a store's state: from, to, who (operator, owner or the platform itself), when, why. */
export const storeLifecycleHistory = pgTable(
  'store_lifecycle_history',
  {
    tenantId: text('tenant_id').notNull(),
    seq: integer('seq').notNull(),
    /** Null for the first row (the store's creation). */
    fromState: text('from_state'),
    toState: text('to_state').notNull(),
    reason: text('reason').notNull(),
    /** `operator`, `owner` or `system`. */
    actorKind: text('actor_kind').notNull(),
    /** The operator's or owner's id, or the system actor's name. */
    actorId: text('actor_id').notNull(),
    /** The operator's email, kept as it was (a later rename changes nothing). */
    actorEmail: text('actor_email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.seq] }),
    check('store_lifecycle_history_to_ck', sql.raw(`to_state IN (${STATES})`)),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('cascade'),
  ],
);
