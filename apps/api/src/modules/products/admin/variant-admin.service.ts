import type {
  ProductOptionsInput,
  ProductVariantsView,
  ProductVariantWrite,
  VariantDeleteResult,
} from '@app/contracts';
import type { Db, Tx } from '@app/db';
import { requireAccess } from '../../../lib/access';
import type { RequestContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import type { EventBus } from '../../../lib/events/index';
import { ok, type Result, returnRefusals } from '../../../lib/result';
import { isPlainObject, takeReadOnly } from '../../../lib/write-back';
import type { AuditService } from '../../audit/index';
import { writeOptions } from './option-writer';
import { readVariants } from './variant-view';
import { addVariant, removeVariant, updateVariant, variantOfProduct } from './variant-writer';

/** What a variant's read answers and a write does not take: accepted back when unchanged. */
const VARIANT_READ_ONLY = ['productId', 'title', 'removed'] as const;

export interface VariantAdminDeps {
  audit: AuditService;
  events: EventBus;
}

/**
 * The owner's variant API (decision 112): options, and variants one at a time. Each write is one
 * transaction with its audit entry and emits `catalog.changed` (and `stock.changed` when a count
 * moved) after commit; each answers with the product's options and variants as they are now.
 */
export function createVariantAdminService(db: Db, deps: VariantAdminDeps) {
  const { audit, events } = deps;

  async function write<T>(
    ctx: RequestContext,
    productId: string,
    step: (tx: Tx) => Promise<{ stockMoved: boolean; extra?: T }>,
  ): Promise<Result<{ view: ProductVariantsView; extra?: T }>> {
    requireAccess(ctx, 'catalog');
    return returnRefusals(async () => {
      const extra = await events.transaction(async (tx) => {
        const done = await step(tx);
        events.emitAfterCommit(tx, 'catalog.changed', { tenantId: ctx.tenantId, productIds: [productId] });
        if (done.stockMoved)
          events.emitAfterCommit(tx, 'stock.changed', { tenantId: ctx.tenantId, productIds: [productId] });
        return done.extra;
      });
      const view = await readVariants(db, ctx.tenantId, productId);
      if (!view) throw AppError.notFound('This product does not exist.');
      return ok({ view, extra });
    });
  }

  return {
    /** The product's options and variants; null when it is not this store's. */
    async view(ctx: RequestContext, productId: string): Promise<ProductVariantsView | null> {
      requireAccess(ctx, 'catalog');
      return readVariants(db, ctx.tenantId, productId);
    },

    /** 404 before the body is judged: the product, and the variant when one is named, must be this store's. */
    async assertVariant(ctx: RequestContext, productId: string, variantId?: string): Promise<void> {
      requireAccess(ctx, 'catalog');
      if (variantId === undefined) {
        if (!(await readVariants(db, ctx.tenantId, productId))) throw AppError.notFound('This product does not exist.');
        return;
      }
      if (!(await variantOfProduct(db, ctx.tenantId, productId, variantId))) {
        throw AppError.notFound('This product has no such variant.');
      }
    },

    /**
     * A variant as the GET answers it, sent back to its PUT: `productId`, `title` and `removed` are the
     * read's, taken when equal to the variant's (else 400 naming the field) and dropped; the rest is the
     * write's own shape. The title follows the values, so a variant moved to other values leaves it out.
     */
    async writeBackVariant(ctx: RequestContext, productId: string, variantId: string, body: unknown) {
      if (!isPlainObject(body) || !VARIANT_READ_ONLY.some((k) => k in body)) return body;
      const view = await readVariants(db, ctx.tenantId, productId);
      const current = view?.variants.find((v) => v.variantId === variantId);
      if (!current) return body;
      return takeReadOnly(body, current as unknown as Record<string, unknown>, VARIANT_READ_ONLY);
    },

    async writeOptions(ctx: RequestContext, productId: string, input: ProductOptionsInput) {
      const r = await write(ctx, productId, async (tx) => {
        await writeOptions(tx, ctx, { audit }, productId, input);
        return { stockMoved: false };
      });
      return r.ok ? ok(r.value.view) : r;
    },

    async addVariant(ctx: RequestContext, productId: string, input: ProductVariantWrite) {
      const r = await write(ctx, productId, async (tx) => {
        const done = await addVariant(tx, ctx, { audit }, productId, input);
        return { stockMoved: done.stockMoved, extra: done.variantId };
      });
      return r.ok ? ok({ view: r.value.view, variantId: r.value.extra as string }) : r;
    },

    async updateVariant(ctx: RequestContext, productId: string, variantId: string, input: ProductVariantWrite) {
      const r = await write(ctx, productId, async (tx) =>
        updateVariant(tx, ctx, { audit }, productId, variantId, input),
      );
      return r.ok ? ok(r.value.view) : r;
    },

    async removeVariant(
      ctx: RequestContext,
      productId: string,
      variantId: string,
    ): Promise<Result<VariantDeleteResult>> {
      const r = await write(ctx, productId, async (tx) => {
        const done = await removeVariant(tx, ctx, { audit }, productId, variantId);
        return { stockMoved: done.stockMoved, extra: done.outcome };
      });
      return r.ok ? ok({ outcome: r.value.extra as VariantDeleteResult['outcome'], view: r.value.view }) : r;
    },
  };
}

export type VariantAdminService = ReturnType<typeof createVariantAdminService>;
