import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
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
    /** `admin`: the store's owner; `staff`: a member of the owner's team; `shopper`: a customer. */
    role: text('role', { enum: ['admin', 'staff', 'shopper'] })
      .notNull()
      .default('shopper'),
    /**
     * What a staff member may do (settings, catalog, orders, customers, payments): the grants are
     * data, checked on the server by the route table of decision 016. The owner holds every one.
     */
    permissions: text('permissions').array().notNull().default([]),
    /**
     * When the owner of the email proved it by the link of the welcome mail (decision 022); null
     * until then, and such an account cannot log in. Only self sign-up writes null: accounts made
     * any other way (the seed, staff added by an owner) are confirmed by the default.
     */
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }).defaultNow(),
    /**
     * The owner's answer to a customer account of a store that admits approved accounts only
     * (decision 105): a sign-up there starts `pending`; `declined` keeps the account but shows it
     * nothing. Every other account is `approved` by the default.
     */
    accessStatus: text('access_status', { enum: ['approved', 'pending', 'declined'] })
      .notNull()
      .default('approved'),
    /** When the owner approved or declined it; null for accounts nobody had to decide on. */
    accessDecidedAt: timestamp('access_decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId] }),
    uniqueIndex('users_email_uq').on(t.tenantId, t.email),
    // The orders list's search by an account's name (decision 042): part of "first last".
    index('users_name_trgm_idx').using('gin', sql`lower(${t.firstName} || ' ' || ${t.lastName}) gin_trgm_ops`),
    // The owner's list of accounts waiting or declined: a handful among a store's customers.
    index('users_access_requests_idx').on(t.tenantId, t.createdAt).where(sql`${t.accessStatus} <> 'approved'`),
    // Self-serve sign-up asks which stores an email already owns, across every store: without it, a
    // scan of every account of the platform on each public sign-up.
    index('users_owner_email_idx').on(t.email).where(sql`${t.role} = 'admin'`),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
  ],
);

/**
 * Login sessions. The browser holds a random 256-bit token; only its SHA-256 is stored, so a copy
 * of this table opens no account. A session belongs to one tenant: its token means nothing on
 * another store's host.
 */
export const sessions = pgTable(
  'sessions',
  {
    tenantId: text('tenant_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    userId: text('user_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.tokenHash] }),
    index('sessions_user_idx').on(t.tenantId, t.userId),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.userId] }).onDelete('cascade'),
  ],
);

/**
 * Attempts at login and the other abuse-prone account actions, by client address and by account:
 * the rate limits count them here, so they hold across app processes sharing one database.
 */
export const authAttempts = pgTable(
  'auth_attempts',
  {
    tenantId: text('tenant_id').notNull(),
    action: text('action', {
      enum: ['login', 'register', 'forgot', 'reset', 'confirm', 'confirm-resend', 'order-key'],
    }).notNull(),
    /** `ip:<address>`, `account:<email>` or `order:<orderId>`. */
    subject: text('subject').notNull(),
    succeeded: boolean('succeeded').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('auth_attempts_lookup_idx').on(t.tenantId, t.action, t.subject, t.createdAt)],
);

/**
 * Single-use password reset links: the mailed token's SHA-256, the user and store it is bound to,
 * an expiry an hour out, and when it was used.
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    tenantId: text('tenant_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    userId: text('user_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.tokenHash] }),
    index('password_resets_user_idx').on(t.tenantId, t.userId),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.userId] }).onDelete('cascade'),
  ],
);

/**
 * Single-use links that confirm a new account's email (decision 022), kept like reset links: the
 * mailed token's SHA-256 only, bound to the user and store, expiring, marked when used or superseded.
 */
export const emailConfirmations = pgTable(
  'email_confirmations',
  {
    tenantId: text('tenant_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    userId: text('user_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.tokenHash] }),
    index('email_confirmations_user_idx').on(t.tenantId, t.userId),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.userId] }).onDelete('cascade'),
  ],
);

/**
 * A shopper's postal addresses (the clients' contact mechanisms). One default for shipping and one for
 * billing at most, kept so by the service in one transaction.
 */
export const postalAddresses = pgTable(
  'postal_addresses',
  {
    tenantId: text('tenant_id').notNull(),
    contactMechId: text('contact_mech_id').notNull(),
    userId: text('user_id').notNull(),
    toName: text('to_name').notNull(),
    address1: text('address1').notNull(),
    address2: text('address2'),
    city: text('city').notNull(),
    postalCode: text('postal_code').notNull(),
    countryGeoId: text('country_geo_id').notNull(),
    stateProvinceGeoId: text('state_province_geo_id'),
    phone: text('phone'),
    isDefaultShipping: boolean('is_default_shipping').notNull().default(false),
    isDefaultBilling: boolean('is_default_billing').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.contactMechId] }),
    index('postal_addresses_user_idx').on(t.tenantId, t.userId),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.userId] }).onDelete('cascade'),
  ],
);

/**
 * Saved cards: the payment provider's token and what a shopper needs to recognise the card. The card
 * number and the security code never reach this table (or any other).
 */
export const savedCards = pgTable(
  'saved_cards',
  {
    tenantId: text('tenant_id').notNull(),
    paymentMethodId: text('payment_method_id').notNull(),
    userId: text('user_id').notNull(),
    provider: text('provider').notNull(),
    providerToken: text('provider_token').notNull(),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    nameOnCard: text('name_on_card').notNull(),
    billingContactMechId: text('billing_contact_mech_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.paymentMethodId] }),
    index('saved_cards_user_idx').on(t.tenantId, t.userId),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.userId] }).onDelete('cascade'),
  ],
);
