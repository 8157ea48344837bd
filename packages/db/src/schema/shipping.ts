// Tables of the shipping module: the owner's zones and the methods each zone offers (decision 115).
import { sql } from 'drizzle-orm';
import { check, foreignKey, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

/**
 * Where a store ships. `countries` null is the rest of the world (every country no other zone
 * names); `states` narrows the zone, for the countries they belong to, to those states or provinces.
 */
export const shippingZones = pgTable(
  'shipping_zones',
  {
    tenantId: text('tenant_id').notNull(),
    zoneId: text('zone_id').notNull(),
    name: text('name').notNull(),
    countries: text('countries').array(),
    states: text('states').array().notNull().default(sql`'{}'::text[]`),
    sequenceNum: integer('sequence_num').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.zoneId] }),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
  ],
);

/** One band of a rate table: up to this weight (grams) or discounted subtotal (minor units), this rate. */
export type ShippingBand = { upTo: number; rate: number };

/**
 * A zone's shipping methods. `flat`: one rate per order; `weight` / `subtotal`: the first band whose
 * `upTo` covers the cart's weight or discounted subtotal (the last band when above them all);
 * `pickup`: nothing to pay, the description says where and when. Method ids stay unique per store,
 * as orders and checkouts name them.
 */
export const shippingMethods = pgTable(
  'shipping_methods',
  {
    tenantId: text('tenant_id').notNull(),
    methodId: text('method_id').notNull(),
    zoneId: text('zone_id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    kind: text('kind', { enum: ['flat', 'weight', 'subtotal', 'pickup'] }).notNull(),
    flatRate: integer('flat_rate').notNull().default(0),
    bands: jsonb('bands').$type<ShippingBand[]>(),
    /** Free when the discounted subtotal reaches this; null: never free. */
    freeAbove: integer('free_above'),
    /** Business days before the parcel leaves, shown beside the delivery estimate. */
    handlingDays: integer('handling_days').notNull().default(0),
    sequenceNum: integer('sequence_num').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.methodId] }),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
    foreignKey({
      columns: [t.tenantId, t.zoneId],
      foreignColumns: [shippingZones.tenantId, shippingZones.zoneId],
    }).onDelete('cascade'),
    check(
      'shipping_methods_amounts_ck',
      sql`${t.flatRate} >= 0 AND coalesce(${t.freeAbove}, 0) >= 0 AND ${t.handlingDays} >= 0`,
    ),
  ],
);
