// Tables of checkout (shipping methods and tax rates, read at checkout). Split out of one commerce.ts so each domain's tables sit in a file of their own.
import { sql } from 'drizzle-orm';
import { boolean, check, foreignKey, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

/**
 * A store's shipping methods. `flat`: one rate per order; `weight`: the first bracket of
 * `weightTable` whose `upToGrams` covers the cart. `countries` null means everywhere.
 */
export const shippingMethods = pgTable(
  'shipping_methods',
  {
    tenantId: text('tenant_id').notNull(),
    methodId: text('method_id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    kind: text('kind', { enum: ['flat', 'weight'] }).notNull(),
    countries: text('countries').array(),
    flatRate: integer('flat_rate').notNull().default(0),
    weightTable: jsonb('weight_table').$type<{ upToGrams: number; rate: number }[]>(),
    /** Free when the discounted subtotal reaches this; null: never free. */
    freeAbove: integer('free_above'),
    sequenceNum: integer('sequence_num').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.methodId] }),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
  ],
);

/** Sales tax by destination, in basis points; `regionGeoId` '' is the rate of the whole country. */
export const taxRates = pgTable(
  'tax_rates',
  {
    tenantId: text('tenant_id').notNull(),
    countryGeoId: text('country_geo_id').notNull(),
    regionGeoId: text('region_geo_id').notNull().default(''),
    label: text('label').notNull(),
    rateBasisPoints: integer('rate_basis_points').notNull(),
    /** Whether shipping is taxed too at this destination. */
    taxShipping: boolean('tax_shipping').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.countryGeoId, t.regionGeoId] }),
    check('tax_rates_rate_ck', sql`${t.rateBasisPoints} >= 0 AND ${t.rateBasisPoints} <= 10000`),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
  ],
);
