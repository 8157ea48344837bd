import { foreignKey, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { productStores, tenants } from './tenancy';

/**
 * One row per product store: what the storefront needs to render its frame.
 * Theme colours are "R, G, B" strings so the browser can build rgba() tints.
 */
export const storeSettings = pgTable(
  'store_settings',
  {
    tenantId: text('tenant_id').notNull(),
    productStoreId: text('product_store_id').notNull(),
    template: text('template').notNull().default('DEFAULT'),
    theme: text('theme').notNull().default('THEME_FASHION'),
    colorPrimary: text('color_primary').notNull(),
    colorSecondary: text('color_secondary').notNull(),
    colorBanner: text('color_banner').notNull(),
    colorAction: text('color_action').notNull(),
    logoUrl: text('logo_url'),
    headerTitle: text('header_title'),
    headerDescription: text('header_description'),
    pageTitle: text('page_title'),
    promotionTitle: text('promotion_title'),
    companyName: text('company_name'),
    address1: text('address1'),
    address2: text('address2'),
    city: text('city'),
    /** The origin's state or province (US_OR), one of the country's regions: carriers rate from it. */
    stateProvinceGeoId: text('state_province_geo_id'),
    countryGeoId: text('country_geo_id'),
    postalCode: text('postal_code'),
    emailAddress: text('email_address'),
    countryCode: text('country_code'),
    areaCode: text('area_code'),
    contactNumber: text('contact_number'),
    /** Store-owner HTML (a newsletter provider's embed): sanitised before any shopper sees it. */
    newsletterEmbed: text('newsletter_embed'),
    contactPage: text('contact_page'),
    chatWidgetId: text('chat_widget_id'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.productStoreId] }),
    foreignKey({
      columns: [t.tenantId, t.productStoreId],
      foreignColumns: [productStores.tenantId, productStores.productStoreId],
    }),
  ],
);

/** Per-route SEO entries served as /assets/seo-meta.config.json. */
export const seoMeta = pgTable(
  'seo_meta',
  {
    tenantId: text('tenant_id').notNull(),
    route: text('route').notNull(),
    title: text('title').notNull(),
    keywords: text('keywords').notNull(),
    description: text('description').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.route] }),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
  ],
);

export const banners = pgTable(
  'banners',
  {
    tenantId: text('tenant_id').notNull(),
    bannerId: text('banner_id').notNull(),
    productStoreId: text('product_store_id').notNull(),
    title: text('title').notNull(),
    subtitle: text('subtitle'),
    imageUrl: text('image_url').notNull(),
    linkUrl: text('link_url'),
    ctaLabel: text('cta_label'),
    sequenceNum: integer('sequence_num').notNull().default(0),
    /** Describes the picture for people who cannot see it; required for banners an owner adds. */
    altText: text('alt_text').notNull().default(''),
    /** The uploaded picture in the media library (null for the seed's generated pictures). */
    mediaId: text('media_id'),
    /** Shown on home from this time (inclusive) until `ends_at` (exclusive); null means no bound. */
    startsAt: timestamp('starts_at', { withTimezone: true, precision: 3 }),
    endsAt: timestamp('ends_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.bannerId] }),
    index('banners_store_idx').on(t.tenantId, t.productStoreId, t.sequenceNum),
    foreignKey({
      columns: [t.tenantId, t.productStoreId],
      foreignColumns: [productStores.tenantId, productStores.productStoreId],
    }),
  ],
);
