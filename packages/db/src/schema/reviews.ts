import { sql } from 'drizzle-orm';
import {
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { products } from './products';

// The reviews domain's table (decision 110).

/**
 * Shopper reviews; the product page shows their summary. A review written through the store carries
 * the shopper's id and the order that proves the purchase (one review per shopper and product);
 * seeded reviews have neither.
 */
export const productReviews = pgTable(
  'product_reviews',
  {
    tenantId: text('tenant_id').notNull(),
    reviewId: text('review_id').notNull(),
    productId: text('product_id').notNull(),
    userId: text('user_id'),
    orderId: text('order_id'),
    authorName: text('author_name').notNull(),
    rating: integer('rating').notNull(),
    title: text('title'),
    body: text('body'),
    /** HIDDEN: the store took it off the product page (decision 047); REJECTED is kept for old rows. */
    status: text('status', { enum: ['PUBLISHED', 'PENDING', 'HIDDEN', 'REJECTED'] })
      .notNull()
      .default('PUBLISHED'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The store's public answer, shown under the review; who wrote it as the staff member's id and name. */
    replyBody: text('reply_body'),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    repliedBy: text('replied_by'),
    repliedByName: text('replied_by_name'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.reviewId] }),
    index('product_reviews_product_idx').on(t.tenantId, t.productId, t.status),
    // The owner's list: the store's reviews newest first, keyset on (created_at, review_id).
    index('product_reviews_newest_idx').on(t.tenantId, t.createdAt, t.reviewId),
    uniqueIndex('product_reviews_user_uq').on(t.tenantId, t.productId, t.userId).where(sql`${t.userId} IS NOT NULL`),
    check('product_reviews_rating_ck', sql`${t.rating} BETWEEN 1 AND 5`),
    foreignKey({
      columns: [t.tenantId, t.productId],
      foreignColumns: [products.tenantId, products.productId],
    }).onDelete('cascade'),
  ],
);
