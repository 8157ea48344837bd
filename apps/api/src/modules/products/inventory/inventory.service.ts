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
import { and, asc, desc, eq, gt, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import { requireAccess } from '../../../lib/access';
import type { RequestContext, TenantContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import type { EventBus } from '../../../lib/events/index';
import { isCursorTime } from '../../../lib/keyset-cursor';
import { type Ok, ok, type Refusal, Refused, type Result, refuseField, returnRefusals } from '../../../lib/result';
import { absoluteMediaUrl } from '../../../lib/urls';
import type { AuditService } from '../../audit/index';
import { writeLowStockThreshold } from '../../tenant/index';
import { changeStock } from './stock';

const p = schema.products;
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
/** Adjusting stock by hand: it would leave less than none (decision 088), on the `delta` or `set` field. */
export type AdjustStockRefusal = Refusal<'UNPROCESSABLE'>;

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

function itemOf(ctx: TenantContext, r: typeof p.$inferSelect | ItemRow): InventoryItem {
  return {
    productId: r.productId,
    productName: r.productName,
    sku: r.sku,
    status: r.status,
    stock: r.stockQuantity,
    imageUrl: absoluteMediaUrl(ctx, r.smallImageUrl) ?? null,
  };
}
type ItemRow = Pick<
  typeof p.$inferSelect,
  'productId' | 'productName' | 'sku' | 'status' | 'stockQuantity' | 'smallImageUrl'
>;
const itemColumns = {
  productId: p.productId,
  productName: p.productName,
  sku: p.sku,
  status: p.status,
  stockQuantity: p.stockQuantity,
  smallImageUrl: p.smallImageUrl,
};

/**
 * The owner's inventory: stock per product, its books, adjustments by hand and the
 * store's low-stock threshold. Every change goes through changeStock (the one writer of stock), is
 * audited in its own transaction and announced with `stock.changed` once committed.
 */
export function createInventoryService(db: Db, deps: InventoryDeps, thresholds: Thresholds = createThresholds(db)) {
  async function productRow(ctx: TenantContext, productId: string) {
    const [row] = await db
      .select(itemColumns)
      .from(p)
      .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, productId)));
    if (!row) throw AppError.notFound('No such product in this store.');
    return row;
  }

  return {
    thresholds,

    /** Products with their stock, fewest first (or most), filtered and searched; keyset pages. */
    async list(ctx: RequestContext, query: InventoryListQuery): Promise<InventoryPage> {
      requireAccess(ctx, 'catalog');
      const threshold = await thresholds.get(ctx);
      const limit = query.limit ?? INVENTORY_PAGE_SIZE;
      const descending = query.sort === 'stock-desc';
      const where: (SQL | undefined)[] = [eq(p.tenantId, ctx.tenantId)];
      if (query.stock === 'out') where.push(lte(p.stockQuantity, 0));
      if (query.stock === 'in') where.push(gt(p.stockQuantity, 0));
      if (query.stock === 'low') where.push(gt(p.stockQuantity, 0), lte(p.stockQuantity, threshold));
      const q = query.q?.trim().toLowerCase();
      if (q) {
        // The name through its trigram index; a SKU by its start (SKUs are typed from a label).
        const pattern = likeEscape(q);
        where.push(or(sql`lower(${p.productName}) LIKE ${`%${pattern}%`}`, sql`lower(${p.sku}) LIKE ${`${pattern}%`}`));
      }
      if (query.cursor) {
        const [stock, id] = decode(query.cursor, ['number', 'string']) as [number, string];
        where.push(
          descending
            ? or(lt(p.stockQuantity, stock), and(eq(p.stockQuantity, stock), gt(p.productId, id)))
            : or(gt(p.stockQuantity, stock), and(eq(p.stockQuantity, stock), gt(p.productId, id))),
        );
      }
      const rows = await db
        .select(itemColumns)
        .from(p)
        .where(and(...where))
        .orderBy(descending ? desc(p.stockQuantity) : asc(p.stockQuantity), asc(p.productId))
        .limit(limit + 1);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        items: page.map((r) => itemOf(ctx, r)),
        nextCursor: rows.length > limit && last ? encode([last.stockQuantity, last.productId]) : null,
        lowStockThreshold: threshold,
      };
    },

    /** A product's stock and its books, newest first; another store's product is not found. */
    async history(
      ctx: RequestContext,
      productId: string,
      opts: { cursor?: string | null | undefined; limit?: number | undefined } = {},
    ): Promise<StockHistory> {
      requireAccess(ctx, 'catalog');
      const product = await productRow(ctx, productId);
      const limit = opts.limit ?? STOCK_HISTORY_PAGE_SIZE;
      const where: (SQL | undefined)[] = [eq(sm.tenantId, ctx.tenantId), eq(sm.productId, productId)];
      if (opts.cursor) {
        const [at, id] = decode(opts.cursor, ['string', 'string']) as [string, string];
        if (!isCursorTime(at)) decode('', ['string']);
        const when = new Date(at);
        where.push(or(lt(sm.createdAt, when), and(eq(sm.createdAt, when), lt(sm.movementId, id))));
      }
      const rows = await db
        .select()
        .from(sm)
        .where(and(...where))
        .orderBy(desc(sm.createdAt), desc(sm.movementId))
        .limit(limit + 1);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        product: itemOf(ctx, product),
        lowStockThreshold: await thresholds.get(ctx),
        movements: page.map(
          (m): StockMovement => ({
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
          }),
        ),
        nextCursor: rows.length > limit && last ? encode([last.createdAt.toISOString(), last.movementId]) : null,
      };
    },

    /**
     * An adjustment by hand: by a delta or to a count, with a reason and a note. Refused (422 naming
     * the field) when it would leave less than none; one audit entry; `stock.changed` after commit.
     */
    async adjust(
      ctx: RequestContext,
      productId: string,
      input: StockAdjust,
    ): Promise<Result<StockAdjustResult, AdjustStockRefusal>> {
      requireAccess(ctx, 'catalog');
      const note = input.note?.trim() || null;
      const change =
        input.set !== undefined
          ? { productId, set: input.set, reason: input.reason, note }
          : { productId, delta: input.delta ?? 0, reason: input.reason, note };
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
              .select({ n: p.stockQuantity })
              .from(p)
              .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, productId)));
            const n = row?.n ?? 0;
            return ok({ productId, before: n, after: n, delta: 0 });
          }
          await deps.audit.record(tx, ctx, {
            entity: 'product',
            entityId: productId,
            action: 'adjust_stock',
            before: { stock: moved.before },
            after: { stock: moved.after, reason: input.reason, note },
          });
          deps.events.emitAfterCommit(tx, 'stock.changed', { tenantId: ctx.tenantId, productIds: [productId] });
          return ok({ productId, before: moved.before, after: moved.after, delta: moved.delta });
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
