import {
  formatMoney,
  RETURN_LIST_PAGE_SIZE,
  RETURN_REASON_LABELS,
  RETURN_STATUS_ADMIN_LABELS,
  RETURN_TAB_STATUSES,
  type ReturnDetail,
  type ReturnList,
  type ReturnListQuery,
  type ReturnReason,
  type ReturnReceive,
  type ReturnRefund,
  type ReturnStatus,
  variantDisplayName,
} from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, desc, eq, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { requireAccess } from '../../../lib/access';
import type { RequestContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import type { EventBus } from '../../../lib/events/index';
import { decodeTimeCursor, encodeTimeCursor } from '../../../lib/keyset-cursor';
import { ok, type Refusal, Refused, type Result, refuse, refuseField, returnRefusals } from '../../../lib/result';
import type { AuditService } from '../../audit/index';
import type { MailQueue } from '../../mail/index';
import { changeStock } from '../../products/index';
import { storeIdentity } from '../../store/index';
import { goodsPaid } from '../../tax/index';
import { recordOrderEvent } from '../order-events';
import { type OrderRefunds, type RefundRefusal, refundRefused, refundView } from '../order-refund';
import type { OrdersService } from '../orders.service';
import {
  RETURN_TRANSITIONS,
  type ReturnTransitionOptions,
  type ReturnTransitionRefusal,
  returnTransitionRefused,
  transitionReturn,
} from '../returns/index';

const o = schema.orders;
const ol = schema.orderLines;
const rr = schema.returnRequests;
const rl = schema.returnLines;
const rh = schema.returnStatusHistory;
const rf = schema.orderRefunds;

export interface ReturnAdminDeps {
  audit: Pick<AuditService, 'record'>;
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
  mailer: MailQueue;
  refunds: Pick<OrderRefunds, 'refund'>;
  orders: Pick<OrdersService, 'accessKey'>;
  log: FastifyBaseLogger;
  /** scheme://host[:port] for links in mail, from the store's canonical host. */
  linkOrigin: (canonicalHost: string) => string;
}

/**
 * Why the store's decisions on a return are refused. Approve and reject: CONFLICT (409) when the
 * request is not in a state that allows it (another staff member decided first), or a refund of it
 * is under way. Receive: those, and UNPROCESSABLE (422: no such line, more restocked than came back,
 * a product no longer in the catalog) or BAD_REQUEST (400: a line named twice), on the `lines` field.
 * Refund: CONFLICT (not received, a refund already under way) and the refunds' own refusals.
 */
export type ReturnDecisionRefusal = ReturnTransitionRefusal;
export type ReceiveReturnRefusal = Refusal<'CONFLICT' | 'UNPROCESSABLE' | 'BAD_REQUEST'>;
export type RefundReturnRefusal = ReturnTransitionRefusal | RefundRefusal;

/** `%`, `_` and `\` are taken literally in a LIKE pattern. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * What the returned units cost the shopper: their price, less their share of the order's discount,
 * plus their share of its tax when it was added on top (prices with tax hold it; decision 116). Shares
 * are by value and rounded; shipping is not part of a return's refund.
 */
export function lineRefundValue(
  order: { subtotal: number; discount: number; taxTotal: number; taxIncluded?: boolean },
  unitPrice: number,
  quantity: number,
): number {
  return goodsPaid({ ...order, taxIncluded: order.taxIncluded ?? false }, unitPrice * quantity);
}

/**
 * The store's side of return requests: list, one request, and the four decisions
 * (approve, reject, mark received, refund). Every status change goes through the returns module's
 * `transitionReturn` (the one writer, a 409 for a move its table does not allow), with its audit
 * entry, the order's timeline entry (visible to the shopper) and the shopper's mail in the same
 * transaction. Restocking uses `changeStock` (reason RETURNED); money goes back only through the
 * orders module's `refunds`.
 */
export function createReturnAdminService(db: Db, deps: ReturnAdminDeps) {
  async function orderLink(ctx: RequestContext, orderId: string, userId: string | null) {
    const store = await storeIdentity(db, ctx);
    if (!store) return { storeName: 'the store', link: null };
    // A guest reaches the order only through its signed link; links use the store's canonical host.
    const key = userId ? '' : `&key=${encodeURIComponent(deps.orders.accessKey(ctx, orderId))}`;
    return {
      storeName: store.name,
      link: `${deps.linkOrigin(store.host)}/order?orderId=${encodeURIComponent(orderId)}${key}`,
    };
  }

  async function head(tx: Db | Tx, ctx: RequestContext, returnId: string) {
    const [row] = await tx
      .select({ ret: rr, order: o })
      .from(rr)
      .innerJoin(o, and(eq(o.tenantId, rr.tenantId), eq(o.orderId, rr.orderId)))
      .where(and(eq(rr.tenantId, ctx.tenantId), eq(rr.returnId, returnId)));
    if (!row) throw AppError.notFound(`Return ${returnId} was not found.`);
    return row;
  }

  async function linesOf(tx: Db | Tx, ctx: RequestContext, returnId: string) {
    return tx
      .select({
        lineNo: rl.lineNo,
        quantity: rl.quantity,
        restockedQuantity: rl.restockedQuantity,
        productId: ol.productId,
        variantId: ol.variantId,
        variantTitle: ol.variantTitle,
        sku: ol.sku,
        productName: ol.productName,
        optionsText: ol.optionsText,
        unitPrice: ol.unitPrice,
      })
      .from(rl)
      .innerJoin(ol, and(eq(ol.tenantId, rl.tenantId), eq(ol.orderId, rl.orderId), eq(ol.lineNo, rl.lineNo)))
      .where(and(eq(rl.tenantId, ctx.tenantId), eq(rl.returnId, returnId)))
      .orderBy(asc(rl.lineNo));
  }

  /**
   * One step: the transition, then what it means (`also`), the order's timeline entry, the audit
   * entry, the shopper's mail and the event, all in one transaction. A refused transition, or a
   * refusal `also` throws as `Refused`, undoes the transaction and is returned.
   */
  async function step<R extends Refusal = ReturnTransitionRefusal>(
    ctx: RequestContext,
    returnId: string,
    from: ReturnStatus,
    to: ReturnStatus,
    opts: ReturnTransitionOptions & {
      action: string;
      timeline: string;
      mail?: (x: { storeName: string; link: string | null; orderId: string }) => { subject: string; text: string };
      also?: (tx: Tx, orderId: string) => Promise<Record<string, unknown>>;
    },
  ): Promise<Result<undefined, R | ReturnTransitionRefusal>> {
    const { order } = await head(db, ctx, returnId);
    const link = opts.mail ? await orderLink(ctx, order.orderId, order.userId) : null;
    return returnRefusals<Result<undefined, R | ReturnTransitionRefusal>, R | ReturnTransitionRefusal>(async () => {
      await deps.events.transaction(async (tx: Tx) => {
        const moved = await transitionReturn(tx, ctx, returnId, to, {
          from,
          note: opts.note ?? null,
          reason: opts.reason ?? null,
          amount: opts.amount ?? null,
        });
        if (!moved.ok) throw new Refused(returnTransitionRefused(moved));
        const extra = opts.also ? await opts.also(tx, order.orderId) : {};
        await recordOrderEvent(tx, ctx, order.orderId, {
          kind: 'return',
          message: opts.timeline,
          data: { returnId, from: moved.from, to, ...extra },
          visibleToShopper: true,
        });
        await deps.audit.record(tx, ctx, {
          entity: 'return',
          entityId: returnId,
          action: opts.action,
          before: { status: moved.from },
          after: {
            status: to,
            ...(opts.note ? { note: opts.note } : {}),
            ...(opts.amount != null ? { amount: opts.amount } : {}),
            ...extra,
          },
        });
        if (opts.mail && link) {
          const m = opts.mail({ ...link, orderId: order.orderId });
          await deps.mailer.send(ctx, { to: order.email, subject: m.subject, text: m.text }, { tx });
          await recordOrderEvent(tx, ctx, order.orderId, {
            kind: 'email',
            message: `${m.subject} sent to ${order.email}`,
            data: { returnId },
          });
        }
        deps.events.emitAfterCommit(tx, 'return.transitioned', {
          tenantId: ctx.tenantId,
          returnId,
          orderId: order.orderId,
          from: moved.from,
          to,
        });
      });
      return ok(undefined);
    });
  }

  const see = (link: string | null) => (link ? ['', `See your order and its returns: ${link}`] : []);

  return {
    /** All the store's return requests, newest first; a tab, a search, keyset pages. */
    async list(ctx: RequestContext, query: ReturnListQuery): Promise<ReturnList> {
      requireAccess(ctx, 'orders');
      const limit = query.limit ?? RETURN_LIST_PAGE_SIZE;
      const where: (SQL | undefined)[] = [eq(rr.tenantId, ctx.tenantId)];
      if (query.status) where.push(inArray(rr.status, [...RETURN_TAB_STATUSES[query.status]]));
      const q = query.q?.trim();
      if (q) {
        const pattern = `${likeEscape(q.toLowerCase())}%`;
        where.push(
          q.includes('@')
            ? sql`lower(${o.email}) LIKE ${pattern}`
            : or(sql`lower(${rr.orderId}) LIKE ${pattern}`, sql`lower(${rr.returnId}) LIKE ${pattern}`),
        );
      }
      if (query.cursor) {
        const { at, id } = decodeTimeCursor(query.cursor);
        where.push(or(lt(rr.createdAt, at), and(eq(rr.createdAt, at), lt(rr.returnId, id))));
      }
      const rows = await db
        .select({
          returnId: rr.returnId,
          orderId: rr.orderId,
          status: rr.status,
          reason: rr.reason,
          createdAt: rr.createdAt,
          userId: o.userId,
          email: o.email,
          name: sql<string | null>`${o.shipTo}->>'toName'`,
          items: sql<number>`(SELECT coalesce(sum(${rl.quantity}), 0)::int FROM ${rl}
            WHERE ${rl.tenantId} = ${rr.tenantId} AND ${rl.returnId} = ${rr.returnId})`,
        })
        .from(rr)
        .innerJoin(o, and(eq(o.tenantId, rr.tenantId), eq(o.orderId, rr.orderId)))
        .where(and(...where))
        .orderBy(desc(rr.createdAt), desc(rr.returnId))
        .limit(limit + 1);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        items: page.map((r) => ({
          returnId: r.returnId,
          orderId: r.orderId,
          customer: { userId: r.userId, email: r.email, name: r.name },
          items: Number(r.items),
          reason: r.reason as ReturnReason,
          reasonLabel: RETURN_REASON_LABELS[r.reason as ReturnReason] ?? r.reason,
          status: r.status as ReturnStatus,
          statusLabel: RETURN_STATUS_ADMIN_LABELS[r.status as ReturnStatus] ?? r.status,
          createdAt: r.createdAt.toISOString(),
        })),
        nextCursor: rows.length > limit && last ? encodeTimeCursor(last.createdAt, last.returnId) : null,
      };
    },

    /** One request with its lines, the order, the customer, its history and its refunds. */
    async get(ctx: RequestContext, returnId: string): Promise<ReturnDetail> {
      requireAccess(ctx, 'orders');
      const { ret, order } = await head(db, ctx, returnId);
      const [lines, history, refunds] = await Promise.all([
        linesOf(db, ctx, returnId),
        db
          .select()
          .from(rh)
          .where(and(eq(rh.tenantId, ctx.tenantId), eq(rh.returnId, returnId)))
          .orderBy(asc(rh.seq)),
        db
          .select()
          .from(rf)
          .where(and(eq(rf.tenantId, ctx.tenantId), eq(rf.orderId, order.orderId), eq(rf.returnId, returnId)))
          .orderBy(asc(rf.createdAt)),
      ]);
      const status = ret.status as ReturnStatus;
      const withValue = lines.map((l) => ({ ...l, refundValue: lineRefundValue(order, l.unitPrice, l.quantity) }));
      const refundable = Math.max(0, order.capturedAmount - order.refundedAmount);
      return {
        returnId,
        orderId: order.orderId,
        status,
        statusLabel: RETURN_STATUS_ADMIN_LABELS[status],
        reason: ret.reason as ReturnReason,
        reasonLabel: RETURN_REASON_LABELS[ret.reason as ReturnReason] ?? ret.reason,
        note: ret.note,
        createdAt: ret.createdAt.toISOString(),
        currency: order.currency,
        customer: { userId: order.userId, email: order.email, name: order.shipTo?.toName ?? null },
        order: {
          orderId: order.orderId,
          status: order.status,
          placedAt: order.placedAt.toISOString(),
          grandTotal: order.grandTotal,
          capturedAmount: order.capturedAmount,
          refundedAmount: order.refundedAmount,
        },
        lines: withValue,
        proposedRefund: Math.min(
          refundable,
          withValue.reduce((s, l) => s + l.refundValue, 0),
        ),
        refundable,
        history: history.map((h) => ({
          status: h.status as ReturnStatus,
          statusLabel: RETURN_STATUS_ADMIN_LABELS[h.status as ReturnStatus] ?? h.status,
          note: h.note,
          reason: h.reason,
          amount: h.amount,
          actorName: h.actorName,
          at: h.createdAt.toISOString(),
        })),
        refunds: refunds.map(refundView),
        // Cancelling is the shopper's move, not the store's.
        next: RETURN_TRANSITIONS[status].filter((s) => s !== 'cancelled'),
      };
    },

    /** requested -> approved, with the instructions the shopper gets by mail. */
    async approve(
      ctx: RequestContext,
      returnId: string,
      input: { instructions: string },
    ): Promise<Result<ReturnDetail, ReturnDecisionRefusal>> {
      requireAccess(ctx, 'orders');
      const done = await step(ctx, returnId, 'requested', 'approved', {
        action: 'approve',
        note: input.instructions,
        timeline: `Return ${returnId} approved`,
        mail: ({ storeName, link, orderId }) => ({
          subject: `Your return ${returnId} is approved`,
          text: [
            `${storeName} has approved your return ${returnId} of order ${orderId}.`,
            '',
            'How to send it back:',
            input.instructions,
            '',
            'We will refund you once the parcel has arrived and been checked.',
            ...see(link),
          ].join('\n'),
        }),
      });
      if (!done.ok) return done;
      return ok(await this.get(ctx, returnId));
    },

    /** requested -> rejected, or received -> rejected (the parcel did not qualify), with the reason mailed. */
    async reject(
      ctx: RequestContext,
      returnId: string,
      input: { reason: string },
    ): Promise<Result<ReturnDetail, ReturnDecisionRefusal>> {
      requireAccess(ctx, 'orders');
      const { ret } = await head(db, ctx, returnId);
      const from = ret.status as ReturnStatus;
      const done = await step(ctx, returnId, from === 'received' ? 'received' : 'requested', 'rejected', {
        action: 'reject',
        note: input.reason,
        timeline: `Return ${returnId} rejected: ${input.reason}`,
        // Under the row lock the transition took: a refund already with the provider wins.
        also: async (tx) => {
          const [row] = await tx
            .select({ claim: rr.refundClaim })
            .from(rr)
            .where(and(eq(rr.tenantId, ctx.tenantId), eq(rr.returnId, returnId)));
          if (row?.claim)
            throw new Refused(
              refuse(409, 'CONFLICT', `A refund of return ${returnId} is under way; it cannot be rejected.`),
            );
          return {};
        },
        mail: ({ storeName, link, orderId }) => ({
          subject: `Your return ${returnId} was not accepted`,
          text: [
            `${storeName} could not accept your return ${returnId} of order ${orderId}.`,
            '',
            `Reason: ${input.reason}`,
            ...see(link),
          ].join('\n'),
        }),
      });
      if (!done.ok) return done;
      return ok(await this.get(ctx, returnId));
    },

    /**
     * approved -> received: the chosen units of each line go back to stock (RETURNED movements with
     * the return's id) in the same transaction, so they are restocked exactly once.
     */
    async receive(
      ctx: RequestContext,
      returnId: string,
      input: ReturnReceive,
    ): Promise<Result<ReturnDetail, ReceiveReturnRefusal>> {
      requireAccess(ctx, 'orders');
      const lines = await linesOf(db, ctx, returnId);
      const byLine = new Map(lines.map((l) => [l.lineNo, l]));
      const restock = new Map<number, number>();
      for (const l of input.lines) {
        const line = byLine.get(l.lineNo);
        if (!line) return refuseField(422, 'UNPROCESSABLE', 'lines', `return ${returnId} has no line ${l.lineNo}.`);
        if (restock.has(l.lineNo)) return refuseField(400, 'BAD_REQUEST', 'lines', `line ${l.lineNo} is named twice.`);
        if (l.restock > line.quantity) {
          return refuseField(
            422,
            'UNPROCESSABLE',
            'lines',
            `${line.productName}: at most ${line.quantity} came back, ${l.restock} cannot go back to stock.`,
          );
        }
        restock.set(l.lineNo, l.restock);
      }
      const back = lines.filter((l) => (restock.get(l.lineNo) ?? 0) > 0);
      const summary = back.length
        ? `${back.map((l) => `${restock.get(l.lineNo)} × ${variantDisplayName(l.productName, l.variantTitle)}`).join(', ')} back in stock`
        : 'nothing back in stock';
      const done = await step<ReceiveReturnRefusal>(ctx, returnId, 'approved', 'received', {
        action: 'receive',
        reason: summary,
        timeline: `Return ${returnId} received`,
        also: async (tx, orderId) => {
          for (const l of back) {
            await tx
              .update(rl)
              .set({ restockedQuantity: restock.get(l.lineNo) ?? 0 })
              .where(and(eq(rl.tenantId, ctx.tenantId), eq(rl.returnId, returnId), eq(rl.lineNo, l.lineNo)));
          }
          if (back.length === 0) return { restocked: [] };
          const result = await changeStock(
            tx,
            ctx,
            back.map((l) => ({
              // Back into the variant sold (a line written before variants names its product's default).
              variantId: l.variantId ?? l.productId,
              delta: restock.get(l.lineNo) ?? 0,
              reason: 'RETURNED' as const,
              orderId,
              returnId,
              note: `Return ${returnId}`,
            })),
          );
          // A product deleted since the order cannot take stock back; the store says which.
          if (!result.ok) {
            const line = back.find((l) => l.productId === result.productId);
            throw new Refused(
              refuseField(
                422,
                'UNPROCESSABLE',
                'lines',
                `${line?.productName ?? result.productId} is no longer in the catalog: set its restock to 0.`,
              ),
            );
          }
          deps.events.emitAfterCommit(tx, 'stock.changed', {
            tenantId: ctx.tenantId,
            productIds: result.moved.map((m) => m.productId),
          });
          return { restocked: back.map((l) => ({ lineNo: l.lineNo, quantity: restock.get(l.lineNo) ?? 0 })) };
        },
      });
      if (!done.ok) return done;
      return ok(await this.get(ctx, returnId));
    },

    /**
     * received -> refunded: the money goes back through the orders module's refunds (never above
     * what is left of the capture; linked to the return). Only a refund that succeeded moves the
     * return on; a refused one leaves it received and the refusal is the answer (422/409).
     */
    async refund(
      ctx: RequestContext,
      returnId: string,
      input: ReturnRefund,
    ): Promise<Result<ReturnDetail, RefundReturnRefusal>> {
      requireAccess(ctx, 'orders');
      const { ret, order } = await head(db, ctx, returnId);
      if (ret.status !== 'received') {
        return refuse(409, 'CONFLICT', `Return ${returnId} is ${ret.status}; it cannot become refunded.`);
      }
      // One refund of a return at a time: claimed under the row's lock, released when it settles.
      const claimed = await db
        .update(rr)
        .set({ refundClaim: ctx.requestId })
        .where(
          and(
            eq(rr.tenantId, ctx.tenantId),
            eq(rr.returnId, returnId),
            eq(rr.status, 'received'),
            isNull(rr.refundClaim),
          ),
        )
        .returning({ id: rr.returnId });
      if (claimed.length === 0) {
        return refuse(409, 'CONFLICT', `A refund of return ${returnId} is already under way.`);
      }
      const release = () =>
        db
          .update(rr)
          .set({ refundClaim: null })
          .where(and(eq(rr.tenantId, ctx.tenantId), eq(rr.returnId, returnId)));
      let outcome: Awaited<ReturnType<OrderRefunds['refund']>>;
      try {
        const lines = await linesOf(db, ctx, returnId);
        outcome = await deps.refunds.refund(ctx, order.orderId, {
          amount: input.amount,
          lines: lines.map((l) => ({ lineNo: l.lineNo, quantity: l.quantity })),
          shipping: 0,
          reason: input.reason || `Return ${returnId}`,
          returnId,
        });
      } catch (err) {
        await release();
        throw err;
      }
      if (!outcome.ok) {
        await release();
        return refundRefused(outcome);
      }
      const money = formatMoney(outcome.refund.amount, outcome.refund.currency);
      let done: Result<undefined, ReturnTransitionRefusal>;
      try {
        done = await step(ctx, returnId, 'received', 'refunded', {
          action: 'refund',
          amount: outcome.refund.amount,
          reason: input.reason || null,
          timeline: `Return ${returnId} refunded: ${money}`,
          also: async (tx) => {
            await tx
              .update(rr)
              .set({ refundClaim: null })
              .where(and(eq(rr.tenantId, ctx.tenantId), eq(rr.returnId, returnId)));
            return { refundId: outcome.ok ? outcome.refund.refundId : null };
          },
          mail: ({ storeName, link, orderId }) => ({
            subject: `Your refund of ${money} for return ${returnId}`,
            text: [
              `${storeName} has received your return ${returnId} of order ${orderId} and refunded ${money}.`,
              '',
              'The money goes back to the way you paid; your bank may take a few days to show it.',
              ...see(link),
            ].join('\n'),
          }),
        });
      } catch (err) {
        // The money is back with the shopper whatever happens here: the books must say so.
        deps.log.error({ err, returnId, refundId: outcome.refund.refundId }, 'return refunded but not moved on');
        await release();
        throw err;
      }
      if (!done.ok) {
        // Refused after the money went back (another decision came first): the books must say so.
        deps.log.error({ err: done, returnId, refundId: outcome.refund.refundId }, 'return refunded but not moved on');
        await release();
        return done;
      }
      return ok(await this.get(ctx, returnId));
    },
  };
}

export type ReturnAdminService = ReturnType<typeof createReturnAdminService>;
