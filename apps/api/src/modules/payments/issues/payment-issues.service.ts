import { randomBytes } from 'node:crypto';
import {
  PAYMENT_ISSUES_PAGE_SIZE,
  type PaymentIssue,
  type PaymentIssueKind,
  type PaymentIssuesPage,
  type PaymentIssuesQuery,
} from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, count, desc, eq, lt, or, type SQL, sql } from 'drizzle-orm';
import { requireAccess } from '../../../lib/access';
import type { RequestContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import { decodeTimeCursor, encodeTimeCursor } from '../../../lib/keyset-cursor';
import type { AuditService } from '../../audit/index';

const pi = schema.paymentIssues;
type Row = typeof pi.$inferSelect;

/** What a webhook (or a job) reports: money at PayPal the store must look at. */
export interface NewPaymentIssue {
  kind: PaymentIssueKind;
  message: string;
  paypalOrderId?: string | null;
  captureId?: string | null;
  orderId?: string | null;
  amount?: number | null;
  currency?: string | null;
}

const toIssue = (r: Row): PaymentIssue => ({
  issueId: r.issueId,
  kind: r.kind,
  paypalOrderId: r.paypalOrderId,
  captureId: r.captureId,
  orderId: r.orderId,
  amount: r.amount,
  currency: r.currency,
  message: r.message,
  status: r.status as PaymentIssue['status'],
  createdAt: r.createdAt.toISOString(),
  resolvedAt: r.resolvedAt?.toISOString() ?? null,
  resolution: r.resolution,
});

/**
 * "Payments needing attention" (decision 053): money PayPal reports that matches
 * no order of the store, or not the way the order says. Webhooks raise them; the owner (the
 * payments permission) lists them and marks them resolved with a note, which the audit log keeps.
 */
export function createPaymentIssuesService(db: Db, deps: { audit: AuditService }) {
  return {
    /**
     * Writes an issue in the caller's transaction. One per capture and kind (the table's unique
     * index): a second report of the same capture changes nothing, except an unknown refund, whose
     * amounts add up on the capture's one issue, which opens again if it had been resolved.
     */
    async raise(tx: Tx, ctx: RequestContext, issue: NewPaymentIssue): Promise<void> {
      const values = {
        tenantId: ctx.tenantId,
        issueId: `PI${randomBytes(6).toString('hex').toUpperCase()}`,
        kind: issue.kind,
        message: issue.message,
        paypalOrderId: issue.paypalOrderId ?? null,
        captureId: issue.captureId ?? null,
        orderId: issue.orderId ?? null,
        amount: issue.amount ?? null,
        currency: issue.currency ?? null,
      };
      const target = [pi.tenantId, pi.kind, pi.captureId];
      const targetWhere = sql`${pi.captureId} IS NOT NULL`;
      if (issue.kind === 'refund_unknown' && issue.captureId) {
        await tx
          .insert(pi)
          .values(values)
          .onConflictDoUpdate({
            target,
            targetWhere,
            set: {
              amount: sql`coalesce(${pi.amount}, 0) + coalesce(excluded.amount, 0)`,
              message: sql`excluded.message`,
              status: 'open',
              resolvedAt: null,
              resolvedBy: null,
              resolution: null,
            },
          });
        return;
      }
      await tx.insert(pi).values(values).onConflictDoNothing({ target, where: targetWhere });
    },

    /** The store's issues, newest first: open ones, or resolved ones; keyset pages. */
    async list(ctx: RequestContext, query: PaymentIssuesQuery): Promise<PaymentIssuesPage> {
      requireAccess(ctx, 'payments');
      const limit = query.limit ?? PAYMENT_ISSUES_PAGE_SIZE;
      // Voided issues (settled by the platform) count with the resolved ones: nothing is left to do.
      const where: (SQL | undefined)[] = [
        eq(pi.tenantId, ctx.tenantId),
        (query.status ?? 'open') === 'open' ? eq(pi.status, 'open') : sql`${pi.status} <> 'open'`,
      ];
      if (query.cursor) {
        const { at, id } = decodeTimeCursor(query.cursor);
        where.push(or(lt(pi.createdAt, at), and(eq(pi.createdAt, at), lt(pi.issueId, id))));
      }
      const [rows, [open]] = await Promise.all([
        db
          .select()
          .from(pi)
          .where(and(...where))
          .orderBy(desc(pi.createdAt), desc(pi.issueId))
          .limit(limit + 1),
        db
          .select({ n: count() })
          .from(pi)
          .where(and(eq(pi.tenantId, ctx.tenantId), eq(pi.status, 'open'))),
      ]);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        items: page.map(toIssue),
        nextCursor: rows.length > limit && last ? encodeTimeCursor(last.createdAt, last.issueId) : null,
        openCount: open?.n ?? 0,
      };
    },

    /** Marks an open issue resolved with what the owner did; resolving it again changes nothing. */
    async resolve(ctx: RequestContext, issueId: string, note: string): Promise<PaymentIssue> {
      requireAccess(ctx, 'payments');
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(pi)
          .where(and(eq(pi.tenantId, ctx.tenantId), eq(pi.issueId, issueId)))
          .for('update');
        if (!row) throw AppError.notFound('No such payment issue in this store.');
        if (row.status !== 'open') return toIssue(row);
        const [updated] = await tx
          .update(pi)
          .set({ status: 'resolved', resolvedAt: new Date(), resolvedBy: ctx.actor.userId, resolution: note })
          .where(and(eq(pi.tenantId, ctx.tenantId), eq(pi.issueId, issueId)))
          .returning();
        await deps.audit.record(tx, ctx, {
          entity: 'payment_issue',
          entityId: issueId,
          action: 'resolve',
          before: { status: row.status },
          after: { status: 'resolved', resolution: note },
        });
        return toIssue(updated!);
      });
    },
  };
}

export type PaymentIssuesService = ReturnType<typeof createPaymentIssuesService>;
