// Tables of the tax module (decision 116): the store's rates by destination and its tax settings.
import { sql } from 'drizzle-orm';
import { boolean, check, foreignKey, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

/** The tax classes a product can be in; `exempt` is never taxed. */
export const TAX_CLASSES = ['standard', 'reduced', 'exempt'] as const;
export type TaxClass = (typeof TAX_CLASSES)[number];

/**
 * Sales tax by destination, in basis points; `regionGeoId` '' is the rate of the whole country.
 * `rateBasisPoints` is the standard class's rate; `reducedBasisPoints` the reduced class's, null when
 * the destination has no reduced rate (reduced goods then pay the standard rate).
 */
export const taxRates = pgTable(
  'tax_rates',
  {
    tenantId: text('tenant_id').notNull(),
    countryGeoId: text('country_geo_id').notNull(),
    regionGeoId: text('region_geo_id').notNull().default(''),
    label: text('label').notNull(),
    rateBasisPoints: integer('rate_basis_points').notNull(),
    reducedBasisPoints: integer('reduced_basis_points'),
    /** Whether shipping is taxed too at this destination (at the standard rate). */
    taxShipping: boolean('tax_shipping').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.countryGeoId, t.regionGeoId] }),
    check('tax_rates_rate_ck', sql`${t.rateBasisPoints} >= 0 AND ${t.rateBasisPoints} <= 10000`),
    check(
      'tax_rates_reduced_ck',
      sql`${t.reducedBasisPoints} IS NULL OR (${t.reducedBasisPoints} >= 0 AND ${t.reducedBasisPoints} <= 10000)`,
    ),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
  ],
);

/**
 * A store's tax settings; a store without a row has the defaults (prices without tax, no number).
 * `pricesIncludeTax`: the shelf price is what the shopper pays, tax inside it.
 */
export const storeTaxSettings = pgTable(
  'store_tax_settings',
  {
    tenantId: text('tenant_id').primaryKey(),
    pricesIncludeTax: boolean('prices_include_tax').notNull().default(false),
    /** The store's tax registration number, printed on invoices; '' for none. */
    taxNumber: text('tax_number').notNull().default(''),
  },
  (t) => [foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] })],
);
