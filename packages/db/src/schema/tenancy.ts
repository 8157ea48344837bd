import { foreignKey, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** A store owner's account on the platform. Everything a store owns hangs off `tenant_id`. */
export const tenants = pgTable(
  'tenants',
  {
    tenantId: text('tenant_id').primaryKey(),
    name: text('name').notNull(),
    /**
     * Who may see the tenant's stores (decision 105): everyone; any signed-in account of the store;
     * accounts the owner approved; accounts the owner invited. The clients' `isWs2Public` is
     * `accessMode === 'public'`.
     */
    accessMode: text('access_mode', { enum: ['public', 'login_required', 'approved_only', 'invitation_only'] })
      .notNull()
      .default('public'),
    erpUrl: text('erp_url'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The operator's stores list pages newest first (decision 101).
  (t) => [index('tenants_created_idx').on(t.createdAt, t.tenantId)],
);

export const productStores = pgTable(
  'product_stores',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId),
    productStoreId: text('product_store_id').notNull(),
    storeName: text('store_name').notNull(),
    currencyUomId: text('currency_uom_id').notNull().default('USD'),
    /** The host used in links we send out (mail, sitemap); never taken from a request. */
    canonicalHost: text('canonical_host').notNull(),
    /** A product at or below this many units is "low stock" (dashboard, filters); 0 turns it off. */
    lowStockThreshold: integer('low_stock_threshold').notNull().default(5),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.productStoreId] }),
    // Store ids are how clients name a store (9000, 9001, 9002): unique on the platform.
    uniqueIndex('product_stores_store_id_uq').on(t.productStoreId),
  ],
);

export const storeHosts = pgTable(
  'store_hosts',
  {
    hostName: text('host_name').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    productStoreId: text('product_store_id').notNull(),
  },
  (t) => [
    index('store_hosts_tenant_idx').on(t.tenantId, t.productStoreId),
    foreignKey({
      columns: [t.tenantId, t.productStoreId],
      foreignColumns: [productStores.tenantId, productStores.productStoreId],
    }),
  ],
);
