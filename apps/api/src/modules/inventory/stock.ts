import { randomBytes } from 'node:crypto';
import type { StockReason } from '@app/contracts';
import { schema, type Tx } from '@app/db';
import { sql } from 'drizzle-orm';
import type { RequestContext, TenantContext } from '../../lib/context';

const sm = schema.stockMovements;

/**
 * One change of one product's stock: by `delta` units (negative takes), or to exactly `set` units
 * (a count). Orders write SOLD and RELEASED; owners, bulk changes and imports write their reason.
 */
export type StockChange = {
  productId: string;
  reason: StockReason;
  note?: string | null;
  orderId?: string | null;
  returnId?: string | null;
} & ({ delta: number; set?: never } | { set: number; delta?: never });

export interface StockMoved {
  productId: string;
  before: number;
  after: number;
  delta: number;
}

export type StockResult =
  | { ok: true; moved: StockMoved[] }
  /** Nothing was written: taking `wanted` units would leave less than none (`available` left). */
  | { ok: false; code: 'INSUFFICIENT_STOCK'; productId: string; available: number; wanted: number }
  /** Nothing was written: no such product in this store. */
  | { ok: false; code: 'PRODUCT_NOT_FOUND'; productId: string };

function actorOf(ctx: TenantContext | RequestContext): { actorId: string | null; actorName: string | null } {
  if (!('actor' in ctx)) return { actorId: null, actorName: null };
  const a = ctx.actor;
  if (a.kind === 'staff' || a.kind === 'shopper') return { actorId: a.userId, actorName: a.firstName };
  if (a.kind === 'system') return { actorId: a.name, actorName: null };
  return { actorId: null, actorName: null };
}

/**
 * The one way stock changes (orders, cancels, returns, adjustments, bulk changes, imports), so the
 * books add up: each change updates the product's count and writes a movement (before, after, why,
 * who) in the caller's transaction. Products are changed in id order, so two transactions touching
 * the same products take their row locks in the same order and cannot deadlock.
 *
 * All or nothing: when a take would leave less than none, or a product is not this store's, the
 * result says so and the caller must roll back (the rows already changed in `tx` are not undone
 * here). An unchanged count (delta 0, or set to what it is) writes no movement.
 *
 * The caller emits `stock.changed` with the moved ids after its transaction commits.
 */
export async function changeStock(
  tx: Tx,
  ctx: TenantContext | RequestContext,
  changes: readonly StockChange[],
): Promise<StockResult> {
  const ordered = [...changes].sort((a, b) => (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0));
  const moved: StockMoved[] = [];
  const rows: (typeof sm.$inferInsert)[] = [];
  const who = actorOf(ctx);
  for (const c of ordered) {
    // One statement per product: lock, read the count before, write the new one. The WHERE keeps a
    // take from going below zero under concurrency (the row lock serialises the takers).
    const target =
      c.set !== undefined ? sql`${Math.trunc(c.set)}` : sql`old.stock_quantity + ${Math.trunc(c.delta ?? 0)}`;
    const result = await tx.execute(sql`
      WITH old AS (
        SELECT stock_quantity FROM products
        WHERE tenant_id = ${ctx.tenantId} AND product_id = ${c.productId}
        FOR UPDATE
      )
      UPDATE products SET stock_quantity = ${target}
      FROM old
      WHERE products.tenant_id = ${ctx.tenantId} AND products.product_id = ${c.productId} AND ${target} >= 0
      RETURNING old.stock_quantity AS before, products.stock_quantity AS after`);
    const row = (result as unknown as { rows: { before: number; after: number }[] }).rows[0];
    if (!row) {
      const found = await tx.execute(
        sql`SELECT stock_quantity FROM products WHERE tenant_id = ${ctx.tenantId} AND product_id = ${c.productId}`,
      );
      const [now] = (found as unknown as { rows: { stock_quantity: number }[] }).rows;
      if (!now) return { ok: false, code: 'PRODUCT_NOT_FOUND', productId: c.productId };
      return {
        ok: false,
        code: 'INSUFFICIENT_STOCK',
        productId: c.productId,
        available: Number(now.stock_quantity),
        wanted: c.set !== undefined ? Number(now.stock_quantity) - c.set : -(c.delta ?? 0),
      };
    }
    const before = Number(row.before);
    const after = Number(row.after);
    if (before === after) continue;
    moved.push({ productId: c.productId, before, after, delta: after - before });
    rows.push({
      tenantId: ctx.tenantId,
      movementId: randomBytes(12).toString('base64url'),
      productId: c.productId,
      delta: after - before,
      quantityBefore: before,
      quantityAfter: after,
      reason: c.reason,
      note: c.note ?? null,
      orderId: c.orderId ?? null,
      returnId: c.returnId ?? null,
      ...who,
      requestId: 'requestId' in ctx ? ctx.requestId : null,
    });
  }
  // All the books in one statement.
  if (rows.length) await tx.insert(sm).values(rows);
  return { ok: true, moved };
}
