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
import { productStores, tenants } from './tenancy';

export const catalogs = pgTable(
  'catalogs',
  {
    tenantId: text('tenant_id').notNull(),
    prodCatalogId: text('prod_catalog_id').notNull(),
    productStoreId: text('product_store_id').notNull(),
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
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.productCategoryId] }),
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

/** Money is integer minor units with the currency beside it (DESIGN.md section 2). */
export const products = pgTable(
  'products',
  {
    tenantId: text('tenant_id').notNull(),
    productId: text('product_id').notNull(),
    sku: text('sku').notNull(),
    productName: text('product_name').notNull(),
    slug: text('slug').notNull(),
    brandName: text('brand_name'),
    shortDescription: text('short_description'),
    description: text('description'),
    smallImageUrl: text('small_image_url'),
    mediumImageUrl: text('medium_image_url'),
    detailImageUrl: text('detail_image_url'),
    listPrice: integer('list_price').notNull(),
    salePrice: integer('sale_price'),
    currencyUomId: text('currency_uom_id').notNull().default('USD'),
    stockQuantity: integer('stock_quantity').notNull().default(0),
    weightGrams: integer('weight_grams'),
    isFeatured: boolean('is_featured').notNull().default(false),
    introductionDate: timestamp('introduction_date', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.productId] }),
    uniqueIndex('products_sku_uq').on(t.tenantId, t.sku),
    index('products_slug_idx').on(t.tenantId, t.slug),
    index('products_new_idx').on(t.tenantId, t.introductionDate),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
  ],
);

export const productCategories = pgTable(
  'product_categories',
  {
    tenantId: text('tenant_id').notNull(),
    productCategoryId: text('product_category_id').notNull(),
    productId: text('product_id').notNull(),
    sequenceNum: integer('sequence_num').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.productCategoryId, t.productId] }),
    index('product_categories_product_idx').on(t.tenantId, t.productId),
    foreignKey({
      columns: [t.tenantId, t.productCategoryId],
      foreignColumns: [categories.tenantId, categories.productCategoryId],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.tenantId, t.productId],
      foreignColumns: [products.tenantId, products.productId],
    }).onDelete('cascade'),
  ],
);
