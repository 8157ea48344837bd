import { sql } from 'drizzle-orm';
import { foreignKey, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';
import { users } from './users';

/**
 * Saved views of the dashboard's orders list (decision 042): a staff member's named filter sets,
 * shown as tabs above the list. Personal: another staff member never sees them. `filters` holds the
 * list's filter fields as the query string has them (contracts orderListFilterSchema).
 */
export const orderViews = pgTable(
  'order_views',
  {
    tenantId: text('tenant_id').notNull(),
    viewId: text('view_id').notNull(),
    userId: text('user_id').notNull(),
    name: text('name').notNull(),
    filters: jsonb('filters').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.viewId] }),
    // One name per staff member (case-insensitive): two tabs with one name could not be told apart.
    uniqueIndex('order_views_name_uq').on(t.tenantId, t.userId, sql`lower(${t.name})`),
    index('order_views_user_idx').on(t.tenantId, t.userId, t.createdAt),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.userId] }).onDelete('cascade'),
  ],
);
