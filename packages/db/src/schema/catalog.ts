import { sql } from 'drizzle-orm';
import { foreignKey, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { productStores, tenants } from './tenancy';

// The catalog domain's tables (decision 110): a store's catalogs, its categories, their places in
// catalogs and their product counts. A product's places in categories are the products domain's
// (products.ts).

export const catalogs = pgTable(
  'catalogs',
  {
    tenantId: text('tenant_id').notNull(),
    prodCatalogId: text('prod_catalog_id').notNull(),
    /**
     * The store the catalog is linked to; null while it is unlinked (kept with its categories, ready
     * to be linked again). A tenant's catalog belongs to at most one of its stores (decision 035).
     */
    productStoreId: text('product_store_id'),
    catalogName: text('catalog_name').notNull(),
    sequenceNum: integer('sequence_num').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.prodCatalogId] }),
    index('catalogs_store_idx').on(t.tenantId, t.productStoreId, t.sequenceNum),
    foreignKey({
      columns: [t.tenantId, t.productStoreId],
      foreignColumns: [productStores.tenantId, productStores.productStoreId],
    }),
  ],
);

export const categories = pgTable(
  'categories',
  {
    tenantId: text('tenant_id').notNull(),
    productCategoryId: text('product_category_id').notNull(),
    categoryName: text('category_name'),
    description: text('description'),
    longDescription: text('long_description'),
    /** Absolute http URL when the image is hosted; otherwise empty. */
    linkTwoImageUrl: text('link_two_image_url'),
    /** Object-storage key, served by our media route; the fallback image. */
    linkTwoImageUrlS3: text('link_two_image_url_s3'),
    /** The media library picture the owner chose (its /media/ path is in linkTwoImageUrl). */
    imageMediaId: text('image_media_id'),
    seoTitle: text('seo_title'),
    seoDescription: text('seo_description'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.productCategoryId] }),
    // The pickers' lookup (LookupProductCategory): a prefix of the id or of the name, case-insensitive.
    index('categories_id_prefix_idx').on(t.tenantId, sql`lower(${t.productCategoryId}) text_pattern_ops`),
    index('categories_name_prefix_idx').on(t.tenantId, sql`lower(${t.categoryName}) text_pattern_ops`),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
  ],
);

/** Category rollup: parent/child edges (a category may sit under several parents). */
export const categoryRollups = pgTable(
  'category_rollups',
  {
    tenantId: text('tenant_id').notNull(),
    parentProductCategoryId: text('parent_product_category_id').notNull(),
    productCategoryId: text('product_category_id').notNull(),
    sequenceNum: integer('sequence_num').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.parentProductCategoryId, t.productCategoryId] }),
    index('category_rollups_child_idx').on(t.tenantId, t.productCategoryId),
    // Composite keys with tenant_id make a link across two tenants impossible in the database itself.
    foreignKey({
      columns: [t.tenantId, t.parentProductCategoryId],
      foreignColumns: [categories.tenantId, categories.productCategoryId],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.tenantId, t.productCategoryId],
      foreignColumns: [categories.tenantId, categories.productCategoryId],
    }).onDelete('cascade'),
  ],
);

export const catalogCategories = pgTable(
  'catalog_categories',
  {
    tenantId: text('tenant_id').notNull(),
    prodCatalogId: text('prod_catalog_id').notNull(),
    productCategoryId: text('product_category_id').notNull(),
    sequenceNum: integer('sequence_num').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.prodCatalogId, t.productCategoryId] }),
    index('catalog_categories_seq_idx').on(t.tenantId, t.prodCatalogId, t.sequenceNum),
    index('catalog_categories_category_idx').on(t.tenantId, t.productCategoryId),
    foreignKey({
      columns: [t.tenantId, t.prodCatalogId],
      foreignColumns: [catalogs.tenantId, catalogs.prodCatalogId],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.tenantId, t.productCategoryId],
      foreignColumns: [categories.tenantId, categories.productCategoryId],
    }).onDelete('cascade'),
  ],
);
