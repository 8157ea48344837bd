import { randomBytes } from 'node:crypto';
import type { OrderStatus, Review, ReviewCreate, ReviewEligibility } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, desc, eq, getTableColumns, inArray } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';
import { AppError, isUniqueViolation } from '../../lib/errors';
import type { Emitter } from '../../lib/events/index';
import { ok, type Refusal, type Result, refuse } from '../../lib/result';
import { boughtVariantSql } from './bought-variant';

const rv = schema.productReviews;
const p = schema.products;
const o = schema.orders;
const ol = schema.orderLines;

/** A paid order proves the purchase; one that was cancelled or refunded does not. */
export const REVIEWABLE_ORDER_STATUSES: readonly OrderStatus[] = ['paid', 'fulfilled', 'delivered', 'completed'];

const toReview = (r: typeof rv.$inferSelect, boughtVariant: string | null): Review => ({
  reviewId: r.reviewId,
  productId: r.productId,
  authorName: r.authorName,
  rating: r.rating,
  title: r.title,
  body: r.body,
  createdAt: r.createdAt.toISOString(),
  boughtVariant,
});

/** "Sam S.": the account's first name and the initial of the last, never the whole name. */
export function reviewAuthorName(firstName: string, lastName: string): string {
  const first = firstName.trim() || 'Customer';
  const initial = lastName.trim().charAt(0).toUpperCase();
  return initial ? `${first} ${initial}.` : first;
}

/** Writing a review: this shopper reviewed the product already, or none of their paid orders has it. */
export type WriteReviewRefusal = Refusal<'ALREADY_REVIEWED' | 'REVIEW_NOT_ALLOWED'>;

export interface ReviewsDeps {
  /** Told of each published review (`review.created`): cached answers must not keep the old summary. */
  events?: Emitter;
}

/**
 * Reviews written by shoppers. Only a shopper with a paid order of the product may write one, and only
 * one per product (the unique index on tenant, product and user backs that up under concurrency). A
 * second attempt is refused with 409 rather than replacing the first: what others have read stays put.
 * Reviews are published at once; the text is stored as written and escaped by whoever displays it.
 */
export function createReviewsService(db: Db, deps: ReviewsDeps = {}) {
  async function product(ctx: TenantContext, productId: string) {
    const [row] = await db
      .select({ productId: p.productId, productName: p.productName })
      .from(p)
      .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, productId)));
    if (!row) throw AppError.notFound(`Product ${productId} does not exist in this store.`);
    return row;
  }

  async function own(ctx: TenantContext, userId: string, productId: string) {
    const [row] = await db
      .select({ review: rv, boughtVariant: boughtVariantSql })
      .from(rv)
      .where(and(eq(rv.tenantId, ctx.tenantId), eq(rv.productId, productId), eq(rv.userId, userId)));
    return row ?? null;
  }

  /** The shopper's newest paid order that has the product, or null. */
  async function proof(ctx: TenantContext, userId: string, productId: string): Promise<string | null> {
    const [row] = await db
      .select({ orderId: o.orderId })
      .from(o)
      .innerJoin(ol, and(eq(ol.tenantId, o.tenantId), eq(ol.orderId, o.orderId)))
      .where(
        and(
          eq(o.tenantId, ctx.tenantId),
          eq(o.userId, userId),
          inArray(o.status, [...REVIEWABLE_ORDER_STATUSES]),
          eq(ol.productId, productId),
        ),
      )
      .orderBy(desc(o.placedAt))
      .limit(1);
    return row?.orderId ?? null;
  }

  return {
    /** Whether the shopper (null: nobody signed in) may review the product, and why not. */
    async eligibility(ctx: TenantContext, userId: string | null, productId: string): Promise<ReviewEligibility> {
      await product(ctx, productId);
      if (!userId) return { canReview: false, reason: 'sign-in', review: null };
      const mine = await own(ctx, userId, productId);
      if (mine)
        return { canReview: false, reason: 'already-reviewed', review: toReview(mine.review, mine.boughtVariant) };
      const orderId = await proof(ctx, userId, productId);
      return orderId
        ? { canReview: true, reason: null, review: null }
        : { canReview: false, reason: 'not-bought', review: null };
    },

    async create(ctx: TenantContext, userId: string, input: ReviewCreate): Promise<Result<Review, WriteReviewRefusal>> {
      const item = await product(ctx, input.productId);
      const already = () =>
        refuse(
          409,
          'ALREADY_REVIEWED',
          `You have already reviewed ${item.productName}; each shopper reviews a product once.`,
        );
      if (await own(ctx, userId, input.productId)) return already();
      const orderId = await proof(ctx, userId, input.productId);
      if (!orderId) {
        return refuse(
          403,
          'REVIEW_NOT_ALLOWED',
          `Only shoppers who bought ${item.productName} can review it, and none of your paid orders has it.`,
        );
      }
      const [user] = await db
        .select({ firstName: schema.users.firstName, lastName: schema.users.lastName })
        .from(schema.users)
        .where(and(eq(schema.users.tenantId, ctx.tenantId), eq(schema.users.userId, userId)));
      let row: (typeof rv.$inferSelect & { boughtVariant: string | null }) | undefined;
      try {
        [row] = await db
          .insert(rv)
          .values({
            tenantId: ctx.tenantId,
            reviewId: `RV-${randomBytes(8).toString('hex').toUpperCase()}`,
            productId: input.productId,
            userId,
            orderId,
            authorName: reviewAuthorName(user?.firstName ?? '', user?.lastName ?? ''),
            rating: input.rating,
            title: input.title,
            body: input.text,
            status: 'PUBLISHED',
          })
          .returning({ ...getTableColumns(rv), boughtVariant: boughtVariantSql });
      } catch (err) {
        // The same review sent twice at once: the unique index let one through.
        if (isUniqueViolation(err)) return already();
        throw err;
      }
      deps.events?.emit('review.created', { tenantId: ctx.tenantId, productId: input.productId });
      const written = row as typeof rv.$inferSelect & { boughtVariant: string | null };
      return ok(toReview(written, written.boughtVariant));
    },
  };
}

export type ReviewsService = ReturnType<typeof createReviewsService>;
