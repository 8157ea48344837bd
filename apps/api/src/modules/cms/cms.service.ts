import { randomBytes } from 'node:crypto';
import {
  type CmsListItem,
  type CmsPage,
  type CmsPagePayload,
  type CmsPageStatus,
  cmsPageIdSchema,
  cmsPageInputSchema,
  PAGE_LINK_FLAGS,
  type PageLinkFlag,
} from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { requireAccess } from '../../lib/access';
import { hasPermission, type RequestContext, type TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import { ok, type Refusal, Refused, type Result, refuseField } from '../../lib/result';
import { sanitizeCmsHtml } from '../../lib/sanitize';
import { isPlainObject, takeReadOnly, unchanged } from '../../lib/write-back';
import type { AuditService } from '../audit/index';
import { type DraftsService, defineDraftKind } from '../drafts/index';

const p = schema.cmsPages;
const d = schema.contentDrafts;

/** What is kept of a page: the clients' fields, the HTML cleaned before it is ever stored. */
const pagePayloadSchema = cmsPageInputSchema.transform((page) => ({ ...page, content: sanitizeCmsHtml(page.content) }));

function livePayload(row: typeof p.$inferSelect): CmsPagePayload {
  return {
    pageTitle: row.pageTitle,
    pageUrl: row.pageUrl,
    content: row.content,
    pageLinks: onlyFlags(row.pageLinks),
    seoTitle: row.seoTitle,
    seoDescription: row.seoDescription,
    sequenceNum: row.sequenceNum,
  };
}

function onlyFlags(links: string[]): PageLinkFlag[] {
  return links.filter((l): l is PageLinkFlag => (PAGE_LINK_FLAGS as readonly string[]).includes(l));
}

/** A page as its editor shows it: the working page (the draft, else what is live) and where it stands. */
export interface CmsEditor {
  id: string;
  page: CmsPagePayload;
  status: CmsPageStatus;
  liveUrl: string | null;
  updatedAt: string;
}

/** Saving or publishing a page: another page of this store, live or a draft, has its URL (decision 088). */
export type PageUrlRefusal = Refusal<'CONFLICT'>;

function urlTaken(): PageUrlRefusal {
  return refuseField(409, 'CONFLICT', 'pageUrl', 'another page of this store already uses this URL');
}

/**
 * Whether another page of this store, live or a draft, already uses `pageUrl` (decision 034). Run
 * before a draft is saved and again inside the publish transaction; the unique index on cms_pages
 * is the last word for live pages.
 */
async function urlClash(q: Tx | Db, ctx: TenantContext, key: string, pageUrl: string): Promise<PageUrlRefusal | null> {
  const [live] = await q
    .select({ id: p.pageId })
    .from(p)
    .where(
      and(
        eq(p.tenantId, ctx.tenantId),
        eq(p.productStoreId, ctx.productStoreId),
        eq(p.pageUrl, pageUrl),
        ne(p.pageId, key),
      ),
    )
    .limit(1);
  if (live) return urlTaken();
  const [draft] = await q
    .select({ key: d.key })
    .from(d)
    .where(
      and(eq(d.tenantId, ctx.tenantId), eq(d.kind, 'page'), ne(d.key, key), sql`${d.payload}->>'pageUrl' = ${pageUrl}`),
    )
    .limit(1);
  return draft ? urlTaken() : null;
}

/**
 * The `page` draft kind (decision 032): the key is the page id, the payload the whole page. A page
 * that was never published exists only as its draft; publishing writes its cms_pages row.
 */
export const pageKind = defineDraftKind<CmsPagePayload>({
  kind: 'page',
  entity: 'cms.page',
  payload: pagePayloadSchema,
  async readLive(tx, ctx, key) {
    const [row] = await tx
      .select()
      .from(p)
      .where(and(eq(p.tenantId, ctx.tenantId), eq(p.pageId, key)))
      .limit(1);
    return row ? livePayload(row) : null;
  },
  async applyLive(tx, ctx, key, page) {
    // Thrown as Refused to roll the publish back; drafts.publish returns it.
    const taken = await urlClash(tx, ctx, key, page.pageUrl);
    if (taken) throw new Refused(taken);
    const values = { ...page, content: sanitizeCmsHtml(page.content), updatedAt: new Date() };
    await tx
      .insert(p)
      .values({ tenantId: ctx.tenantId, pageId: key, productStoreId: ctx.productStoreId, ...values })
      .onConflictDoUpdate({ target: [p.tenantId, p.pageId], set: values });
  },
});

function statusOf(live: boolean, draft: boolean): CmsPageStatus {
  if (!live) return 'Draft';
  return draft ? 'Published, with changes' : 'Published';
}

function newPageId(): string {
  return `page-${randomBytes(6).toString('hex')}`;
}

interface Deps {
  drafts: DraftsService;
  audit: AuditService;
  events: EventBus;
}

export function createCmsService(db: Db, deps: Deps) {
  const { drafts, audit, events } = deps;
  drafts.register(pageKind);

  /** 401 for a visitor, 403 for a shopper or staff without the settings permission. */
  const assertOwner = (ctx: RequestContext) => requireAccess(ctx, 'settings');

  async function liveRows(ctx: TenantContext, productStoreId: string) {
    return db
      .select()
      .from(p)
      .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productStoreId, productStoreId)))
      .orderBy(asc(p.sequenceNum), asc(p.pageTitle));
  }

  async function draftRows(ctx: TenantContext) {
    return db
      .select({ key: d.key, payload: d.payload, updatedAt: d.updatedAt })
      .from(d)
      .where(and(eq(d.tenantId, ctx.tenantId), eq(d.kind, pageKind.kind)));
  }

  async function liveRow(ctx: TenantContext, id: string) {
    // An id no page can have (a typo, a probe) is simply not found, like any other unknown id.
    if (!cmsPageIdSchema.safeParse({ id }).success) throw AppError.notFound('There is no such page in this store.');
    const [row] = await db
      .select()
      .from(p)
      .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productStoreId, ctx.productStoreId), eq(p.pageId, id)))
      .limit(1);
    return row;
  }

  /** Live pages and drafts side by side: what the owner's list and the owner's fetch show. */
  async function working(ctx: RequestContext, productStoreId: string) {
    const [live, draftList] = await Promise.all([liveRows(ctx, productStoreId), draftRows(ctx)]);
    const byId = new Map<string, { page: CmsPagePayload; status: CmsPageStatus; updatedAt: Date }>();
    for (const row of live)
      byId.set(row.pageId, { page: livePayload(row), status: 'Published', updatedAt: row.updatedAt });
    for (const row of draftList) {
      const parsed = pageKind.payload.safeParse(row.payload);
      if (!parsed.success) continue;
      const isLive = byId.has(row.key);
      byId.set(row.key, { page: parsed.data, status: statusOf(isLive, true), updatedAt: row.updatedAt });
    }
    return [...byId.entries()]
      .map(([id, w]) => ({ id, ...w }))
      .sort((a, b) => a.page.sequenceNum - b.page.sequenceNum || a.page.pageTitle.localeCompare(b.page.pageTitle));
  }

  const service = {
    /**
     * The pages shoppers see: published ones only. In the owner's preview (ctx.preview, granted only
     * to who may edit settings) each page's draft stands in for it, and a never-published page
     * appears at its draft URL; everyone else gets the live pages, whatever cookie they send.
     */
    async storefrontPages(
      ctx: RequestContext,
      productStoreId: string,
      filter: { pageUrl?: string; pageLink?: PageLinkFlag },
    ): Promise<CmsPage[]> {
      const pages = new Map<string, CmsPagePayload>();
      for (const row of await liveRows(ctx, productStoreId)) pages.set(row.pageId, livePayload(row));
      if (ctx.preview && hasPermission(ctx, 'settings')) {
        for (const { key } of await draftRows(ctx)) {
          const draft = await drafts.preview(ctx, pageKind, key);
          if (draft) pages.set(key, draft);
        }
      }
      return [...pages.entries()]
        .filter(([, page]) => !filter.pageUrl || page.pageUrl === filter.pageUrl)
        .filter(([, page]) => !filter.pageLink || page.pageLinks.includes(filter.pageLink))
        .sort(([, a], [, b]) => a.sequenceNum - b.sequenceNum || a.pageTitle.localeCompare(b.pageTitle))
        .map(([id, page]) => ({
          id,
          productStoreId,
          pageTitle: page.pageTitle,
          pageUrl: page.pageUrl,
          pageLinks: page.pageLinks,
          // The body is only sent when one page is asked for: menus need titles, not articles.
          // Cleaned on save and again here, so an allow-list change reaches old pages too.
          ...(filter.pageUrl
            ? { content: sanitizeCmsHtml(page.content), seoTitle: page.seoTitle, seoDescription: page.seoDescription }
            : {}),
        }));
    },

    /** The owner's answer to GET /api/v1/cms/fetch: live pages and drafts, each with its status. */
    async ownerPages(
      ctx: RequestContext,
      productStoreId: string,
      filter: { pageUrl?: string; pageLink?: PageLinkFlag },
    ): Promise<CmsPage[]> {
      assertOwner(ctx);
      return (await working(ctx, productStoreId))
        .filter((w) => !filter.pageUrl || w.page.pageUrl === filter.pageUrl)
        .filter((w) => !filter.pageLink || w.page.pageLinks.includes(filter.pageLink))
        .map((w) => ({
          id: w.id,
          productStoreId,
          pageTitle: w.page.pageTitle,
          pageUrl: w.page.pageUrl,
          pageLinks: w.page.pageLinks,
          ...(filter.pageUrl
            ? {
                content: sanitizeCmsHtml(w.page.content),
                seoTitle: w.page.seoTitle,
                seoDescription: w.page.seoDescription,
              }
            : {}),
          status: w.status,
          updatedAt: w.updatedAt.toISOString(),
        }));
    },

    /** The dashboard list. */
    async list(ctx: RequestContext): Promise<CmsListItem[]> {
      assertOwner(ctx);
      return (await working(ctx, ctx.productStoreId)).map((w) => ({
        id: w.id,
        pageTitle: w.page.pageTitle,
        pageUrl: w.page.pageUrl,
        pageLinks: w.page.pageLinks,
        status: w.status,
        updatedAt: w.updatedAt.toISOString(),
      }));
    },

    /** One page as the editor opens it: its draft if it has one, else what is live; 404 if neither. */
    async editor(ctx: RequestContext, id: string): Promise<CmsEditor> {
      assertOwner(ctx);
      const row = await liveRow(ctx, id);
      const draft = await drafts.get(ctx, pageKind, id);
      if (!row && !draft) throw AppError.notFound('There is no such page in this store.');
      const page = draft ? draft.payload : livePayload(row as typeof p.$inferSelect);
      return {
        id,
        page,
        status: statusOf(Boolean(row), Boolean(draft)),
        liveUrl: row?.pageUrl ?? null,
        updatedAt: (draft?.updatedAt ?? row?.updatedAt ?? new Date()).toISOString(),
      };
    },

    /** 404 unless `id` is a page (live or a draft) of this store: the update asks before the body is read. */
    async assertPage(ctx: RequestContext, id: string): Promise<void> {
      assertOwner(ctx);
      if (!(await liveRow(ctx, id)) && !(await drafts.get(ctx, pageKind, id))) {
        throw AppError.notFound('There is no such page in this store.');
      }
    },

    /**
     * The update's body as a whole page: the working page with the fields the
     * body names laid over (a patch). What `GET /api/v1/cms/fetch` answers is taken back as it is:
     * id, productStoreId, status and updatedAt when they are as read (else a 400 naming the field),
     * the content as the read cleans it. Runs before the body's schema, after the page's check.
     */
    async updateBody(ctx: RequestContext, id: string, body: unknown): Promise<unknown> {
      const current = await service.editor(ctx, id);
      if (!isPlainObject(body)) return body;
      const readOnly = {
        id,
        productStoreId: ctx.productStoreId,
        status: current.status,
        updatedAt: current.updatedAt,
      };
      const patch = takeReadOnly(body, readOnly, ['id', 'productStoreId', 'status', 'updatedAt']);
      // The read cleans the HTML with today's allow-list; that copy sent back is the stored page.
      if (patch.content === sanitizeCmsHtml(current.page.content)) patch.content = current.page.content;
      const given = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
      return { ...current.page, ...given };
    },

    /**
     * Saves a page as its draft (POST create, PUT update): checked with the page schema (400 naming
     * the field), the URL free among this store's pages and drafts (409 naming pageUrl), the HTML
     * cleaned before it is stored. Nothing goes live: publishing is the drafts seam's. An update
     * equal to the working page saves, audits and announces nothing.
     */
    async save(ctx: RequestContext, id: string | null, input: unknown): Promise<Result<CmsEditor, PageUrlRefusal>> {
      assertOwner(ctx);
      if (id !== null) await service.assertPage(ctx, id);
      const key = id ?? newPageId();
      const parsed = pageKind.payload.safeParse(input);
      if (id !== null && parsed.success && unchanged(parsed.data, (await service.editor(ctx, id)).page)) {
        return ok(await service.editor(ctx, id));
      }
      // The drafts service answers the schema's refusal with the field named; let it.
      if (parsed.success) {
        const taken = await urlClash(db, ctx, key, parsed.data.pageUrl);
        if (taken) return taken;
      }
      await drafts.save(ctx, pageKind, key, input);
      // Nothing shoppers see changed; the owner's other tabs and processes drop what they hold.
      events.emit('settings.changed', { tenantId: ctx.tenantId, what: 'page.draft' });
      return ok(await service.editor(ctx, key));
    },

    /**
     * Deletes a page: its live row and its draft go in one transaction, audited, and every process
     * drops its caches after the commit. Published versions stay in the history tables.
     */
    async remove(ctx: RequestContext, id: string): Promise<void> {
      assertOwner(ctx);
      if (!cmsPageIdSchema.safeParse({ id }).success) throw AppError.notFound('There is no such page in this store.');
      await events.transaction(async (tx) => {
        const [gone] = await tx
          .delete(p)
          .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productStoreId, ctx.productStoreId), eq(p.pageId, id)))
          .returning();
        const draft = await drafts.dropWith(tx, ctx, pageKind, id);
        if (!gone && !draft) throw AppError.notFound('There is no such page in this store.');
        const before = gone ? livePayload(gone) : (draft as Record<string, unknown>);
        await audit.record(tx, ctx, {
          entity: pageKind.entity,
          entityId: id,
          action: 'delete',
          before: { ...before },
          after: null,
        });
        events.emitAfterCommit(tx, 'settings.changed', { tenantId: ctx.tenantId, what: 'page' });
      });
    },
  };
  return service;
}

export type CmsService = ReturnType<typeof createCmsService>;
