import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { categories } from './catalog';
import { media } from './media';
import { tenants } from './tenancy';

// The products domain's tables (decision 110): products and their parts, their places in
// categories, their slug history and their stock movements.

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** Money is integer minor units with the currency beside it. */
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
    /** FINISHED_GOOD, or CONFIGURABLE: options priced through getConfigDetailsEvent. */
    productType: text('product_type').notNull().default('FINISHED_GOOD'),
    /**
     * DRAFT (being prepared, not on the storefront), ACTIVE (for sale), ARCHIVED (kept for orders
     * and history, not on the storefront). Only ACTIVE products are shown to shoppers.
     */
    status: text('status', { enum: ['DRAFT', 'ACTIVE', 'ARCHIVED'] })
      .notNull()
      .default('ACTIVE'),
    seoTitle: text('seo_title'),
    seoDescription: text('seo_description'),
    /** Last write to the product's own fields (the dashboard's default order; sitemap lastmod). */
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** Names of the product's categories, kept by the catalog service; weighted into search. */
    categoryNames: text('category_names').notNull().default(''),
    /**
     * The rollup of the product's variants (decision 112), written only by refreshProductRollup and
     * changeStock under the product's row lock: the highest effective price of its enabled live
     * variants, how many live variants it has, and the stock of its enabled live variants. A row
     * inserted alone has none until its variants are written (the defaults say so).
     */
    priceMax: integer('price_max').notNull().default(0),
    variantCount: smallint('variant_count').notNull().default(0),
    sellableStock: integer('sellable_stock').notNull().default(0),
    /** Option names and value labels of its variants, for search (weight B, unstemmed). */
    variantWords: text('variant_words').notNull().default(''),
    /** The product's tax class (decision 116): standard, reduced or exempt; checkout taxes by it. */
    taxClass: text('tax_class', { enum: ['standard', 'reduced', 'exempt'] })
      .notNull()
      .default('standard'),
    /** The price shoppers pay: sale price when set. Sorting and price filters use it. */
    effectivePrice: integer('effective_price').generatedAlwaysAs(sql`coalesce(sale_price, list_price)`),
    /**
     * Full-text document: name and brand weigh most, then categories, then descriptions
     * (weighted tsvector with websearch_to_tsquery). 'simple' for names keeps
     * brand and model words unstemmed; 'english' stems the prose.
     */
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('simple', coalesce(product_name, '')), 'A') || setweight(to_tsvector('english', coalesce(product_name, '')), 'A') || setweight(to_tsvector('simple', coalesce(brand_name, '')), 'A') || setweight(to_tsvector('english', coalesce(category_names, '')), 'B') || setweight(to_tsvector('simple', coalesce(variant_words, '')), 'B') || setweight(to_tsvector('english', coalesce(short_description, '') || ' ' || coalesce(description, '')), 'C')`,
    ),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.productId] }),
    // No unique SKU here: SKUs are the variants' (product_variants_sku_uq); products.sku is the first
    // variant's, kept for older clients.
    // A product's address is /{slug}/{productId}; slugs are unique per store so each names one product.
    uniqueIndex('products_slug_uq').on(t.tenantId, t.slug),
    // The dashboard's product list, most recently changed first (keyset on updated_at, product_id).
    index('products_updated_idx').on(t.tenantId, t.updatedAt, t.productId),
    index('products_new_idx').on(t.tenantId, t.introductionDate),
    // What shoppers see (ACTIVE): the search index's build in id order, the sitemap, and the name
    // and date neighbours an incremental index patch looks up (products.service, search-index.ts).
    index('products_active_idx').on(t.tenantId, t.productId).where(sql`${t.status} = 'ACTIVE'`),
    index('products_active_name_idx').on(t.tenantId, t.productName).where(sql`${t.status} = 'ACTIVE'`),
    index('products_active_new_idx').on(t.tenantId, t.introductionDate).where(sql`${t.status} = 'ACTIVE'`),
    index('products_price_idx').on(t.tenantId, t.effectivePrice),
    index('products_featured_idx').on(t.tenantId, t.isFeatured),
    // The dashboard's low-stock list: the few products at or below a threshold, emptiest first.
    index('products_stock_idx').on(t.tenantId, t.stockQuantity),
    // The dashboard's product list (decision 036): each sort keyed on (value, product_id) for keyset
    // pages, and the two equality filters with the default sort, so no page reads past what it shows.
    index('products_list_name_idx').on(t.tenantId, t.productName, t.productId),
    index('products_list_price_idx').on(t.tenantId, t.effectivePrice, t.productId),
    index('products_list_stock_idx').on(t.tenantId, t.stockQuantity, t.productId),
    index('products_list_created_idx').on(t.tenantId, t.introductionDate, t.productId),
    index('products_list_status_idx').on(t.tenantId, t.status, t.updatedAt, t.productId),
    index('products_list_brand_idx').on(t.tenantId, t.brandName, t.updatedAt, t.productId),
    index('products_search_idx').using('gin', t.searchVector),
    // Typo tolerance and autocomplete: trigram similarity on names.
    index('products_name_trgm_idx').using('gin', sql`lower(${t.productName}) gin_trgm_ops`),
    check('products_price_ck', sql`${t.listPrice} >= 0 AND (${t.salePrice} IS NULL OR ${t.salePrice} >= 0)`),
    check('products_stock_ck', sql`${t.stockQuantity} >= 0`),
    check('products_sellable_ck', sql`${t.sellableStock} >= 0`),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
  ],
);

/** Features and specifications shown on the product page ("Finish: Brass", "Bulb base: E26"). */
export const productFeatures = pgTable(
  'product_features',
  {
    tenantId: text('tenant_id').notNull(),
    productId: text('product_id').notNull(),
    featureId: text('feature_id').notNull(),
    label: text('label').notNull(),
    value: text('value').notNull(),
    sequenceNum: integer('sequence_num').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.productId, t.featureId] }),
    foreignKey({
      columns: [t.tenantId, t.productId],
      foreignColumns: [products.tenantId, products.productId],
    }).onDelete('cascade'),
  ],
);

/** An option of a configurable product (Finish, Length) and its choices with price deltas. */
export const productConfigOptions = pgTable(
  'product_config_options',
  {
    tenantId: text('tenant_id').notNull(),
    productId: text('product_id').notNull(),
    optionId: text('option_id').notNull(),
    optionName: text('option_name').notNull(),
    sequenceNum: integer('sequence_num').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.productId, t.optionId] }),
    foreignKey({
      columns: [t.tenantId, t.productId],
      foreignColumns: [products.tenantId, products.productId],
    }).onDelete('cascade'),
  ],
);

export const productConfigChoices = pgTable(
  'product_config_choices',
  {
    tenantId: text('tenant_id').notNull(),
    productId: text('product_id').notNull(),
    optionId: text('option_id').notNull(),
    choiceId: text('choice_id').notNull(),
    label: text('label').notNull(),
    /** Added to the product's price, minor units; may be negative. */
    priceDelta: integer('price_delta').notNull().default(0),
    isDefault: boolean('is_default').notNull().default(false),
    sequenceNum: integer('sequence_num').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.productId, t.optionId, t.choiceId] }),
    foreignKey({
      columns: [t.tenantId, t.productId, t.optionId],
      foreignColumns: [productConfigOptions.tenantId, productConfigOptions.productId, productConfigOptions.optionId],
    }).onDelete('cascade'),
  ],
);

/** Related products and accessories shown under a product. */
export const productAssociations = pgTable(
  'product_associations',
  {
    tenantId: text('tenant_id').notNull(),
    productId: text('product_id').notNull(),
    relatedProductId: text('related_product_id').notNull(),
    assocType: text('assoc_type', { enum: ['RELATED', 'ACCESSORY'] })
      .notNull()
      .default('RELATED'),
    sequenceNum: integer('sequence_num').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.productId, t.relatedProductId] }),
    foreignKey({
      columns: [t.tenantId, t.productId],
      foreignColumns: [products.tenantId, products.productId],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.tenantId, t.relatedProductId],
      foreignColumns: [products.tenantId, products.productId],
    }).onDelete('cascade'),
  ],
);

/** Downloadable content of a product (a spec sheet, a manual), kept in media storage. */
export const productContents = pgTable(
  'product_contents',
  {
    tenantId: text('tenant_id').notNull(),
    productId: text('product_id').notNull(),
    contentId: text('content_id').notNull(),
    title: text('title').notNull(),
    fileName: text('file_name').notNull(),
    mediaKey: text('media_key').notNull(),
    contentType: text('content_type').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.productId, t.contentId] }),
    foreignKey({
      columns: [t.tenantId, t.productId],
      foreignColumns: [products.tenantId, products.productId],
    }).onDelete('cascade'),
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

/**
 * The pictures of a product, in order: each one a picture of the store's media library with its own
 * alt text. The first is the product's main picture (cards, the top of the product page).
 */
export const productImages = pgTable(
  'product_images',
  {
    tenantId: text('tenant_id').notNull(),
    productId: text('product_id').notNull(),
    mediaId: text('media_id').notNull(),
    altText: text('alt_text'),
    sequenceNum: integer('sequence_num').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.productId, t.mediaId] }),
    index('product_images_seq_idx').on(t.tenantId, t.productId, t.sequenceNum),
    foreignKey({
      columns: [t.tenantId, t.productId],
      foreignColumns: [products.tenantId, products.productId],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.tenantId, t.mediaId],
      foreignColumns: [media.tenantId, media.mediaId],
    }),
  ],
);

/** Slugs a product had before: an old address /{oldSlug}/{productId} redirects to the current one. */
export const productSlugHistory = pgTable(
  'product_slug_history',
  {
    tenantId: text('tenant_id').notNull(),
    slug: text('slug').notNull(),
    productId: text('product_id').notNull(),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.slug] }),
    index('product_slug_history_product_idx').on(t.tenantId, t.productId),
    foreignKey({
      columns: [t.tenantId, t.productId],
      foreignColumns: [products.tenantId, products.productId],
    }).onDelete('cascade'),
  ],
);

/**
 * A product's options (Finish, Size, Battery), at most three, in order (decision 112). A product
 * without options has none, and one default variant.
 */
export const productOptions = pgTable(
  'product_options',
  {
    tenantId: text('tenant_id').notNull(),
    productId: text('product_id').notNull(),
    optionId: text('option_id').notNull(),
    name: text('name').notNull(),
    position: smallint('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.productId, t.optionId] }),
    uniqueIndex('product_options_position_uq').on(t.tenantId, t.productId, t.position),
    uniqueIndex('product_options_name_uq').on(t.tenantId, t.productId, sql`lower(${t.name})`),
    check('product_options_position_ck', sql`${t.position} BETWEEN 1 AND 3`),
    foreignKey({
      columns: [t.tenantId, t.productId],
      foreignColumns: [products.tenantId, products.productId],
    }).onDelete('cascade'),
  ],
);

/** The ordered values of an option (Brass, Black), with an optional swatch for the picker. */
export const productOptionValues = pgTable(
  'product_option_values',
  {
    tenantId: text('tenant_id').notNull(),
    productId: text('product_id').notNull(),
    optionId: text('option_id').notNull(),
    valueId: text('value_id').notNull(),
    label: text('label').notNull(),
    position: smallint('position').notNull(),
    swatchColor: text('swatch_color'),
    swatchMediaId: text('swatch_media_id'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.productId, t.valueId] }),
    uniqueIndex('product_option_values_label_uq').on(t.tenantId, t.productId, t.optionId, sql`lower(${t.label})`),
    check('product_option_values_swatch_ck', sql`${t.swatchColor} IS NULL OR ${t.swatchColor} ~ '^#[0-9a-f]{6}$'`),
    foreignKey({
      columns: [t.tenantId, t.productId, t.optionId],
      foreignColumns: [productOptions.tenantId, productOptions.productId, productOptions.optionId],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.tenantId, t.swatchMediaId],
      foreignColumns: [media.tenantId, media.mediaId],
    }),
  ],
);

/**
 * What is bought (decision 112): one row per combination of option values the owner offers, with its
 * own SKU, prices, weight, stock and enabled flag. Every product has at least one; the default
 * variant of a product without options has no values, title '' and, for every product made before
 * variants and every product made without options since, the product's id as its id, so a product id
 * names a sellable thing. `stock_quantity` is written only by changeStock. A variant with history is
 * not deleted but marked `removed_at`, so orders and the books keep pointing at it.
 */
export const productVariants = pgTable(
  'product_variants',
  {
    tenantId: text('tenant_id').notNull(),
    variantId: text('variant_id').notNull(),
    productId: text('product_id').notNull(),
    position: integer('position').notNull(),
    option1ValueId: text('option1_value_id'),
    option2ValueId: text('option2_value_id'),
    option3ValueId: text('option3_value_id'),
    /** "Brass / Large"; '' for a default variant. */
    title: text('title').notNull().default(''),
    sku: text('sku').notNull(),
    /** GTIN, UPC or EAN: the feed's g:gtin. */
    barcode: text('barcode'),
    listPrice: integer('list_price').notNull(),
    salePrice: integer('sale_price'),
    effectivePrice: integer('effective_price').generatedAlwaysAs(sql`coalesce(sale_price, list_price)`),
    weightGrams: integer('weight_grams'),
    stockQuantity: integer('stock_quantity').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    removedAt: timestamp('removed_at', { withTimezone: true, precision: 3 }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.variantId] }),
    // The target of the composite foreign keys that tie a variant to its product, and the read of
    // "the variants of a product".
    uniqueIndex('product_variants_product_uq').on(t.tenantId, t.productId, t.variantId),
    uniqueIndex('product_variants_sku_uq').on(t.tenantId, t.sku).where(sql`${t.removedAt} IS NULL`),
    // One live variant per combination of values.
    uniqueIndex('product_variants_options_uq')
      .on(
        t.tenantId,
        t.productId,
        sql`coalesce(${t.option1ValueId}, '')`,
        sql`coalesce(${t.option2ValueId}, '')`,
        sql`coalesce(${t.option3ValueId}, '')`,
      )
      .where(sql`${t.removedAt} IS NULL`),
    // The SKU searches (lower(sku) LIKE 'abc%').
    index('product_variants_sku_prefix_idx').on(t.tenantId, sql`lower(${t.sku}) text_pattern_ops`),
    index('product_variants_barcode_idx').on(t.tenantId, t.barcode).where(sql`${t.barcode} IS NOT NULL`),
    // Low stock and the inventory's keyset stock sort.
    index('product_variants_stock_idx').on(t.tenantId, t.stockQuantity, t.variantId).where(sql`${t.removedAt} IS NULL`),
    check('product_variants_stock_ck', sql`${t.stockQuantity} >= 0`),
    check('product_variants_price_ck', sql`${t.listPrice} >= 0 AND (${t.salePrice} IS NULL OR ${t.salePrice} >= 0)`),
    foreignKey({
      columns: [t.tenantId, t.productId],
      foreignColumns: [products.tenantId, products.productId],
    }).onDelete('cascade'),
    // Restrict: the writer removes variants before the values they use.
    foreignKey({
      name: 'product_variants_option1_fk',
      columns: [t.tenantId, t.productId, t.option1ValueId],
      foreignColumns: [productOptionValues.tenantId, productOptionValues.productId, productOptionValues.valueId],
    }),
    foreignKey({
      name: 'product_variants_option2_fk',
      columns: [t.tenantId, t.productId, t.option2ValueId],
      foreignColumns: [productOptionValues.tenantId, productOptionValues.productId, productOptionValues.valueId],
    }),
    foreignKey({
      name: 'product_variants_option3_fk',
      columns: [t.tenantId, t.productId, t.option3ValueId],
      foreignColumns: [productOptionValues.tenantId, productOptionValues.productId, productOptionValues.valueId],
    }),
  ],
);

/** A variant's pictures, chosen among its product's pictures (and gone with them). */
export const productVariantImages = pgTable(
  'product_variant_images',
  {
    tenantId: text('tenant_id').notNull(),
    productId: text('product_id').notNull(),
    variantId: text('variant_id').notNull(),
    mediaId: text('media_id').notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.variantId, t.mediaId] }),
    foreignKey({
      columns: [t.tenantId, t.productId, t.variantId],
      foreignColumns: [productVariants.tenantId, productVariants.productId, productVariants.variantId],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.tenantId, t.productId, t.mediaId],
      foreignColumns: [productImages.tenantId, productImages.productId, productImages.mediaId],
    }).onDelete('cascade'),
  ],
);

/**
 * Every change of a product's stock, whatever made it (an order, a cancel, a return, an owner's
 * adjustment, a bulk change, an import): the books. Written only by the inventory module's
 * changeStock, in the same transaction as the change, so the sum of deltas is always the stock.
 */
export const stockMovements = pgTable(
  'stock_movements',
  {
    tenantId: text('tenant_id').notNull(),
    movementId: text('movement_id').notNull(),
    productId: text('product_id').notNull(),
    /** The variant whose stock moved (a migrated product's movements name its default variant). */
    variantId: text('variant_id').notNull(),
    delta: integer('delta').notNull(),
    quantityBefore: integer('quantity_before').notNull(),
    quantityAfter: integer('quantity_after').notNull(),
    /** RECEIVED, CORRECTION, DAMAGED, RETURNED (owner's reasons); SOLD and RELEASED (orders). */
    reason: text('reason', { enum: ['RECEIVED', 'CORRECTION', 'DAMAGED', 'RETURNED', 'SOLD', 'RELEASED'] }).notNull(),
    note: text('note'),
    orderId: text('order_id'),
    returnId: text('return_id'),
    /** Who: a user id for people, the job or sweep name for the system. */
    actorId: text('actor_id'),
    actorName: text('actor_name'),
    requestId: text('request_id'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.movementId] }),
    // A product's history, newest first.
    index('stock_movements_product_idx').on(t.tenantId, t.productId, t.createdAt),
    // A variant's history, newest first.
    index('stock_movements_variant_idx').on(t.tenantId, t.variantId, t.createdAt),
    check(
      'stock_movements_books_ck',
      sql`${t.quantityAfter} = ${t.quantityBefore} + ${t.delta} AND ${t.quantityAfter} >= 0`,
    ),
    foreignKey({
      columns: [t.tenantId, t.productId],
      foreignColumns: [products.tenantId, products.productId],
    }).onDelete('cascade'),
    foreignKey({
      name: 'stock_movements_variant_fk',
      columns: [t.tenantId, t.productId, t.variantId],
      foreignColumns: [productVariants.tenantId, productVariants.productId, productVariants.variantId],
    }).onDelete('cascade'),
  ],
);
