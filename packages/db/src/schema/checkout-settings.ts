// Tables of checkout (shipping methods and tax rates, read at checkout). Split out of one commerce.ts so each domain's tables sit in a file of their own.
import { sql } from 'drizzle-orm';
import { boolean, check, foreignKey, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

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
