import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

/**
 * The platform's operators (decision 101): accounts of the platform itself, belonging to no store.
 * They sign in on the platform's own host only; nothing of a store's (users, sessions) names them.
 */
export const operators = pgTable(
  'operators',
  {
    operatorId: text('operator_id').primaryKey(),
    /** Lower case; unique on the platform. */
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** argon2id, as store accounts' passwords. */
    passwordHash: text('password_hash').notNull(),
    /** The TOTP secret (base32, RFC 6238); null: no second factor, which only development accepts. */
    totpSecret: text('totp_secret'),
    /** The last 30-second step a code was accepted for: a code is never accepted twice. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    /** A disabled operator cannot sign in, and their sessions and tokens stop working. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('operators_email_uq').on(t.email)],
);

/** A signed-in operator's browser (the `psid` cookie of the platform host); only the hash is kept. */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    operatorId: text('operator_id')
      .notNull()
      .references(() => operators.operatorId, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Sessions also end after this long without a request (idle timeout). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('operator_sessions_operator_idx').on(t.operatorId)],
);

/** Between the password and the TOTP code: a challenge used once, for 5 minutes, 5 tries. */
export const operatorChallenges = pgTable('operator_challenges', {
  challengeHash: text('challenge_hash').primaryKey(),
  operatorId: text('operator_id')
    .notNull()
    .references(() => operators.operatorId, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  failures: integer('failures').notNull().default(0),
});

/** API tokens for scripts (`Authorization: Bearer opt_...`): shown once, kept as a hash. */
export const operatorTokens = pgTable(
  'operator_tokens',
  {
    tokenId: text('token_id').primaryKey(),
    operatorId: text('operator_id')
      .notNull()
      .references(() => operators.operatorId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The first characters of the secret, so a list can tell tokens apart. */
    prefix: text('prefix').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('operator_tokens_hash_uq').on(t.tokenHash)],
);

/**
 * The platform's own audit log: every operator action, who (operator or token), when, what, why.
 * Append-only like the stores' log (a trigger refuses UPDATE and DELETE).
 */
export const platformAuditLog = pgTable(
  'platform_audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    actorKind: text('actor_kind', { enum: ['operator', 'token', 'system'] }).notNull(),
    operatorId: text('operator_id'),
    actorEmail: text('actor_email'),
    tokenId: text('token_id'),
    tokenName: text('token_name'),
    action: text('action').notNull(),
    tenantId: text('tenant_id'),
    targetId: text('target_id'),
    reason: text('reason'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    requestId: text('request_id'),
    ip: text('ip'),
  },
  (t) => [
    index('platform_audit_time_idx').on(t.createdAt, t.id),
    index('platform_audit_tenant_idx').on(t.tenantId, t.createdAt, t.id),
    index('platform_audit_operator_idx').on(t.operatorId, t.createdAt, t.id),
  ],
);

/**
 * Each store's orders and sales of the last 30 days, for the operator's list to sort by without
 * summing every store's orders on each page: refreshed in one statement when older than 5 minutes.
 * Derived data: it can be emptied at any time.
 */
export const operatorStoreFigures = pgTable(
  'operator_store_figures',
  {
    tenantId: text('tenant_id')
      .primaryKey()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    orders30d: integer('orders_30d').notNull().default(0),
    /** Minor units of `currency` (the main store's). */
    sales30d: bigint('sales_30d', { mode: 'number' }).notNull().default(0),
    currency: text('currency').notNull(),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Keyset pages sort by the figure, then the tenant id.
    index('operator_store_figures_orders_idx').on(t.orders30d, t.tenantId),
    index('operator_store_figures_sales_idx').on(t.sales30d, t.tenantId),
  ],
);

/**
 * The owner's consent to the platform's support (1 to 72 hours); revoking sets `revoked_at`.
 * A grant is live while not revoked and not expired; at most one is live per store.
 */
export const supportGrants = pgTable(
  'support_grants',
  {
    grantId: text('grant_id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    grantedByUserId: text('granted_by_user_id').notNull(),
    grantedByEmail: text('granted_by_email').notNull(),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    index('support_grants_tenant_idx').on(t.tenantId, t.expiresAt),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('cascade'),
  ],
);

/**
 * An operator's session on a store's host under a grant. It starts as a one-time ticket (60 s) the
 * operator's browser brings to the store's host, which turns it into the session cookie; it works
 * only while its grant is live.
 */
export const supportSessions = pgTable(
  'support_sessions',
  {
    ticketHash: text('ticket_hash').primaryKey(),
    /** Set when the ticket is used: the hash of the store-host session token. */
    tokenHash: text('token_hash'),
    tenantId: text('tenant_id').notNull(),
    grantId: text('grant_id')
      .notNull()
      .references(() => supportGrants.grantId, { onDelete: 'cascade' }),
    operatorId: text('operator_id').notNull(),
    operatorEmail: text('operator_email').notNull(),
    /** The owner's account the session acts as (the store's admin). */
    ownerUserId: text('owner_user_id').notNull(),
    ticketExpiresAt: timestamp('ticket_expires_at', { withTimezone: true }).notNull(),
    enteredAt: timestamp('entered_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    reason: text('reason').notNull(),
    used: boolean('used').notNull().default(false),
  },
  (t) => [
    uniqueIndex('support_sessions_token_uq').on(t.tokenHash).where(sql`${t.tokenHash} IS NOT NULL`),
    index('support_sessions_grant_idx').on(t.grantId),
  ],
);
