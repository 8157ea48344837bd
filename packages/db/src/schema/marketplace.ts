import { sql } from 'drizzle-orm';
import { check, foreignKey, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

/**
 * A store's connection to a marketplace (Bonanza: the account's email, the booth name and the token
 * the marketplace gave, sealed with SECRETS_KEY like every secret an owner enters).
 */
export const marketplaceConnections = pgTable(
  'marketplace_connections',
  {
    tenantId: text('tenant_id').notNull(),
    marketplace: text('marketplace').notNull(),
    accountEmail: text('account_email').notNull(),
    boothName: text('booth_name').notNull(),
    tokenSealed: text('token_sealed'),
    /** connected | disconnected */
    status: text('status').notNull().default('connected'),
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text('updated_by'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.marketplace] }),
    check('marketplace_connections_status_check', sql`${t.status} IN ('connected', 'disconnected')`),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('cascade'),
  ],
);

/**
 * A store's product feed (Google Merchant Center format): the feed URL's token is an HMAC of the
 * store and `token_nonce` (a new nonce makes the old URL stop working), and what the last build and
 * fetch saw, for the owner's page.
 */
export const productFeeds = pgTable(
  'product_feeds',
  {
    tenantId: text('tenant_id').notNull(),
    feedId: text('feed_id').notNull(),
    tokenNonce: text('token_nonce').notNull(),
    productCount: integer('product_count').notNull().default(0),
    /** Items of the last build: one per sellable variant (product_count counts products). */
    itemCount: integer('item_count').notNull().default(0),
    /** Products left out of the last build and why: [{ productId, title, reasons }]. */
    skipped: jsonb('skipped').$type<{ productId: string; title: string; reasons: string[] }[]>().notNull().default([]),
    /** How many products the last build left out (`skipped` keeps the first of them). */
    skippedCount: integer('skipped_count').notNull().default(0),
    builtAt: timestamp('built_at', { withTimezone: true }),
    lastFetchedAt: timestamp('last_fetched_at', { withTimezone: true }),
    lastFetchedBy: text('last_fetched_by'),
    fetchCount: integer('fetch_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.feedId] }),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('cascade'),
  ],
);
