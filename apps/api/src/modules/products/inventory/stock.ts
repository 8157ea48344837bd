import { randomBytes } from 'node:crypto';
import type { StockReason } from '@app/contracts';
import type { Tx } from '@app/db';
import { type SQL, sql } from 'drizzle-orm';
import type { RequestContext, TenantContext } from '../../../lib/context';

/**
 * One change of one variant's stock: by `delta` units (negative takes), or to exactly `set` units
 * (a count). Orders write SOLD and RELEASED; owners, bulk changes and imports write their reason.
 * The variant is named by `variantId`; `productId` names a product's default variant (whose id is
 * the product's, decision 112), so callers that know only products keep working for products with
 * one variant.
 */
export type StockChange = ({ variantId: string; productId?: never } | { productId: string; variantId?: never }) & {
  reason: StockReason;
  note?: string | null;
  orderId?: string | null;
  returnId?: string | null;
} & ({ delta: number; set?: never } | { set: number; delta?: never });

export interface StockMoved {
  productId: string;
  variantId: string;
  /** The variant's count before and after. */
  before: number;
  after: number;
  delta: number;
}

export type StockResult =
  | { ok: true; moved: StockMoved[] }
  /**
   * Nothing was written: taking `wanted` units of the variant would leave less than none (`available`
   * left). `variantTitle` is '' for a product's default variant.
   */
  | {
      ok: false;
      code: 'INSUFFICIENT_STOCK';
      productId: string;
      variantId: string;
      variantTitle: string;
      available: number;
      wanted: number;
    }
  /** Nothing was written: no such variant in this store (`productId` is the id given for it). */
  | { ok: false; code: 'PRODUCT_NOT_FOUND'; productId: string; variantId: string };

/** The variant a change names. */
const keyOf = (c: StockChange): string => (c.variantId ?? c.productId) as string;

function actorOf(ctx: TenantContext | RequestContext): { actorId: string | null; actorName: string | null } {
  if (!('actor' in ctx)) return { actorId: null, actorName: null };
  const a = ctx.actor;
  if (a.kind === 'staff' || a.kind === 'shopper') return { actorId: a.userId, actorName: a.firstName };
  if (a.kind === 'system') return { actorId: a.name, actorName: null };
  return { actorId: null, actorName: null };
}

/**
 * The one way stock changes (orders, cancels, returns, adjustments, bulk changes, imports), so the
 * books add up: each change updates the variant's count, adds its difference to its product's totals
 * (stock_quantity, and sellable_stock for an enabled live variant) and writes a movement naming the
 * variant (before, after, why, who) in the caller's transaction. The products of the variants are
 * locked first, in product id order, then the variants in (product id, variant id) order: two
 * transactions take their row locks in the same order and cannot deadlock, and the product's row is
 * still the one lock that serialises takes of its variants (decision 112).
 *
 * Set-based: all the changes are one statement (lock, read the counts before, check, write) and the
 * movements are written by the same statement, whatever their number (a CSV import batch moves a hundred
 * products at once).
 * A variant named twice is changed twice, in id order, as if one after the other (one more statement
 * per repeat).
 *
 * All or nothing: when a take would leave less than none, or a variant is not this store's, the
 * result says so (the first such variant in id order) and nothing was written. An unchanged count
 * (delta 0, or set to what it is) writes no movement.
 *
 * The caller emits `stock.changed` with the moved ids after its transaction commits.
 *
 * Behind it the database keeps the books whoever writes: `product_variants_stock_ck`,
 * `products_stock_ck` and `products_sellable_ck` (never below zero) and
 * `stock_movements_books_ck` (after = before + delta, never below zero) refuse the statement
 * otherwise (products/database-rules.test.ts shows both).
 */
export async function changeStock(
  tx: Tx,
  ctx: TenantContext | RequestContext,
  changes: readonly StockChange[],
): Promise<StockResult> {
  const ordered = [...changes].sort(byVariant);
  // Rounds without a repeated variant: one UPDATE cannot change a row twice.
  const rounds: StockChange[][] = [];
  for (const c of ordered) {
    const round = rounds.find((r) => !r.some((x) => keyOf(x) === keyOf(c)));
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
 * statement, with or without a transaction around it. Each variant at most once in `changes`.
 * `at`: the statement's `now()`, which columns defaulting to `now()` were given.
 */
export async function changeStockAlong(
  db: Pick<Tx, 'execute'>,
  ctx: TenantContext | RequestContext,
  changes: readonly StockChange[],
  alongside: (ok: SQL) => SQL[],
): Promise<StockResult & { at: Date }> {
  const round = [...changes].sort(byVariant);
  if (round.some((c, i) => i > 0 && keyOf(round[i - 1] as StockChange) === keyOf(c))) {
    throw new Error('changeStockAlong: a variant named twice');
  }
  const rows = await db.execute(roundSql(ctx, round, alongside(sql`(SELECT ok FROM verdict)`)));
  const at = new Date((rowsOf(rows)[0]?.at as string | Date | undefined) ?? Date.now());
  return { ...verdictOf(round, rows), at };
}

const byVariant = (a: StockChange, b: StockChange) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0);

type RoundRow = {
  variant_id: string;
  product_id: string | null;
  title: string | null;
  before: number | null;
  after: number | null;
  ok: boolean;
  at: string | Date;
};
const rowsOf = (result: unknown) => (result as { rows: RoundRow[] }).rows;

/**
 * One statement: lock the variants' products in product id order, then the variants in (product id,
 * variant id) order, and read the counts before (FOR UPDATE reads the newest committed counts, not the
 * statement's snapshot); write the variants' counts, their products' totals and the movements only
 * when every change is possible (the check runs under the row locks, so concurrent takers serialise).
 * The totals are added to (`+ delta`), one update per product whatever its number of variants in the
 * round. An unchanged count writes no movement. `alongside`: more writes, each a part of the WITH,
 * already conditioned on the verdict by the caller.
 */
function roundSql(ctx: TenantContext | RequestContext, round: StockChange[], alongside: SQL[] = []): SQL {
  const who = actorOf(ctx);
  const requestId = 'requestId' in ctx ? ctx.requestId : null;
  const t = ctx.tenantId;
  const input = sql.join(
    round.map(
      (c) =>
        sql`(${keyOf(c)}::text, ${c.set !== undefined}::boolean, ${Math.trunc(c.set ?? c.delta ?? 0)}::integer, ${randomBytes(12).toString('base64url')}::text, ${c.reason}::text, ${c.note ?? null}::text, ${c.orderId ?? null}::text, ${c.returnId ?? null}::text)`,
    ),
    sql`, `,
  );
  const more = alongside.map((part, i) => sql`, ${sql.raw(`alongside_${i}`)} AS (${part})`);
  return sql`
      WITH input(variant_id, is_set, amount, movement_id, reason, note, order_id, return_id) AS (VALUES ${input}),
      locked AS (
        SELECT product_id FROM products
        WHERE tenant_id = ${t} AND product_id IN (
          SELECT product_id FROM product_variants WHERE tenant_id = ${t} AND variant_id IN (SELECT variant_id FROM input))
        ORDER BY product_id
        FOR UPDATE
      ),
      old AS (
        SELECT v.variant_id, v.product_id, v.title, v.stock_quantity,
          (v.enabled AND v.removed_at IS NULL) AS sellable
        FROM product_variants v
        WHERE v.tenant_id = ${t} AND v.variant_id IN (SELECT variant_id FROM input)
          -- The products first: this pseudo-constant condition runs the products' lock before any
          -- variant row is read.
          AND (SELECT count(*) FROM locked) >= 0
        ORDER BY v.product_id, v.variant_id
        FOR UPDATE OF v
      ),
      calc AS (
        SELECT i.variant_id, o.product_id, o.title, o.sellable, o.stock_quantity AS before,
          CASE WHEN i.is_set THEN i.amount ELSE o.stock_quantity + i.amount END AS after
        FROM input i LEFT JOIN old o ON o.variant_id = i.variant_id
      ),
      verdict AS (SELECT NOT EXISTS (SELECT 1 FROM calc WHERE before IS NULL OR after < 0) AS ok),
      written AS (
        UPDATE product_variants SET stock_quantity = calc.after
        FROM calc, verdict
        WHERE verdict.ok AND product_variants.tenant_id = ${t} AND product_variants.variant_id = calc.variant_id
          AND calc.after <> calc.before
        RETURNING product_variants.variant_id
      ),
      totals AS (
        UPDATE products SET stock_quantity = products.stock_quantity + d.moved,
          sellable_stock = products.sellable_stock + d.sellable
        FROM (
          SELECT product_id, sum(after - before)::integer AS moved,
            sum(CASE WHEN sellable THEN after - before ELSE 0 END)::integer AS sellable
          FROM calc GROUP BY product_id
        ) d, verdict
        WHERE verdict.ok AND products.tenant_id = ${t} AND products.product_id = d.product_id
          AND (d.moved <> 0 OR d.sellable <> 0)
        RETURNING products.product_id
      ),
      books AS (
        INSERT INTO stock_movements (tenant_id, movement_id, product_id, variant_id, delta, quantity_before,
          quantity_after, reason, note, order_id, return_id, actor_id, actor_name, request_id)
        SELECT ${t}, i.movement_id, calc.product_id, calc.variant_id, calc.after - calc.before, calc.before,
          calc.after, i.reason, i.note, i.order_id, i.return_id, ${who.actorId}::text, ${who.actorName}::text,
          ${requestId}::text
        FROM calc JOIN input i ON i.variant_id = calc.variant_id, verdict
        WHERE verdict.ok AND calc.after <> calc.before
        RETURNING variant_id
      )${sql.join(more)}
      SELECT calc.variant_id, calc.product_id, calc.title, calc.before, calc.after, verdict.ok, now() AS at
      FROM calc, verdict`;
}

/** What a round's statement answered: its moves, or why nothing was written. */
function verdictOf(round: StockChange[], result: unknown): StockResult {
  const got = rowsOf(result);
  const byId = new Map(got.map((r) => [r.variant_id, r]));
  if (!got[0]?.ok) {
    for (const c of round) {
      const variantId = keyOf(c);
      const r = byId.get(variantId);
      if (!r || r.before === null || r.product_id === null) {
        return { ok: false, code: 'PRODUCT_NOT_FOUND', productId: c.productId ?? variantId, variantId };
      }
      const available = Number(r.before);
      if (Number(r.after) < 0) {
        return {
          ok: false,
          code: 'INSUFFICIENT_STOCK',
          productId: r.product_id,
          variantId,
          variantTitle: r.title ?? '',
          available,
          wanted: c.set !== undefined ? available - c.set : -(c.delta ?? 0),
        };
      }
    }
    throw new Error('changeStock: refused without a reason');
  }
  const moved: StockMoved[] = [];
  for (const c of round) {
    const variantId = keyOf(c);
    const r = byId.get(variantId);
    const before = Number(r?.before);
    const after = Number(r?.after);
    if (before === after) continue;
    moved.push({ productId: r?.product_id ?? variantId, variantId, before, after, delta: after - before });
  }
  return { ok: true, moved };
}
