import { foreignKey, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

/**
 * An owner's invitation to shop at a store that admits customers by invitation only (decision 105).
 * The mailed link's token is kept only as its SHA-256, with an expiry; accepting it sets the
 * password and makes (or approves) the customer's account. Accepted or revoked ones stay as history.
 */
export const customerInvitations = pgTable(
  'customer_invitations',
  {
    tenantId: text('tenant_id').notNull(),
    invitationId: text('invitation_id').notNull(),
    /** Stored lower-cased, like users.email. */
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** Who sent it (user id); a snapshot, not a key: the audit log has the rest. */
    invitedBy: text('invited_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.invitationId] }),
    index('customer_invitations_token_idx').on(t.tenantId, t.tokenHash),
    index('customer_invitations_email_idx').on(t.tenantId, t.email),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
  ],
);
