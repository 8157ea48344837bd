// Tables of the wishlist module. Split out of one commerce.ts so each domain's tables sit in a file of their own.
import { foreignKey, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { products } from './products';
import { users } from './users';

/** A shopper's wishlist: one row per product. */
export const wishlistItems = pgTable(
  'wishlist_items',
  {
    tenantId: text('tenant_id').notNull(),
    userId: text('user_id').notNull(),
    productId: text('product_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId, t.productId] }),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.userId] }).onDelete('cascade'),
    foreignKey({
      columns: [t.tenantId, t.productId],
      foreignColumns: [products.tenantId, products.productId],
    }).onDelete('cascade'),
  ],
);
