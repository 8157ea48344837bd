import { sql } from 'drizzle-orm';
import { check, foreignKey, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

/**
 * A store's account with a parcel carrier (UPS, FedEx) whose live rates checkout lists beside the
 * store's table rates (decision 117). The client secret is sealed (lib/secret-box.ts, bound to the
 * tenant and carrier) and never leaves the server; the account number is kept for the rate request
 * and shown only by its last four characters. `services` are the carrier's service codes the owner
 * offers (UPS "03", FedEx "FEDEX_GROUND"); none: the account is connected but offers nothing.
 */
export const carrierAccounts = pgTable(
  'carrier_accounts',
  {
    tenantId: text('tenant_id').notNull(),
    /** ups | fedex */
    carrier: text('carrier').notNull(),
    clientId: text('client_id').notNull(),
    clientSecretSealed: text('client_secret_sealed').notNull(),
    accountNumber: text('account_number').notNull(),
    services: text('services').array().notNull().default([]),
    /** none | percent | fixed: the store's markup on the carrier's amount. */
    markupKind: text('markup_kind').notNull().default('none'),
    /** Whole percent for `percent`, minor units for `fixed`. */
    markupValue: integer('markup_value').notNull().default(0),
    /** The box every order ships in, in whole inches (the parcel's weight is the cart's). */
    boxLengthIn: integer('box_length_in').notNull().default(12),
    boxWidthIn: integer('box_width_in').notNull().default(9),
    boxHeightIn: integer('box_height_in').notNull().default(6),
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.carrier] }),
    check('carrier_accounts_carrier_check', sql`${t.carrier} IN ('ups', 'fedex')`),
    check(
      'carrier_accounts_markup_check',
      sql`${t.markupKind} IN ('none', 'percent', 'fixed') AND ${t.markupValue} >= 0`,
    ),
    check(
      'carrier_accounts_box_check',
      sql`${t.boxLengthIn} BETWEEN 1 AND 108 AND ${t.boxWidthIn} BETWEEN 1 AND 108 AND ${t.boxHeightIn} BETWEEN 1 AND 108`,
    ),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }).onDelete('cascade'),
  ],
);
