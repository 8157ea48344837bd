// Tables of checkout: shipping methods (tax rates and settings moved to tax.ts, decision 116). Split out of one commerce.ts so each domain's tables sit in a file of their own.
import { foreignKey, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
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
