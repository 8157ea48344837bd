import { foreignKey, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { productStores, tenants } from './tenancy';

/**
 * Published CMS pages (decision 034: a row here is live; an unpublished page is only a draft in
 * content_drafts). `pageLinks` holds where the page is linked: TOP, MENU, BOTTOM, FOOTER.
 */
export const cmsPages = pgTable(
  'cms_pages',
  {
    tenantId: text('tenant_id').notNull(),
    pageId: text('page_id').notNull(),
    productStoreId: text('product_store_id').notNull(),
    pageTitle: text('page_title').notNull(),
    pageUrl: text('page_url').notNull(),
    content: text('content').notNull().default(''),
    pageLinks: text('page_links').array().notNull().default([]),
    sequenceNum: integer('sequence_num').notNull().default(0),
    /** The page's own search title and description (empty: the page title and the store's default). */
    seoTitle: text('seo_title').notNull().default(''),
    seoDescription: text('seo_description').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.pageId] }),
    uniqueIndex('cms_pages_url_uq').on(t.tenantId, t.productStoreId, t.pageUrl),
    foreignKey({
      columns: [t.tenantId, t.productStoreId],
      foreignColumns: [productStores.tenantId, productStores.productStoreId],
    }),
  ],
);

/** FAQs are survey questions of survey HELP_AND_FAQS. */
export const faqs = pgTable(
  'faqs',
  {
    tenantId: text('tenant_id').notNull(),
    productStoreSurveyId: text('product_store_survey_id').notNull(),
    faqId: text('faq_id').notNull(),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    sequenceNum: integer('sequence_num').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.productStoreSurveyId, t.faqId] }),
    foreignKey({ columns: [t.tenantId], foreignColumns: [tenants.tenantId] }),
  ],
);

/** Messages shoppers send from /contact: kept for the store, and mailed to its address. */
export const contactMessages = pgTable(
  'contact_messages',
  {
    tenantId: text('tenant_id').notNull(),
    messageId: text('message_id').notNull(),
    productStoreId: text('product_store_id').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    message: text('message').notNull(),
    /** Kept to rate-limit senders across app processes; cleared with the message. */
    clientIp: text('client_ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The owner's inbox (decision 047): new (unread), read, archived; moved only by message-state.ts. */
    status: text('status', { enum: ['new', 'read', 'archived'] })
      .notNull()
      .default('new'),
    readAt: timestamp('read_at', { withTimezone: true }),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.messageId] }),
    index('contact_messages_store_idx').on(t.tenantId, t.productStoreId, t.createdAt),
    // The inbox and archive tabs and the unread count: by status, newest first.
    index('contact_messages_status_idx').on(t.tenantId, t.productStoreId, t.status, t.createdAt, t.messageId),
    index('contact_messages_ip_idx').on(t.tenantId, t.clientIp, t.createdAt),
    foreignKey({
      columns: [t.tenantId, t.productStoreId],
      foreignColumns: [productStores.tenantId, productStores.productStoreId],
    }),
  ],
);

/** The store's replies to a contact message, sent by email and kept to show the thread. */
export const contactMessageReplies = pgTable(
  'contact_message_replies',
  {
    tenantId: text('tenant_id').notNull(),
    replyId: text('reply_id').notNull(),
    messageId: text('message_id').notNull(),
    body: text('body').notNull(),
    /** The staff member's user id and first name as they were when sending. */
    sentBy: text('sent_by'),
    sentByName: text('sent_by_name'),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.replyId] }),
    index('contact_message_replies_message_idx').on(t.tenantId, t.messageId, t.sentAt),
    foreignKey({
      columns: [t.tenantId, t.messageId],
      foreignColumns: [contactMessages.tenantId, contactMessages.messageId],
    }).onDelete('cascade'),
  ],
);
