import {
  INVENTORY_PAGE_SIZE,
  type InventoryItem,
  type InventoryListQuery,
  type InventoryPage,
  STOCK_HISTORY_PAGE_SIZE,
  type StockAdjust,
  type StockAdjustResult,
  type StockHistory,
  type StockMovement,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, desc, eq, gt, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import { requireAccess } from '../../../lib/access';
import type { RequestContext, TenantContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import type { EventBus } from '../../../lib/events/index';
import { isCursorTime } from '../../../lib/keyset-cursor';
import {
  type Ok,
  ok,
  type Refusal,
  Refused,
  type Result,
  refuse,
  refuseField,
  returnRefusals,
} from '../../../lib/result';
import { absoluteMediaUrl } from '../../../lib/urls';
import type { AuditService } from '../../audit/index';
import { writeLowStockThreshold } from '../../tenant/index';
import { changeStock } from './stock';

const p = schema.products;
const v = schema.productVariants;
const sm = schema.stockMovements;
const ps = schema.productStores;

/** The default of product_stores.low_stock_threshold, for a store row that cannot be read. */
const DEFAULT_THRESHOLD = 5;

export interface InventoryDeps {
  audit: AuditService;
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
}

/** Cursors are opaque to clients: the last row's sort key and id. */
function encode(parts: (string | number)[]) {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}
function decode(cursor: string, shape: readonly ('string' | 'number')[]): (string | number)[] {
  try {
    const parts = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown;
    if (Array.isArray(parts) && parts.length === shape.length && parts.every((v, i) => typeof v === shape[i])) {
      return parts as (string | number)[];
    }
  } catch {
    // falls through to the refusal
  }
  throw AppError.field(400, 'BAD_REQUEST', 'cursor', 'not a cursor of this list; start again without it.');
}

/** `%`, `_` and `\` are taken literally in a LIKE pattern. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The store's low-stock threshold (product_stores.low_stock_threshold), which the dashboard, the
 * inventory's "low" filter and the storefront's "only N left" use. Kept in memory per store and
 * forgotten when the store's settings or catalog change (events reach every process).
 */
/**
 * Adjusting stock by hand: it would leave less than none (decision 088), on the `delta` or `set`
 * field; or no variant was named for a product with several (decision 112).
 */
export type AdjustStockRefusal = Refusal<'UNPROCESSABLE' | 'VARIANT_REQUIRED'>;

export function createThresholds(db: Db) {
  const known = new Map<string, number>();
  const key = (ctx: TenantContext) => `${ctx.tenantId}\u0000${ctx.productStoreId}`;
  return {
    async get(ctx: TenantContext): Promise<number> {
      const hit = known.get(key(ctx));
      if (hit !== undefined) return hit;
      const [row] = await db
        .select({ n: ps.lowStockThreshold })
        .from(ps)
        .where(and(eq(ps.tenantId, ctx.tenantId), eq(ps.productStoreId, ctx.productStoreId)));
      const n = row?.n ?? DEFAULT_THRESHOLD;
      known.set(key(ctx), n);
      return n;
    },
    forget(tenantId: string) {
      for (const k of known.keys()) if (k.startsWith(`${tenantId}\u0000`)) known.delete(k);
    },
    clear() {
      known.clear();
    },
  };
}
export type Thresholds = ReturnType<typeof createThresholds>;

function itemOf(ctx: TenantContext, r: ItemRow): InventoryItem {
  return {
    productId: r.productId,
    productName: r.productName,
    sku: r.sku,
    status: r.status,
    stock: r.stockQuantity,
    imageUrl: absoluteMediaUrl(ctx, r.smallImageUrl) ?? null,
    variantId: r.variantId,
    variantTitle: r.variantTitle,
    enabled: r.enabled,
  };
}
type ItemRow = Pick<
  typeof p.$inferSelect,
  'productId' | 'productName' | 'sku' | 'status' | 'stockQuantity' | 'smallImageUrl'
> & { variantId: string | null; variantTitle: string; enabled: boolean };
/** A row per live variant: the variant's SKU, count and title beside its product's name and picture. */
const variantItemColumns = {
  productId: v.productId,
  productName: p.productName,
  sku: v.sku,
  status: p.status,
  stockQuantity: v.stockQuantity,
  smallImageUrl: p.smallImageUrl,
  variantId: v.variantId,
  variantTitle: v.title,
  enabled: v.enabled,
};
const productJoin = and(eq(p.tenantId, v.tenantId), eq(p.productId, v.productId));

/**
 * The owner's inventory: stock per product, its books, adjustments by hand and the
 * store's low-stock threshold. Every change goes through changeStock (the one writer of stock), is
 * audited in its own transaction and announced with `stock.changed` once committed.
 */
export function createInventoryService(db: Db, deps: InventoryDeps, thresholds: Thresholds = createThresholds(db)) {
  /** A product and its live variants in their order; 404 for a product not in this store. */
  async function productWithVariants(ctx: TenantContext, productId: string) {
    const rows = await db
      .select({
        productId: p.productId,
        productName: p.productName,
        productSku: p.sku,
        status: p.status,
        productStock: p.stockQuantity,
        smallImageUrl: p.smallImageUrl,
        variantId: v.variantId,
        title: v.title,
        sku: v.sku,
        stock: v.stockQuantity,
        enabled: v.enabled,
      })
      .from(p)
      .leftJoin(v, and(productJoin, isNull(v.removedAt)))
      .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, productId)))
      .orderBy(asc(v.position), asc(v.variantId));
    const [first] = rows;
    if (!first) throw AppError.notFound('No such product in this store.');
    const variants = rows.flatMap((r) =>
      r.variantId === null
        ? []
        : [
            {
              variantId: r.variantId,
              title: r.title ?? '',
              sku: r.sku ?? '',
              stock: r.stock ?? 0,
              enabled: !!r.enabled,
            },
          ],
    );
    return { product: first, variants };
  }

  return {
    thresholds,

    /** Products with their stock, fewest first (or most), filtered and searched; keyset pages. */
    async list(ctx: RequestContext, query: InventoryListQuery): Promise<InventoryPage> {
      requireAccess(ctx, 'catalog');
      const threshold = await thresholds.get(ctx);
      const limit = query.limit ?? INVENTORY_PAGE_SIZE;
      const descending = query.sort === 'stock-desc';
      // A row per live variant (decision 112): the key is (stock, variant id), which
      // product_variants_stock_idx (tenant_id, stock_quantity, variant_id) WHERE removed_at IS NULL reads in order.
      const where: (SQL | undefined)[] = [eq(v.tenantId, ctx.tenantId), isNull(v.removedAt)];
      if (query.stock === 'out') where.push(lte(v.stockQuantity, 0));
      if (query.stock === 'in') where.push(gt(v.stockQuantity, 0));
      // A disabled variant is not sold, so it is not "running out" (the dashboard's card agrees).
      if (query.stock === 'low')
        where.push(gt(v.stockQuantity, 0), lte(v.stockQuantity, threshold), eq(v.enabled, true));
      const q = query.q?.trim().toLowerCase();
      if (q) {
        // The name through its trigram index, a variant's title ("Brass"); a SKU by its start
        // (product_variants_sku_prefix_idx; SKUs are typed from a label).
        const pattern = likeEscape(q);
        where.push(
          or(
            sql`lower(${p.productName}) LIKE ${`%${pattern}%`}`,
            sql`lower(${v.title}) LIKE ${`%${pattern}%`}`,
            sql`lower(${v.sku}) LIKE ${`${pattern}%`}`,
          ),
        );
      }
      if (query.cursor) {
        // A cursor of the list by product still reads: a product's default variant has its id. A row
        // comparison, so the index bounds the scan (an OR of the two would only filter it).
        const [stock, id] = decode(query.cursor, ['number', 'string']) as [number, string];
        where.push(
          descending
            ? sql`(${v.stockQuantity}, ${v.variantId}) < (${stock}, ${id})`
            : sql`(${v.stockQuantity}, ${v.variantId}) > (${stock}, ${id})`,
        );
      }
      const rows = await db
        .select(variantItemColumns)
        .from(v)
        .innerJoin(p, productJoin)
        .where(and(...where))
        .orderBy(
          ...(descending ? [desc(v.stockQuantity), desc(v.variantId)] : [asc(v.stockQuantity), asc(v.variantId)]),
        )
        .limit(limit + 1);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        items: page.map((r) => itemOf(ctx, r)),
        nextCursor: rows.length > limit && last ? encode([last.stockQuantity, last.variantId]) : null,
        lowStockThreshold: threshold,
      };
    },

    /**
     * A product's stock and its books, newest first, each movement naming its variant; with
     * `variantId`, that variant's count and movements only. Another store's product, or a variant that
     * is not one of the product's live variants, is not found.
     */
    async history(
      ctx: RequestContext,
      productId: string,
      opts: { cursor?: string | null | undefined; limit?: number | undefined; variantId?: string | undefined } = {},
    ): Promise<StockHistory> {
      requireAccess(ctx, 'catalog');
      const { product, variants } = await productWithVariants(ctx, productId);
      const chosen = opts.variantId ? variants.find((x) => x.variantId === opts.variantId) : undefined;
      if (opts.variantId && !chosen) throw AppError.notFound('No such variant of this product.');
      // The product as a whole has no one variant when it has several and none is chosen.
      const shown = chosen ?? (variants.length === 1 ? variants[0] : undefined);
      const limit = opts.limit ?? STOCK_HISTORY_PAGE_SIZE;
      const where: (SQL | undefined)[] = [eq(sm.tenantId, ctx.tenantId), eq(sm.productId, productId)];
      // stock_movements_variant_idx (tenant_id, variant_id, created_at) reads one variant's books.
      if (chosen) where.push(eq(sm.variantId, chosen.variantId));
      if (opts.cursor) {
        const [at, id] = decode(opts.cursor, ['string', 'string']) as [string, string];
        if (!isCursorTime(at)) decode('', ['string']);
        const when = new Date(at);
        where.push(or(lt(sm.createdAt, when), and(eq(sm.createdAt, when), lt(sm.movementId, id))));
      }
      const rows = await db
        .select({ m: sm, variantTitle: v.title })
        .from(sm)
        .leftJoin(v, and(eq(v.tenantId, sm.tenantId), eq(v.variantId, sm.variantId)))
        .where(and(...where))
        .orderBy(desc(sm.createdAt), desc(sm.movementId))
        .limit(limit + 1);
      const page = rows.slice(0, limit);
      const last = page.at(-1)?.m;
      return {
        product: itemOf(ctx, {
          productId: product.productId,
          productName: product.productName,
          sku: shown?.sku ?? product.productSku,
          status: product.status,
          stockQuantity: shown?.stock ?? product.productStock,
          smallImageUrl: product.smallImageUrl,
          variantId: shown?.variantId ?? null,
          variantTitle: shown?.title ?? '',
          enabled: shown?.enabled ?? true,
        }),
        variants,
        lowStockThreshold: await thresholds.get(ctx),
        movements: page.map(
          ({ m, variantTitle }): StockMovement => ({
            movementId: m.movementId,
            createdAt: m.createdAt.toISOString(),
            reason: m.reason,
            delta: m.delta,
            before: m.quantityBefore,
            after: m.quantityAfter,
            note: m.note,
            orderId: m.orderId,
            returnId: m.returnId,
            actor: { id: m.actorId, name: m.actorName },
            variantId: m.variantId,
            variantTitle: variantTitle ?? '',
          }),
        ),
        nextCursor: rows.length > limit && last ? encode([last.createdAt.toISOString(), last.movementId]) : null,
      };
    },

    /**
     * An adjustment by hand of one variant: by a delta or to a count, with a reason and a note.
     * `input.variantId` names one of the product's live variants (404 otherwise); without it the
     * product's only variant, and a product with several is refused with 422 VARIANT_REQUIRED naming
     * it. Refused (422 naming the field) when it would leave less than none; one audit entry;
     * `stock.changed` after commit.
     */
    async adjust(
      ctx: RequestContext,
      productId: string,
      input: StockAdjust,
    ): Promise<Result<StockAdjustResult, AdjustStockRefusal>> {
      requireAccess(ctx, 'catalog');
      const note = input.note?.trim() || null;
      const { product, variants } = await productWithVariants(ctx, productId);
      let variant = variants.length === 1 ? variants[0] : undefined;
      if (input.variantId) {
        variant = variants.find((x) => x.variantId === input.variantId);
        if (!variant) throw AppError.notFound('No such variant of this product.');
      } else if (variants.length > 1) {
        return refuse(
          422,
          'VARIANT_REQUIRED',
          `${product.productName} has ${variants.length} variants: choose the one to adjust (variantId).`,
        );
      }
      // No live variant at all (a product row without variants): changeStock answers for the product's id.
      const variantId = variant?.variantId ?? productId;
      const variantTitle = variant?.title ?? '';
      const change =
        input.set !== undefined
          ? { variantId, set: input.set, reason: input.reason, note }
          : { variantId, delta: input.delta ?? 0, reason: input.reason, note };
      return returnRefusals<Ok<StockAdjustResult>, AdjustStockRefusal>(() =>
        deps.events.transaction(async (tx) => {
          const result = await changeStock(tx, ctx, [change]);
          if (!result.ok) {
            if (result.code === 'PRODUCT_NOT_FOUND') throw AppError.notFound('No such product in this store.');
            throw new Refused(
              refuseField(
                422,
                'UNPROCESSABLE',
                input.set !== undefined ? 'set' : 'delta',
                `only ${result.available} in stock: taking ${result.wanted} would leave less than none.`,
              ),
            );
          }
          const moved = result.moved[0];
          if (!moved) {
            // A count equal to the stock: nothing moved, nothing to record or announce.
            const [row] = await tx
              .select({ n: v.stockQuantity })
              .from(v)
              .where(and(eq(v.tenantId, ctx.tenantId), eq(v.variantId, variantId)));
            const n = row?.n ?? 0;
            return ok({ productId, variantId, variantTitle, before: n, after: n, delta: 0 });
          }
          await deps.audit.record(tx, ctx, {
            entity: 'product',
            entityId: productId,
            action: 'adjust_stock',
            before: { stock: moved.before },
            after: {
              stock: moved.after,
              reason: input.reason,
              note,
              ...(variantTitle ? { variantId, variantTitle } : {}),
            },
          });
          deps.events.emitAfterCommit(tx, 'stock.changed', { tenantId: ctx.tenantId, productIds: [productId] });
          return ok({
            productId,
            variantId,
            variantTitle,
            before: moved.before,
            after: moved.after,
            delta: moved.delta,
          });
        }),
      );
    },

    async threshold(ctx: RequestContext): Promise<{ lowStockThreshold: number }> {
      requireAccess(ctx, 'catalog');
      const [row] = await db
        .select({ n: ps.lowStockThreshold })
        .from(ps)
        .where(and(eq(ps.tenantId, ctx.tenantId), eq(ps.productStoreId, ctx.productStoreId)));
      return { lowStockThreshold: row?.n ?? DEFAULT_THRESHOLD };
    },

    /**
     * The store's low-stock threshold. Every card's "only N left" depends on it, so the whole
     * catalog is announced as changed (cards and the public cache are read afresh on every process).
     */
    async setThreshold(ctx: RequestContext, lowStockThreshold: number): Promise<{ lowStockThreshold: number }> {
      requireAccess(ctx, 'catalog');
      await deps.events.transaction(async (tx) => {
        // The store's row is the tenant domain's: it writes the threshold (decision 110).
        const old = await writeLowStockThreshold(tx, ctx, lowStockThreshold);
        if (old === null) throw AppError.notFound('No such store.');
        if (old === lowStockThreshold) return;
        await deps.audit.record(tx, ctx, {
          entity: 'store.settings',
          entityId: ctx.productStoreId,
          action: 'update',
          before: { lowStockThreshold: old },
          after: { lowStockThreshold },
        });
        deps.events.emitAfterCommit(tx, 'settings.changed', { tenantId: ctx.tenantId, what: 'low_stock_threshold' });
        deps.events.emitAfterCommit(tx, 'catalog.changed', { tenantId: ctx.tenantId });
      });
      return { lowStockThreshold };
    },
  };
}

export type InventoryService = ReturnType<typeof createInventoryService>;
