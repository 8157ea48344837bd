import type { CancelRequestStatus } from '@app/contracts';
import { schema, type Tx } from '@app/db';
import { eq, max } from 'drizzle-orm';
import type { RequestContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { canTransitionCancelRequest } from './cancel-request-state';

const cr = schema.cancelRequests;
const crh = schema.cancelRequestHistory;

export type CancelRequestRow = typeof cr.$inferSelect;

export type CancelTransitionResult =
  | { ok: true; row: CancelRequestRow; from: CancelRequestStatus }
  | { ok: false; code: 'INVALID_TRANSITION'; from: CancelRequestStatus; to: CancelRequestStatus; message: string };

/**
 * The one writer of `cancel_requests.status`: makes sure the tenant's row exists
 * (`none`), locks it, checks the transitions table, writes the status and a history row saying who,
 * when, from, to and why. Runs in the caller's transaction, so its audit entry, event and mail commit
 * with it. A refused transition changes nothing and comes back typed (routes answer 409).
 */
export async function transitionCancelRequest(
  tx: Tx,
  ctx: RequestContext,
  to: CancelRequestStatus,
  options: { from?: CancelRequestStatus; reason?: string } = {},
): Promise<CancelTransitionResult> {
  const tenantId = ctx.tenantId;
  await tx.insert(cr).values({ tenantId, status: 'none' }).onConflictDoNothing();
  const [row] = await tx.select().from(cr).where(eq(cr.tenantId, tenantId)).for('update');
  if (!row) throw AppError.notFound(`Tenant ${tenantId} was not found.`);
  const from = row.status;
  if ((options.from !== undefined && options.from !== from) || !canTransitionCancelRequest(from, to)) {
    return {
      ok: false,
      code: 'INVALID_TRANSITION',
      from,
      to,
      message: `The cancel request is ${from}; it cannot become ${to}.`,
    };
  }
  const a = ctx.actor;
  const actorId = a.kind === 'system' ? a.name : a.kind === 'guest' ? null : a.userId;
  const now = new Date();
  const set: Partial<typeof cr.$inferInsert> = { status: to, updatedAt: now };
  if (to === 'requested')
    // A new request starts afresh: an earlier decline's answer no longer applies.
    Object.assign(set, {
      reason: options.reason ?? null,
      requestedBy: actorId,
      requestedAt: now,
      decidedAt: null,
      decisionReason: null,
    });
  const [updated] = await tx.update(cr).set(set).where(eq(cr.tenantId, tenantId)).returning();
  const [{ last } = { last: 0 }] = await tx
    .select({ last: max(crh.seq) })
    .from(crh)
    .where(eq(crh.tenantId, tenantId));
  await tx.insert(crh).values({
    tenantId,
    seq: (last ?? 0) + 1,
    fromStatus: from,
    status: to,
    reason: options.reason ?? null,
    actorKind: a.kind,
    actorId,
    requestId: ctx.requestId,
  });
  return { ok: true, row: updated as CancelRequestRow, from };
}
