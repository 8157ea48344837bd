import { foreignKey, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

/**
 * Look and content an owner is editing but has not published (decision 032's seam): one draft per thing (`kind` names the kind, `key` the thing: a store id,
 * a page id). The payload is the whole intended state, so publishing is one write of it.
 */
export const contentDrafts = pgTable(
  'content_drafts',
  {
    tenantId: text('tenant_id').notNull(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    payload: jsonb('payload').notNull(),
    updatedBy: text('updated_by'),
    updatedByName: text('updated_by_name'),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.kind, t.key] }),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
  ],
);

/**
 * Every publish, kept: the payload that went live, who published it and when. "Restore" copies a
 * version back into the draft; versions are never changed.
 */
export const contentVersions = pgTable(
  'content_versions',
  {
    tenantId: text('tenant_id').notNull(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    version: integer('version').notNull(),
    payload: jsonb('payload').notNull(),
    publishedBy: text('published_by'),
    publishedByName: text('published_by_name'),
    publishedAt: timestamp('published_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    // The primary key is also the history's read path: newest version first per thing.
    primaryKey({ columns: [t.tenantId, t.kind, t.key, t.version] }),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
  ],
);
