import { foreignKey, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

/**
 * A merchant's self-serve sign-up on the platform host (decision 103), from the form to the store.
 * Not a tenant's row: it exists before any store does. Only hashes of the mailed link and of the
 * one-time sign-in link are kept; the password is kept as the argon2 hash the owner's account gets.
 */
export const signupRequests = pgTable(
  'signup_requests',
  {
    signupId: text('signup_id').primaryKey(),
    /** SHA-256 of the confirmation link's token (the mail's link). */
    tokenHash: text('token_hash').notNull(),
    /** Stored lower-cased. */
    email: text('email').notNull(),
    storeName: text('store_name').notNull(),
    subdomain: text('subdomain').notNull(),
    passwordHash: text('password_hash').notNull(),
    template: text('template', { enum: ['DEFAULT', 'ONE'] }).notNull(),
    starter: text('starter', { enum: ['empty', 'demo'] }).notNull(),
    /** The client address that asked, for the per-address limit. */
    ip: text('ip').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The mail's link works until then (24 hours). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The store it opened, once provisioned (the same transaction): a second confirm finds it. */
    tenantId: text('tenant_id'),
    provisionedAt: timestamp('provisioned_at', { withTimezone: true }),
    /** SHA-256 of the one-time link that signs the owner in on the new store's host. */
    handoffHash: text('handoff_hash'),
    handoffExpiresAt: timestamp('handoff_expires_at', { withTimezone: true }),
    handoffUsedAt: timestamp('handoff_used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('signup_requests_token_uq').on(t.tokenHash),
    uniqueIndex('signup_requests_handoff_uq').on(t.handoffHash),
    // The abuse limits count recent sign-ups per address and per email.
    index('signup_requests_ip_idx').on(t.ip, t.createdAt),
    index('signup_requests_email_idx').on(t.email, t.createdAt),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('set null'),
  ],
);

/**
 * A store's first-run checklist (decision 103): when the store opened, so "set the look" can tell
 * a change of the owner's from what sign-up wrote, and when the owner put the checklist away.
 * Stores without a row (the seeded ones, stores made before sign-up existed) show no checklist.
 */
export const storeSetup = pgTable(
  'store_setup',
  {
    tenantId: text('tenant_id').primaryKey(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    checklistDismissedAt: timestamp('checklist_dismissed_at', { withTimezone: true }),
  },
  (t) => [foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('cascade')],
);
