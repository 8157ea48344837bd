import { randomBytes } from 'node:crypto';
import type { StockReason } from '@app/contracts';
import type { Tx } from '@app/db';
import { type SQL, sql } from 'drizzle-orm';
import type { RequestContext, TenantContext } from '../../../lib/context';

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
 * who) in the caller's transaction. Products are locked in id order, so two transactions touching
 * the same products take their row locks in the same order and cannot deadlock.
 *
 * Set-based: all the changes are one statement (lock, read the counts before, check, write) and the
 * movements are written by the same statement, whatever their number (a CSV import batch moves a hundred
 * products at once).
 * A product named twice is changed twice, in id order, as if one after the other (one more statement
 * per repeat).
 *
 * All or nothing: when a take would leave less than none, or a product is not this store's, the
 * result says so (the first such product in id order) and nothing was written. An unchanged count
 * (delta 0, or set to what it is) writes no movement.
 *
 * The caller emits `stock.changed` with the moved ids after its transaction commits.
 *
 * Behind it the database keeps the books whoever writes: `products_stock_ck` (never below zero) and
 * `stock_movements_books_ck` (after = before + delta, never below zero) refuse the statement
 * otherwise (products/database-rules.test.ts shows both).
 */
export async function changeStock(
  tx: Tx,
  ctx: TenantContext | RequestContext,
  changes: readonly StockChange[],
): Promise<StockResult> {
  const ordered = [...changes].sort(byProduct);
  // Rounds without a repeated product: one UPDATE cannot change a row twice.
  const rounds: StockChange[][] = [];
  for (const c of ordered) {
    const round = rounds.find((r) => !r.some((x) => x.productId === c.productId));
    if (round) round.push(c);
    else rounds.push([c]);
  }
  const moved: StockMoved[] = [];
  for (const round of rounds) {
    const result = verdictOf(round, await tx.execute(roundSql(ctx, round)));
    // A refused round wrote nothing; an earlier round's rows are the caller's to roll back.
    if (!result.ok) return result;
    moved.push(...result.moved);
  }
  return { ok: true, moved };
}

/**
 * changeStock's one statement with more writes in it: `alongside` gets the condition "every change
 * is possible" and returns data-modifying statements (insertWhere's, say) that the statement runs
 * as parts of its WITH. So the changes and those writes happen together or not at all, in one
 * statement, with or without a transaction around it. Each product at most once in `changes`.
 * `at`: the statement's `now()`, which columns defaulting to `now()` were given.
 */
export async function changeStockAlong(
  db: Pick<Tx, 'execute'>,
  ctx: TenantContext | RequestContext,
  changes: readonly StockChange[],
  alongside: (ok: SQL) => SQL[],
): Promise<StockResult & { at: Date }> {
  const round = [...changes].sort(byProduct);
  if (round.some((c, i) => i > 0 && round[i - 1]?.productId === c.productId)) {
    throw new Error('changeStockAlong: a product named twice');
  }
  const rows = await db.execute(roundSql(ctx, round, alongside(sql`(SELECT ok FROM verdict)`)));
  const at = new Date((rowsOf(rows)[0]?.at as string | Date | undefined) ?? Date.now());
  return { ...verdictOf(round, rows), at };
}

const byProduct = (a: StockChange, b: StockChange) =>
  a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0;

type RoundRow = { product_id: string; before: number | null; after: number | null; ok: boolean; at: string | Date };
const rowsOf = (result: unknown) => (result as { rows: RoundRow[] }).rows;

/**
 * One statement: lock the rows in id order and read the counts before; write the counts and
 * their movements only when every change is possible (the check runs under the row locks, so
 * concurrent takers serialise). An unchanged count writes no movement. `alongside`: more writes,
 * each a part of the WITH, already conditioned on the verdict by the caller.
 */
function roundSql(ctx: TenantContext | RequestContext, round: StockChange[], alongside: SQL[] = []): SQL {
  const who = actorOf(ctx);
  const requestId = 'requestId' in ctx ? ctx.requestId : null;
  const input = sql.join(
    round.map(
      (c) =>
        sql`(${c.productId}::text, ${c.set !== undefined}::boolean, ${Math.trunc(c.set ?? c.delta ?? 0)}::integer, ${randomBytes(12).toString('base64url')}::text, ${c.reason}::text, ${c.note ?? null}::text, ${c.orderId ?? null}::text, ${c.returnId ?? null}::text)`,
    ),
    sql`, `,
  );
  const more = alongside.map((part, i) => sql`, ${sql.raw(`alongside_${i}`)} AS (${part})`);
  return sql`
      WITH input(product_id, is_set, amount, movement_id, reason, note, order_id, return_id) AS (VALUES ${input}),
      old AS (
        SELECT product_id, stock_quantity FROM products
        WHERE tenant_id = ${ctx.tenantId} AND product_id IN (SELECT product_id FROM input)
        ORDER BY product_id
        FOR UPDATE
      ),
      calc AS (
        SELECT i.product_id, o.stock_quantity AS before,
          CASE WHEN i.is_set THEN i.amount ELSE o.stock_quantity + i.amount END AS after
        FROM input i LEFT JOIN old o ON o.product_id = i.product_id
      ),
      verdict AS (SELECT NOT EXISTS (SELECT 1 FROM calc WHERE before IS NULL OR after < 0) AS ok),
      written AS (
        UPDATE products SET stock_quantity = calc.after
        FROM calc, verdict
        WHERE verdict.ok AND products.tenant_id = ${ctx.tenantId} AND products.product_id = calc.product_id
          AND calc.after <> calc.before
        RETURNING products.product_id
      ),
      books AS (
        INSERT INTO stock_movements (tenant_id, movement_id, product_id, delta, quantity_before, quantity_after,
          reason, note, order_id, return_id, actor_id, actor_name, request_id)
        SELECT ${ctx.tenantId}, i.movement_id, calc.product_id, calc.after - calc.before, calc.before, calc.after,
          i.reason, i.note, i.order_id, i.return_id, ${who.actorId}::text, ${who.actorName}::text, ${requestId}::text
        FROM calc JOIN input i ON i.product_id = calc.product_id, verdict
        WHERE verdict.ok AND calc.after <> calc.before
        RETURNING product_id
      )${sql.join(more)}
      SELECT calc.product_id, calc.before, calc.after, verdict.ok, now() AS at FROM calc, verdict`;
}

/** What a round's statement answered: its moves, or why nothing was written. */
function verdictOf(round: StockChange[], result: unknown): StockResult {
  const got = rowsOf(result);
  const byId = new Map(got.map((r) => [r.product_id, r]));
  if (!got[0]?.ok) {
    for (const c of round) {
      const r = byId.get(c.productId);
      if (!r || r.before === null) return { ok: false, code: 'PRODUCT_NOT_FOUND', productId: c.productId };
      const available = Number(r.before);
      if (Number(r.after) < 0) {
        return {
          ok: false,
          code: 'INSUFFICIENT_STOCK',
          productId: c.productId,
          available,
          wanted: c.set !== undefined ? available - c.set : -(c.delta ?? 0),
        };
      }
    }
    throw new Error('changeStock: refused without a reason');
  }
  const moved: StockMoved[] = [];
  for (const c of round) {
    const r = byId.get(c.productId);
    const before = Number(r?.before);
    const after = Number(r?.after);
    if (before === after) continue;
    moved.push({ productId: c.productId, before, after, delta: after - before });
  }
  return { ok: true, moved };
}
