import {
  REVIEW_ADMIN_PAGE_SIZE,
  type ReviewAdminItem,
  type ReviewAdminPage,
  type ReviewAdminQuery,
  type ReviewStatus,
} from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, desc, eq, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import { requireAccess } from '../../lib/access';
import type { RequestContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import { decodeTimeCursor, encodeTimeCursor } from '../../lib/keyset-cursor';
import type { AuditService } from '../audit/index';
import { boughtVariantSql } from './bought-variant';
import { canMoveReview } from './review-state';

const rv = schema.productReviews;
const p = schema.products;

export interface ReviewAdminDeps {
  audit: AuditService;
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

const columns = {
  reviewId: rv.reviewId,
  productId: rv.productId,
  productName: p.productName,
  authorName: rv.authorName,
  rating: rv.rating,
  title: rv.title,
  body: rv.body,
  status: rv.status,
  createdAt: rv.createdAt,
  replyBody: rv.replyBody,
  repliedAt: rv.repliedAt,
  repliedByName: rv.repliedByName,
  boughtVariant: boughtVariantSql,
};
type Row = {
  reviewId: string;
  productId: string;
  productName: string;
  authorName: string;
  rating: number;
  title: string | null;
  body: string | null;
  status: ReviewStatus;
  createdAt: Date;
  replyBody: string | null;
  repliedAt: Date | null;
  repliedByName: string | null;
  boughtVariant: string | null;
};

const toItem = (r: Row): ReviewAdminItem => ({
  reviewId: r.reviewId,
  productId: r.productId,
  productName: r.productName,
  authorName: r.authorName,
  rating: r.rating,
  title: r.title,
  body: r.body,
  status: r.status,
  createdAt: r.createdAt.toISOString(),
  boughtVariant: r.boughtVariant,
  reply:
    r.replyBody && r.repliedAt ? { text: r.replyBody, at: r.repliedAt.toISOString(), byName: r.repliedByName } : null,
});

/**
 * The store's moderation of reviews (decision 047): list, publish, hide, and a
 * public reply. Each write is audited in its own transaction and announced with `review.changed`
 * after commit, so the product page's cached summary and every process's product memory follow.
 */
export function createReviewAdminService(db: Db, deps: ReviewAdminDeps) {
  async function one(dbx: Db | Tx, ctx: RequestContext, reviewId: string, lock = false): Promise<Row> {
    const q = dbx
      .select(columns)
      .from(rv)
      .innerJoin(p, and(eq(p.tenantId, rv.tenantId), eq(p.productId, rv.productId)))
      .where(and(eq(rv.tenantId, ctx.tenantId), eq(rv.reviewId, reviewId)));
    const [row] = lock ? await q.for('update', { of: rv }) : await q;
    if (!row) throw AppError.notFound('No such review in this store.');
    return row;
  }

  async function move(ctx: RequestContext, reviewId: string, to: ReviewStatus): Promise<ReviewAdminItem> {
    requireAccess(ctx, 'catalog');
    return deps.events.transaction(async (tx) => {
      const row = await one(tx, ctx, reviewId, true);
      if (row.status === to) return toItem(row);
      if (!canMoveReview(row.status, to)) {
        throw new AppError(409, 'CONFLICT', `A ${row.status.toLowerCase()} review cannot be ${to.toLowerCase()}.`);
      }
      await tx
        .update(rv)
        .set({ status: to })
        .where(and(eq(rv.tenantId, ctx.tenantId), eq(rv.reviewId, reviewId)));
      await deps.audit.record(tx, ctx, {
        entity: 'review',
        entityId: reviewId,
        action: to === 'HIDDEN' ? 'hide' : 'publish',
        before: { status: row.status },
        after: { status: to },
      });
      deps.events.emitAfterCommit(tx, 'review.changed', { tenantId: ctx.tenantId, productId: row.productId });
      return toItem({ ...row, status: to });
    });
  }

  return {
    /** The store's reviews, newest first, filtered and searched; keyset pages. */
    async list(ctx: RequestContext, query: ReviewAdminQuery): Promise<ReviewAdminPage> {
      requireAccess(ctx, 'catalog');
      const limit = query.limit ?? REVIEW_ADMIN_PAGE_SIZE;
      const where: (SQL | undefined)[] = [eq(rv.tenantId, ctx.tenantId)];
      if (query.status === 'HIDDEN') where.push(inArray(rv.status, ['HIDDEN', 'REJECTED']));
      else if (query.status) where.push(eq(rv.status, query.status));
      if (query.rating) where.push(eq(rv.rating, query.rating));
      if (query.productId) where.push(eq(rv.productId, query.productId));
      const q = query.q?.trim().toLowerCase();
      if (q) {
        const pattern = `%${likeEscape(q)}%`;
        where.push(
          or(
            sql`lower(coalesce(${rv.title}, '')) LIKE ${pattern}`,
            sql`lower(coalesce(${rv.body}, '')) LIKE ${pattern}`,
            sql`lower(${rv.authorName}) LIKE ${pattern}`,
            sql`lower(${p.productName}) LIKE ${pattern}`,
          ),
        );
      }
      if (query.cursor) {
        const { at, id } = decodeTimeCursor(query.cursor);
        where.push(or(lt(rv.createdAt, at), and(eq(rv.createdAt, at), lt(rv.reviewId, id))));
      }
      const rows = await db
        .select(columns)
        .from(rv)
        .innerJoin(p, and(eq(p.tenantId, rv.tenantId), eq(p.productId, rv.productId)))
        .where(and(...where))
        .orderBy(desc(rv.createdAt), desc(rv.reviewId))
        .limit(limit + 1);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        items: page.map(toItem),
        nextCursor: rows.length > limit && last ? encodeTimeCursor(last.createdAt, last.reviewId) : null,
      };
    },

    /** Products that have reviews, for the list's product filter. */
    async reviewedProducts(ctx: RequestContext): Promise<{ productId: string; productName: string }[]> {
      requireAccess(ctx, 'catalog');
      return db
        .selectDistinct({ productId: p.productId, productName: p.productName })
        .from(rv)
        .innerJoin(p, and(eq(p.tenantId, rv.tenantId), eq(p.productId, rv.productId)))
        .where(eq(rv.tenantId, ctx.tenantId))
        .orderBy(asc(p.productName), asc(p.productId))
        .limit(500);
    },

    get(ctx: RequestContext, reviewId: string) {
      requireAccess(ctx, 'catalog');
      return one(db, ctx, reviewId).then(toItem);
    },

    publish: (ctx: RequestContext, reviewId: string) => move(ctx, reviewId, 'PUBLISHED'),
    hide: (ctx: RequestContext, reviewId: string) => move(ctx, reviewId, 'HIDDEN'),

    /** Writes or rewrites the store's reply under the review. */
    async reply(ctx: RequestContext, reviewId: string, text: string): Promise<ReviewAdminItem> {
      requireAccess(ctx, 'catalog');
      return deps.events.transaction(async (tx) => {
        const row = await one(tx, ctx, reviewId, true);
        if (row.replyBody === text) return toItem(row);
        const at = new Date();
        await tx
          .update(rv)
          .set({ replyBody: text, repliedAt: at, repliedBy: ctx.actor.userId, repliedByName: ctx.actor.firstName })
          .where(and(eq(rv.tenantId, ctx.tenantId), eq(rv.reviewId, reviewId)));
        await deps.audit.record(tx, ctx, {
          entity: 'review',
          entityId: reviewId,
          action: row.replyBody ? 'edit_reply' : 'reply',
          before: { reply: row.replyBody },
          after: { reply: text },
        });
        deps.events.emitAfterCommit(tx, 'review.changed', { tenantId: ctx.tenantId, productId: row.productId });
        return toItem({ ...row, replyBody: text, repliedAt: at, repliedByName: ctx.actor.firstName });
      });
    },

    /** Takes the store's reply away; nothing to take is no change. */
    async deleteReply(ctx: RequestContext, reviewId: string): Promise<ReviewAdminItem> {
      requireAccess(ctx, 'catalog');
      return deps.events.transaction(async (tx) => {
        const row = await one(tx, ctx, reviewId, true);
        if (row.replyBody === null) return toItem(row);
        await tx
          .update(rv)
          .set({ replyBody: null, repliedAt: null, repliedBy: null, repliedByName: null })
          .where(and(eq(rv.tenantId, ctx.tenantId), eq(rv.reviewId, reviewId)));
        await deps.audit.record(tx, ctx, {
          entity: 'review',
          entityId: reviewId,
          action: 'delete_reply',
          before: { reply: row.replyBody },
          after: { reply: null },
        });
        deps.events.emitAfterCommit(tx, 'review.changed', { tenantId: ctx.tenantId, productId: row.productId });
        return toItem({ ...row, replyBody: null, repliedAt: null, repliedByName: null });
      });
    },
  };
}

export type ReviewAdminService = ReturnType<typeof createReviewAdminService>;
