import type {
  CreateReturn,
  CreateRmaReturn,
  Order,
  OrderStatus,
  ReturnableLine,
  ReturnReason,
  ReturnRequest,
  ReturnStatus,
} from '@app/contracts';
import { orderLineVariantText, RETURN_REASON_LABELS, RETURN_STATUS_LABELS, variantDisplayName } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { TenantContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import { ok, type Refusal, Refused, type Result, refuse, returnRefusals } from '../../../lib/result';
import type { MailQueue } from '../../mail/index';
import { storeIdentity } from '../../store/index';
import type { OrderForReturns, OrdersService } from '../orders.service';
import { HOLDING_RETURN_STATUSES, RETURNABLE_ORDER_STATUSES } from './return-state';
import { type ReturnTransitionRefusal, returnTransitionRefused, transitionReturn } from './return-transition';

const o = schema.orders;
const ol = schema.orderLines;
const rr = schema.returnRequests;
const rl = schema.returnLines;
const rh = schema.returnStatusHistory;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Reader = Db | Tx;
type OrderLineRow = typeof ol.$inferSelect;

/** Who asks: the signed-in shopper, or a guest holding the order's signed link. */
export interface ReturnAsker {
  userId: string | null;
  key?: string;
}

/** How many of each order line requests that were not rejected or cancelled already hold. */
async function heldQuantities(db: Reader, ctx: TenantContext, orderId: string): Promise<Map<number, number>> {
  const rows = await db
    .select({ lineNo: rl.lineNo, quantity: rl.quantity })
    .from(rl)
    .innerJoin(rr, and(eq(rr.tenantId, rl.tenantId), eq(rr.returnId, rl.returnId)))
    .where(
      and(eq(rl.tenantId, ctx.tenantId), eq(rl.orderId, orderId), inArray(rr.status, [...HOLDING_RETURN_STATUSES])),
    );
  const held = new Map<number, number>();
  for (const r of rows) held.set(r.lineNo, (held.get(r.lineNo) ?? 0) + r.quantity);
  return held;
}

function returnableOf(status: OrderStatus, lines: { lineNo: number; quantity: number }[], held: Map<number, number>) {
  if (!RETURNABLE_ORDER_STATUSES.includes(status)) return [];
  return lines
    .map((l) => ({ lineNo: l.lineNo, quantity: l.quantity - (held.get(l.lineNo) ?? 0) }))
    .filter((l) => l.quantity > 0);
}

/**
 * An order's return requests (oldest first) and what can still be returned: the part of the order
 * view that belongs to returns. Read by the orders module for /ecommerce/order/status.
 */
export async function orderReturns(
  db: Reader,
  ctx: TenantContext,
  order: OrderForReturns,
): Promise<{ returns: ReturnRequest[]; returnable: ReturnableLine[] }> {
  const requests = order.justPlaced
    ? []
    : await db
        .select()
        .from(rr)
        .where(and(eq(rr.tenantId, ctx.tenantId), eq(rr.orderId, order.orderId)))
        .orderBy(asc(rr.createdAt), asc(rr.returnId));
  if (requests.length === 0) {
    return { returns: [], returnable: returnableOf(order.status, order.lines, new Map()) };
  }
  const ids = requests.map((r) => r.returnId);
  const [lines, history] = await Promise.all([
    db
      .select()
      .from(rl)
      .where(and(eq(rl.tenantId, ctx.tenantId), inArray(rl.returnId, ids)))
      .orderBy(asc(rl.lineNo)),
    db
      .select()
      .from(rh)
      .where(and(eq(rh.tenantId, ctx.tenantId), inArray(rh.returnId, ids)))
      .orderBy(asc(rh.seq)),
  ]);
  const byLine = new Map(order.lines.map((l) => [l.lineNo, l]));
  const held = new Map<number, number>();
  const returns = requests.map((r): ReturnRequest => {
    const status = r.status as ReturnStatus;
    const mine = lines.filter((l) => l.returnId === r.returnId);
    if (HOLDING_RETURN_STATUSES.includes(status)) {
      for (const l of mine) held.set(l.lineNo, (held.get(l.lineNo) ?? 0) + l.quantity);
    }
    return {
      returnId: r.returnId,
      orderId: r.orderId,
      status,
      statusLabel: RETURN_STATUS_LABELS[status],
      reason: r.reason as ReturnReason,
      reasonLabel: RETURN_REASON_LABELS[r.reason as ReturnReason] ?? r.reason,
      note: r.note,
      createdAt: r.createdAt.toISOString(),
      // The return names its order line; the line is what says which variant went back.
      lines: mine.map((l) => {
        const line = byLine.get(l.lineNo);
        return {
          lineNo: l.lineNo,
          productId: line?.productId ?? '',
          productName: line?.productName ?? '',
          variantId: line?.variantId ?? null,
          variantTitle: line?.variantTitle ?? '',
          sku: line?.sku ?? null,
          quantity: l.quantity,
        };
      }),
      history: history
        .filter((h) => h.returnId === r.returnId)
        .map((h) => ({
          status: h.status as ReturnStatus,
          note: h.note,
          amount: h.amount,
          at: h.createdAt.toISOString(),
        })),
    };
  });
  return { returns, returnable: returnableOf(order.status, order.lines, held) };
}

export interface ReturnsDeps {
  orders: OrdersService;
  mailer: Omit<MailQueue, 'sendWhere'>;
  log: FastifyBaseLogger;
  /** scheme://host[:port] for links in mail, from the store's canonical host. */
  linkOrigin: (canonicalHost: string) => string;
}

/**
 * Why a return request is refused: NOT_RETURNABLE (422, the order is not delivered or completed),
 * UNPROCESSABLE (422, the order has no such line or product), BAD_REQUEST (400, a product on several
 * lines, a line named twice), RETURN_QUANTITY_EXCEEDED (422 more than was bought; 409 more than is
 * left, or nothing left at all).
 */
export type RequestReturnRefusal = Refusal<
  'NOT_RETURNABLE' | 'UNPROCESSABLE' | 'BAD_REQUEST' | 'RETURN_QUANTITY_EXCEEDED'
>;

/** Refuses a request from inside its transaction (rolled back), returned at `submit`'s edge. */
const refused = (r: RequestReturnRefusal) => new Refused(r);

/** Which order lines, and how many of each, a request asks back (or throws `Refused`). */
type Pick = (
  lines: OrderLineRow[],
  held: Map<number, number>,
  orderId: string,
) => { lineNo: number; quantity: number }[];

/**
 * Return requests (RMA) for delivered orders. Only the order's owner (or a guest with its signed link)
 * may ask; the quantities asked never exceed what was bought, counting every request that still holds
 * its quantities. The order row is locked while a request is checked and written, so concurrent
 * requests for one order are decided one after the other.
 */
export function createReturnsService(db: Db, deps: ReturnsDeps) {
  async function submit(
    ctx: TenantContext,
    who: ReturnAsker,
    input: { orderId: string; reason: ReturnReason; note?: string },
    pick: Pick,
  ): Promise<Result<ReturnRequest, RequestReturnRefusal>> {
    // 404 for another shopper's order, another store's, or a wrong link: nothing tells them apart.
    await deps.orders.access(ctx, input.orderId, who);
    const written = await returnRefusals<Result<string, RequestReturnRefusal>, RequestReturnRefusal>(async () =>
      ok(
        await db.transaction(async (tx) => {
          const [order] = await tx
            .select({ status: o.status, userId: o.userId })
            .from(o)
            .where(and(eq(o.tenantId, ctx.tenantId), eq(o.orderId, input.orderId)))
            .for('update');
          if (!order) throw AppError.notFound(`Order ${input.orderId} was not found.`);
          const status = order.status as OrderStatus;
          if (!RETURNABLE_ORDER_STATUSES.includes(status)) {
            throw refused(
              refuse(
                422,
                'NOT_RETURNABLE',
                `Only delivered orders can be returned, and order ${input.orderId} is ${status}.`,
              ),
            );
          }
          const lines = await tx
            .select()
            .from(ol)
            .where(and(eq(ol.tenantId, ctx.tenantId), eq(ol.orderId, input.orderId)))
            .orderBy(asc(ol.lineNo));
          const held = await heldQuantities(tx, ctx, input.orderId);
          const chosen = pick(lines, held, input.orderId);
          // Numbered per order under the lock: readable ("LIG-…-R2") and never taken twice.
          const [{ n } = { n: 0 }] = await tx
            .select({ n: count() })
            .from(rr)
            .where(and(eq(rr.tenantId, ctx.tenantId), eq(rr.orderId, input.orderId)));
          const id = `${input.orderId}-R${n + 1}`;
          await tx.insert(rr).values({
            tenantId: ctx.tenantId,
            returnId: id,
            orderId: input.orderId,
            userId: order.userId,
            status: 'requested',
            reason: input.reason,
            note: input.note ?? null,
          });
          await tx.insert(rl).values(
            chosen.map((c) => ({
              tenantId: ctx.tenantId,
              returnId: id,
              orderId: input.orderId,
              lineNo: c.lineNo,
              quantity: c.quantity,
            })),
          );
          await tx
            .insert(rh)
            .values({ tenantId: ctx.tenantId, returnId: id, seq: 1, status: 'requested', note: 'Return requested' });
          return id;
        }),
      ),
    );
    if (!written.ok) return written;
    const returnId = written.value;
    const order = await deps.orders.placed(ctx, input.orderId, false);
    const created = order.returns.find((r) => r.returnId === returnId) as ReturnRequest;
    // A mail outage never undoes a recorded request.
    await sendRequested(ctx, order, created).catch((err: unknown) =>
      deps.log.error({ err, returnId }, 'return mail not sent'),
    );
    return ok(created);
  }

  async function sendRequested(ctx: TenantContext, order: Order, ret: ReturnRequest) {
    const store = await storeIdentity(db, ctx);
    if (!store) return;
    const [row] = await db
      .select({ userId: o.userId })
      .from(o)
      .where(and(eq(o.tenantId, ctx.tenantId), eq(o.orderId, order.orderId)));
    // A guest reaches the order only through its signed link; links use the store's canonical host.
    const key = row?.userId ? '' : `&key=${encodeURIComponent(deps.orders.accessKey(ctx, order.orderId))}`;
    const link = `${deps.linkOrigin(store.host)}/order?orderId=${encodeURIComponent(order.orderId)}${key}`;
    await deps.mailer.send(ctx, {
      to: order.email,
      subject: `Your return request ${ret.returnId} at ${store.name}`,
      text: [
        `We have your request to return items of order ${order.orderId}.`,
        '',
        ...ret.lines.map((l) => {
          const variant = orderLineVariantText(l);
          return `${l.quantity} x ${l.productName}${variant ? ` (${variant})` : ''}`;
        }),
        '',
        `Reason: ${ret.reasonLabel}${ret.note ? ` (${ret.note})` : ''}`,
        '',
        'Please do not send anything yet: we will email you once the store has approved the return.',
        `See your order and its returns: ${link}`,
      ].join('\n'),
    });
  }

  return {
    /** POST /ecommerce/createreturns: the lines the shopper chose, each at most what is left of it. */
    async create(
      ctx: TenantContext,
      who: ReturnAsker,
      input: CreateReturn,
    ): Promise<Result<ReturnRequest, RequestReturnRefusal>> {
      return submit(ctx, who, input, (lines, held, orderId) => {
        const seen = new Set<number>();
        return input.lines.map((asked) => {
          let line: OrderLineRow | undefined;
          if (asked.lineNo !== undefined) {
            line = lines.find((l) => l.lineNo === asked.lineNo);
            if (!line) throw refused(refuse(422, 'UNPROCESSABLE', `Order ${orderId} has no line ${asked.lineNo}.`));
          } else {
            // By product, or by variant (decision 112): two variants of one product are two lines, and
            // one variant in two configurations too, so either may need the line's number.
            const named = (asked.variantId ?? asked.productId) as string;
            const matches = lines.filter((l) =>
              asked.variantId !== undefined ? l.variantId === asked.variantId : l.productId === asked.productId,
            );
            if (matches.length === 0) {
              throw refused(refuse(422, 'UNPROCESSABLE', `Order ${orderId} has no ${named}.`));
            }
            if (matches.length > 1) {
              throw refused(
                refuse(
                  400,
                  'BAD_REQUEST',
                  `${named} is on several lines of order ${orderId}; name the line by lineNo.`,
                ),
              );
            }
            line = matches[0] as OrderLineRow;
          }
          const name = variantDisplayName(line.productName, line.variantTitle);
          if (seen.has(line.lineNo)) {
            throw refused(refuse(400, 'BAD_REQUEST', `Line ${line.lineNo} (${name}) is named twice.`));
          }
          seen.add(line.lineNo);
          const already = held.get(line.lineNo) ?? 0;
          if (asked.quantity > line.quantity) {
            throw refused(
              refuse(
                422,
                'RETURN_QUANTITY_EXCEEDED',
                `You bought ${line.quantity} × ${name}: ${asked.quantity} cannot be returned.`,
              ),
            );
          }
          if (asked.quantity > line.quantity - already) {
            const left = line.quantity - already;
            throw refused(
              refuse(
                409,
                'RETURN_QUANTITY_EXCEEDED',
                left === 0
                  ? `Every ${name} of this order is already in a return request.`
                  : `Only ${left} of ${name} can still be returned (${line.quantity} bought, ${already} already in return requests).`,
              ),
            );
          }
          return { lineNo: line.lineNo, quantity: asked.quantity };
        });
      });
    },

    /** POST /ecommerce/createRmaReturn: one request for everything of the order not yet asked back. */
    async createRma(
      ctx: TenantContext,
      who: ReturnAsker,
      input: CreateRmaReturn,
    ): Promise<Result<ReturnRequest, RequestReturnRefusal>> {
      return submit(ctx, who, input, (lines, held, orderId) => {
        const left = lines
          .map((l) => ({ lineNo: l.lineNo, quantity: l.quantity - (held.get(l.lineNo) ?? 0) }))
          .filter((l) => l.quantity > 0);
        if (left.length === 0) {
          throw refused(
            refuse(409, 'RETURN_QUANTITY_EXCEEDED', `Everything in order ${orderId} is already in a return request.`),
          );
        }
        return left;
      });
    },

    /**
     * Moves a request on (the store's side: approve, receive, refund, reject; the shopper's: cancel).
     * The request row is locked, so two decisions at once cannot both apply.
     */
    async transition(
      ctx: TenantContext,
      returnId: string,
      to: ReturnStatus,
      note: string | null = null,
    ): Promise<Result<undefined, ReturnTransitionRefusal>> {
      return db.transaction(async (tx) => {
        const moved = await transitionReturn(tx, ctx, returnId, to, { note });
        // Nothing else is written here: the refused move changed nothing, so it is simply returned.
        return moved.ok ? ok(undefined) : returnTransitionRefused(moved);
      });
    },
  };
}

export type ReturnsService = ReturnType<typeof createReturnsService>;
