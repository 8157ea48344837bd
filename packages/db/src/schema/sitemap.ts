import { foreignKey, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { productStores } from './tenancy';

export interface SitemapUrlCounts {
  total: number;
  products: number;
  categories: number;
  pages: number;
}

/**
 * The generated sitemap files of each store (decision 028): `sitemap.xml` (a urlset, or an index
 * once a store has more than 50,000 URLs) and `sitemap-<n>.xml` parts. Kept in the database, not
 * in media storage: they are small text, replaced whole in one transaction by each generation, and
 * served per host from the same place on every app process.
 */
export const sitemapFiles = pgTable(
  'sitemap_files',
  {
    tenantId: text('tenant_id').notNull(),
    productStoreId: text('product_store_id').notNull(),
    fileName: text('file_name').notNull(),
    /** The store's canonical host the URLs were written with. */
    hostName: text('host_name').notNull(),
    body: text('body').notNull(),
    /** URLs in this file (for the index: all URLs of the store). */
    urlCount: integer('url_count').notNull(),
    /** On `sitemap.xml` only: the store's URLs by kind, for the settings page. */
    urlCounts: jsonb('url_counts').$type<SitemapUrlCounts>(),
    generatedAt: timestamp('generated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.productStoreId, t.fileName] }),
    foreignKey({
      columns: [t.tenantId, t.productStoreId],
      foreignColumns: [productStores.tenantId, productStores.productStoreId],
    }).onDelete('cascade'),
  ],
);
