import type { ReturnStatus } from '@app/contracts';
import { schema, type Tx } from '@app/db';
import { and, eq, max } from 'drizzle-orm';
import type { RequestContext, TenantContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import { type Refusal, refuse } from '../../../lib/result';
import { canTransitionReturn } from './return-state';

const rr = schema.returnRequests;
const rh = schema.returnStatusHistory;

export type ReturnRow = typeof rr.$inferSelect;

export type ReturnTransitionResult =
  | { ok: true; row: ReturnRow; from: ReturnStatus }
  | { ok: false; code: 'INVALID_TRANSITION'; from: ReturnStatus; to: ReturnStatus; message: string };

export interface ReturnTransitionOptions {
  /**
   * The status the caller decided from: when the request has moved on since (another staff member
   * acted first), the move is refused even if the table allows it from the new status.
   */
  from?: ReturnStatus;
  /** Shown to the shopper with the step: the instructions, the reason for a rejection. */
  note?: string | null;
  /** For the store only. */
  reason?: string | null;
  /** The money a `refunded` step gave back. */
  amount?: number | null;
}

function actorOf(ctx: TenantContext | RequestContext) {
  if (!('actor' in ctx)) return { actorKind: null, actorId: null, actorName: null };
  const a = ctx.actor;
  if (a.kind === 'staff' || a.kind === 'shopper')
    return { actorKind: a.kind, actorId: a.userId, actorName: a.firstName };
  if (a.kind === 'system') return { actorKind: 'system', actorId: a.name, actorName: null };
  return { actorKind: a.kind, actorId: null, actorName: null };
}

/**
 * The one writer of `return_requests.status` (like `transitionOrder` for orders): locks the request's
 * row, checks RETURN_TRANSITIONS, writes the status and a history row (who, note, reason, amount) in
 * the caller's transaction, so whatever else the step means (stock back, a timeline entry, a mail
 * queued) commits with it or not at all. A move the table does not allow changes nothing and comes
 * back as a typed result (a 409 refusal, see `returnTransitionRefused`); an unknown id is a 404.
 */
export async function transitionReturn(
  tx: Tx,
  ctx: TenantContext | RequestContext,
  returnId: string,
  to: ReturnStatus,
  options: ReturnTransitionOptions = {},
): Promise<ReturnTransitionResult> {
  const [row] = await tx
    .select({ status: rr.status })
    .from(rr)
    .where(and(eq(rr.tenantId, ctx.tenantId), eq(rr.returnId, returnId)))
    .for('update');
  if (!row) throw AppError.notFound(`Return ${returnId} was not found.`);
  const from = row.status as ReturnStatus;
  if ((options.from !== undefined && options.from !== from) || !canTransitionReturn(from, to)) {
    return {
      ok: false,
      code: 'INVALID_TRANSITION',
      from,
      to,
      message: `Return ${returnId} is ${from}; it cannot become ${to}.`,
    };
  }
  const [{ last } = { last: 0 }] = await tx
    .select({ last: max(rh.seq) })
    .from(rh)
    .where(and(eq(rh.tenantId, ctx.tenantId), eq(rh.returnId, returnId)));
  const [updated] = await tx
    .update(rr)
    .set({ status: to, updatedAt: new Date() })
    .where(and(eq(rr.tenantId, ctx.tenantId), eq(rr.returnId, returnId)))
    .returning();
  await tx.insert(rh).values({
    tenantId: ctx.tenantId,
    returnId,
    seq: (last ?? 0) + 1,
    status: to,
    note: options.note ?? null,
    reason: options.reason ?? null,
    amount: options.amount ?? null,
    ...actorOf(ctx),
  });
  return { ok: true, row: updated as ReturnRow, from };
}

/** A move of a return request its table does not allow now ("not allowed in this state"). */
export type ReturnTransitionRefusal = Refusal<'CONFLICT'>;

/** The refusal (a 409) an operation returns for a refused move. */
export function returnTransitionRefused(
  result: Extract<ReturnTransitionResult, { ok: false }>,
): ReturnTransitionRefusal {
  return refuse(409, 'CONFLICT', result.message);
}
