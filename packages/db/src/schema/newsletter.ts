import { sql } from 'drizzle-orm';
import { check, foreignKey, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { productStores, tenants } from './tenancy';

/**
 * A store's newsletter subscribers (double opt-in). Only `confirmed` ones receive mail. The
 * confirmation token is kept as its SHA-256 hash only and cleared once used, so a database dump
 * holds no live link; the unsubscribe link is signed instead (it must work in every mail, forever).
 */
export const newsletterSubscribers = pgTable(
  'newsletter_subscribers',
  {
    tenantId: text('tenant_id').notNull(),
    subscriberId: text('subscriber_id').notNull(),
    productStoreId: text('product_store_id').notNull(),
    /** Lower-cased: one subscription per address and store. */
    email: text('email').notNull(),
    status: text('status', { enum: ['pending', 'confirmed', 'unsubscribed'] }).notNull(),
    confirmTokenHash: text('confirm_token_hash'),
    confirmExpiresAt: timestamp('confirm_expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.subscriberId] }),
    uniqueIndex('newsletter_subscribers_email_uq').on(t.tenantId, t.productStoreId, t.email),
    uniqueIndex('newsletter_subscribers_token_uq')
      .on(t.tenantId, t.confirmTokenHash)
      .where(sql`${t.confirmTokenHash} IS NOT NULL`),
    // The owner's list: newest first, keyset on (created_at, subscriber_id), optionally by status.
    index('newsletter_subscribers_list_idx').on(t.tenantId, t.productStoreId, t.createdAt, t.subscriberId),
    check('newsletter_subscribers_status_ck', sql`${t.status} IN ('pending', 'confirmed', 'unsubscribed')`),
    foreignKey({
      columns: [t.tenantId, t.productStoreId],
      foreignColumns: [productStores.tenantId, productStores.productStoreId],
    }).onDelete('cascade'),
  ],
);

/**
 * Subscribe requests, counted to rate-limit per client address and per email across app processes.
 * Rows older than the longest window are useless; the service deletes them as it goes.
 */
export const newsletterRequests = pgTable(
  'newsletter_requests',
  {
    tenantId: text('tenant_id').notNull(),
    requestId: text('request_id').notNull(),
    email: text('email').notNull(),
    clientIp: text('client_ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.requestId] }),
    index('newsletter_requests_ip_idx').on(t.tenantId, t.clientIp, t.createdAt),
    index('newsletter_requests_email_idx').on(t.tenantId, t.email, t.createdAt),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('cascade'),
  ],
);
