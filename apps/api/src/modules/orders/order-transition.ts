import type { OrderStatus } from '@app/contracts';
import { type Db, insertWhere, schema } from '@app/db';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { RequestContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { type Refusal, refuse } from '../../lib/result';
import { canTransition } from './order-state';

const o = schema.orders;
const oh = schema.orderStatusHistory;

export type OrderRow = typeof o.$inferSelect;
export type OrderHistoryRow = typeof oh.$inferSelect;

export type TransitionResult =
  /** `order`: the row after the change; `entry`: the history row written for it. */
  | { ok: true; order: OrderRow; from: OrderStatus; entry: OrderHistoryRow }
  | { ok: false; code: 'INVALID_TRANSITION'; from: OrderStatus; to: OrderStatus; message: string };

export interface TransitionOptions {
  /**
   * The status the caller decided from. When the order has moved on since (another request changed it
   * first), the transition is refused even if the table would allow it from the new status: a sweep
   * that decided to cancel a placed order must not cancel it once checkout has made it paid.
   */
  from?: OrderStatus;
  /** For the store and the platform ("abandoned: no payment after 30 minutes"). */
  reason?: string;
  /** For the shopper, in the order's history ("Payment received (Visa)"). */
  note?: string;
  /**
   * What else the change writes on the order row, in the same statement (checkout's payment
   * reference and captured amount when the order becomes paid). Never the status.
   */
  set?: Omit<Partial<typeof o.$inferInsert>, 'status' | 'tenantId' | 'orderId'>;
  /**
   * More writes in the same statement, each a part of its WITH: `alongside` gets the condition "the
   * order changed" and returns data-modifying statements written only when it holds (checkout
   * empties the cart and enqueues the receipt with the change to paid). With `from` set, the whole
   * change is then one statement, and needs no transaction around it.
   */
  alongside?: (changed: SQL) => SQL[];
}

/** Who acted, as the status history records it. */
export function historyActor(ctx: RequestContext): { actorKind: string; actorId: string | null; requestId: string } {
  const a = ctx.actor;
  const actorId = a.kind === 'system' ? a.name : a.kind === 'guest' ? null : a.userId;
  return { actorKind: a.kind, actorId, requestId: ctx.requestId };
}

/**
 * The one writer of `orders.status`: locks the order row,
 * checks the transitions table, writes the status and a history row saying who, when, from, to and why.
 * Runs in the caller's transaction, so whatever else the change means (stock back, payment recorded)
 * commits with it or not at all. Given the database instead, the change is one statement, its other
 * writes passed as `alongside`; every update checks the status it decided from, so a change made by
 * another writer meanwhile is never overwritten.
 * A refused transition changes nothing and comes back as a typed result
 * (operations return it as a 409 refusal, see `transitionRefused`); an order that does not exist is a 404.
 */
export async function transitionOrder(
  tx: Db,
  ctx: RequestContext,
  orderId: string,
  to: OrderStatus,
  options: TransitionOptions = {},
): Promise<TransitionResult> {
  const where = and(eq(o.tenantId, ctx.tenantId), eq(o.orderId, orderId));
  // The caller knows the status it decided from (checkout: placed to paid), and the table allows the
  // move: the update itself checks the status, and takes the row lock, in one statement. When the
  // order is not in that status any more, or is gone, the read below says which.
  if (options.from !== undefined && canTransition(options.from, to)) {
    const moved = await write(tx, ctx, orderId, and(where, eq(o.status, options.from)), options.from, to, options);
    if (moved) return moved;
  }
  const [row] = await tx.select({ status: o.status }).from(o).where(where).for('update');
  if (!row) throw AppError.notFound(`Order ${orderId} was not found.`);
  const from = row.status as OrderStatus;
  const refused = (now: OrderStatus): TransitionResult => ({
    ok: false,
    code: 'INVALID_TRANSITION',
    from: now,
    to,
    message: `Order ${orderId} is ${now}; it cannot become ${to}.`,
  });
  if ((options.from !== undefined && options.from !== from) || !canTransition(from, to)) return refused(from);
  // The update checks the status it read: in the caller's transaction the row lock makes that
  // certain; given the database, another writer may have moved the order since the read, and then
  // nothing is written and the change is refused, never applied over theirs.
  const moved = await write(tx, ctx, orderId, and(where, eq(o.status, from)), from, to, options);
  if (moved) return moved;
  const [now] = await tx.select({ status: o.status }).from(o).where(where);
  return refused((now?.status ?? from) as OrderStatus);
}

/**
 * The status written, and its history row; null when `where` matched no order. One statement: the
 * update, and the history row inserted only when the update found the order (decision 064).
 */
async function write(
  tx: Db,
  ctx: RequestContext,
  orderId: string,
  where: ReturnType<typeof and>,
  from: OrderStatus,
  to: OrderStatus,
  options: TransitionOptions,
): Promise<Extract<TransitionResult, { ok: true }> | null> {
  // A change of a figure the customers list shows (`set` with the captured amount, at payment)
  // recomputes the customer's row in customer_summaries in this statement's transaction, by the
  // triggers modules/customers/summaries.ts names; a status change alone recomputes nothing.
  const moved = tx.$with('moved').as(
    tx
      .update(o)
      .set({ ...options.set, status: to, updatedAt: new Date() })
      .where(where)
      .returning(),
  );
  const history = {
    tenantId: ctx.tenantId,
    orderId,
    status: to,
    fromStatus: from,
    note: options.note ?? null,
    reason: options.reason ?? null,
    ...historyActor(ctx),
  };
  // The next number of the order's history, read by the insert itself: the order's row lock, taken
  // by the update, keeps two transitions of one order from taking the same number.
  const changed = sql`EXISTS (SELECT 1 FROM moved)`;
  const seq = sql`SELECT coalesce(max(${oh.seq}), 0) + 1 FROM ${oh} WHERE ${oh.tenantId} = ${ctx.tenantId} AND ${oh.orderId} = ${orderId}`;
  const entry = tx
    .$with('entry', {
      seq: sql<number>`seq`.mapWith(Number).as('seq'),
      createdAt: sql<Date>`created_at`.mapWith(oh.createdAt).as('created_at'),
    })
    .as(sql`${insertWhere(oh, [{ ...history, seq }], changed)} RETURNING seq, created_at`);
  const more = (options.alongside?.(changed) ?? []).map((part, i) => tx.$with(`alongside_${i}`, {}).as(part));
  const [row] = await tx
    .with(moved, entry, ...more)
    .select()
    .from(moved)
    .crossJoin(entry);
  if (!row) return null;
  return { ok: true, order: row.moved as OrderRow, from, entry: { ...history, ...row.entry } };
}

/** A move the transitions table does not allow from the order's status now ("not allowed in this state"). */
export type TransitionRefusal = Refusal<'INVALID_TRANSITION'>;

/** The refusal (a 409) an operation returns for a refused transition. */
export function transitionRefused(result: Extract<TransitionResult, { ok: false }>): TransitionRefusal {
  return refuse(409, 'INVALID_TRANSITION', result.message);
}
