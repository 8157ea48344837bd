import { foreignKey, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

/**
 * The store's media library: every picture an owner or staff member uploaded, re-encoded to WebP
 * under a random name (`t/<tenantId>/m/<mediaId>.webp`). Pages that take a picture (banners, the
 * logo, CMS pages) refer to a row here, and offer "choose from library" from this list.
 */
export const media = pgTable(
  'media',
  {
    tenantId: text('tenant_id').notNull(),
    mediaId: text('media_id').notNull(),
    /** The storage key (served at /media/<key>). */
    storageKey: text('storage_key').notNull(),
    contentType: text('content_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    /** What the uploader detected the original to be (jpeg, png, webp, avif, gif), for the record. */
    sourceFormat: text('source_format').notNull(),
    altText: text('alt_text'),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.mediaId] }),
    // The library picker's keyset pages, newest first.
    index('media_time_idx').on(t.tenantId, t.createdAt, t.mediaId),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
  ],
);
