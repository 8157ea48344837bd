import { foreignKey, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

/** Shoppers and store owners. An account belongs to one tenant: the same email may exist in two stores. */
export const users = pgTable(
  'users',
  {
    tenantId: text('tenant_id').notNull(),
    userId: text('user_id').notNull(),
    /** Stored lower-cased; unique per tenant. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phone: text('phone'),
    role: text('role', { enum: ['admin', 'shopper'] })
      .notNull()
      .default('shopper'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId] }),
    uniqueIndex('users_email_uq').on(t.tenantId, t.email),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
  ],
);
