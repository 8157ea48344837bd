// Tables of the domains module (decision 121): a store's own domains and their DNS verification.
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { productStores } from './tenancy';

/**
 * pending: added, its records not seen yet; verified: the TXT token proves the owner holds the
 * domain, but it does not point at the platform yet; active: both records are right, the host is
 * bound to the store (it serves it and may get a certificate); failed: the last check found the
 * token missing or the domain taken, with the reason.
 */
export const DOMAIN_STATES = ['pending', 'verified', 'active', 'failed'] as const;
export type DomainState = (typeof DOMAIN_STATES)[number];

/**
 * A domain a store's owner added. Any store may add a domain that is only pending or failed
 * elsewhere (anyone can type a name); once one store proves it (verified or active), the partial
 * unique index keeps every other store from proving it too.
 */
export const storeDomains = pgTable(
  'store_domains',
  {
    tenantId: text('tenant_id').notNull(),
    productStoreId: text('product_store_id').notNull(),
    /** Lower case, no trailing dot, no port. */
    domain: text('domain').notNull(),
    state: text('state', { enum: DOMAIN_STATES }).notNull().default('pending'),
    /** The value the TXT record must hold; random, per store and domain. */
    token: text('token').notNull(),
    /** Why the last check did not make the domain active, in words the owner reads; '' when none. */
    reason: text('reason').notNull().default(''),
    /** The store's primary host: the others answer 301 to it; mirrors product_stores.canonical_host. */
    isPrimary: boolean('is_primary').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    /**
     * An active domain whose records a later check no longer found: since when. It keeps serving the
     * store through a grace period (a typo in DNS must not take a shop down at once), then is
     * disconnected; null while its records are right.
     */
    lapsedAt: timestamp('lapsed_at', { withTimezone: true }),
    /**
     * The apex this `www.` host was added with (example.com for www.example.com): it shares the apex's
     * token, whose TXT record proves both, and needs only its CNAME. Null for a domain the owner added.
     */
    aliasOf: text('alias_of'),
    /**
     * A domain not connected yet is checked again by itself on a backoff that starts here (when it was
     * added, or when the owner last pressed Check again): every 10 minutes for an hour, then hourly,
     * for 72 hours (decision 125, later).
     */
    checksFrom: timestamp('checks_from', { withTimezone: true }).notNull().defaultNow(),
    /** When that next check is due; null when none is (connected, or the 72 hours are over). */
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.domain] }),
    foreignKey({
      columns: [t.tenantId, t.productStoreId],
      foreignColumns: [productStores.tenantId, productStores.productStoreId],
    }),
    uniqueIndex('store_domains_proven_uq').on(t.domain).where(sql`${t.state} in ('verified', 'active')`),
    index('store_domains_domain_idx').on(t.domain),
    check('store_domains_primary_ck', sql`NOT ${t.isPrimary} OR ${t.state} = 'active'`),
  ],
);
