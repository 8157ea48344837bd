import {
  customerHref,
  type OrderStatus,
  PAYMENT_STATUS_LABELS,
  paymentStatusOf,
  type StaffOrder,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { RequestContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import { COUNTRIES } from '../../geo/index';
import type { OrderRefunds } from '../order-refund';
import { canTransition, STATUS_LABELS } from '../order-state';

const o = schema.orders;
const ol = schema.orderLines;
const oh = schema.orderStatusHistory;
const of = schema.orderFulfillments;
const oev = schema.orderEvents;
const p = schema.products;
const u = schema.users;

function placeNames(countryGeoId: string, regionGeoId: string | null | undefined) {
  const country = COUNTRIES.find((c) => c.geoId === countryGeoId);
  const region = regionGeoId ? (country?.regions.find((r) => r.geoId === regionGeoId)?.name ?? regionGeoId) : null;
  return { countryName: country?.name ?? countryGeoId, regionName: region };
}

const EVENT_WORDS: Record<string, string> = {
  placed: 'Order placed',
  paid: 'Payment received',
  fulfilled: 'Marked as shipped',
  delivered: 'Marked as delivered',
  completed: 'Completed',
  cancelled: 'Cancelled',
  refunded: 'Refunded in full',
};

/**
 * The order page's read side: the order of this store (a 404 for any other id) and everything staff
 * see on its page. Apart from the actions (order-admin.service.ts), which read the order again
 * inside their transaction and answer with this view.
 */
export function createOrderReader(db: Db, deps: { refunds: Pick<OrderRefunds, 'list'> }) {
  async function row(ctx: RequestContext, orderId: string) {
    const [order] = await db
      .select()
      .from(o)
      .where(and(eq(o.tenantId, ctx.tenantId), eq(o.orderId, orderId)));
    if (!order) throw AppError.notFound(`Order ${orderId} was not found.`);
    return order;
  }

  async function view(ctx: RequestContext, orderId: string): Promise<StaffOrder> {
    const order = await row(ctx, orderId);
    const [lines, history, shipments, events, refunds, [counted]] = await Promise.all([
      db
        .select({ line: ol, productExists: p.productId })
        .from(ol)
        .leftJoin(p, and(eq(p.tenantId, ol.tenantId), eq(p.productId, ol.productId)))
        .where(and(eq(ol.tenantId, ctx.tenantId), eq(ol.orderId, orderId)))
        .orderBy(asc(ol.lineNo)),
      db
        .select()
        .from(oh)
        .where(and(eq(oh.tenantId, ctx.tenantId), eq(oh.orderId, orderId)))
        .orderBy(asc(oh.seq)),
      db
        .select()
        .from(of)
        .where(and(eq(of.tenantId, ctx.tenantId), eq(of.orderId, orderId)))
        .orderBy(asc(of.createdAt)),
      db
        .select()
        .from(oev)
        .where(and(eq(oev.tenantId, ctx.tenantId), eq(oev.orderId, orderId)))
        .orderBy(asc(oev.createdAt)),
      deps.refunds.list(ctx, orderId),
      // The customer's orders in this store: by account (orders_user_idx), a guest by the email.
      order.userId
        ? db
            .select({ n: count() })
            .from(o)
            .where(and(eq(o.tenantId, ctx.tenantId), eq(o.userId, order.userId)))
        : db
            .select({ n: count() })
            .from(o)
            .where(
              and(
                eq(o.tenantId, ctx.tenantId),
                isNull(o.userId),
                sql`lower(${o.email}) = ${order.email.toLowerCase()}`,
              ),
            ),
    ]);
    // Names of the people in the history (the events keep theirs as written).
    const userIds = [
      ...new Set(
        [
          order.userId,
          ...history.map((h) => (h.actorKind === 'staff' || h.actorKind === 'shopper' ? h.actorId : null)),
        ].filter((x): x is string => Boolean(x)),
      ),
    ];
    const people = userIds.length
      ? await db
          .select({ userId: u.userId, firstName: u.firstName, lastName: u.lastName })
          .from(u)
          .where(and(eq(u.tenantId, ctx.tenantId), inArray(u.userId, userIds)))
      : [];
    const nameOf = (id: string | null) => {
      const person = people.find((x) => x.userId === id);
      return person ? [person.firstName, person.lastName].filter(Boolean).join(' ') : null;
    };
    const actorLabel = (kind: string | null, id: string | null, name?: string | null) => {
      if (kind === 'system') return id ? `System (${id})` : 'System';
      if (kind === 'guest') return 'Customer';
      if (kind === 'shopper') return name ?? nameOf(id) ?? 'Customer';
      if (kind === 'staff') return name ?? nameOf(id) ?? 'Staff';
      return null;
    };

    const holding = refunds.filter((r) => r.status !== 'failed');
    const refundedQty = new Map<number, number>();
    for (const r of holding)
      for (const l of r.lines) refundedQty.set(l.lineNo, (refundedQty.get(l.lineNo) ?? 0) + l.quantity);
    const pending = holding.filter((r) => r.status === 'pending').reduce((s, r) => s + r.amount, 0);
    const status = order.status as OrderStatus;
    // A unit's share of what the shopper paid for goods: its price less the order's discount, plus
    // tax when it was added on top (prices with tax hold it already; decision 116).
    const goodsFactor =
      order.subtotal > 0
        ? (order.subtotal - order.discount + (order.taxIncluded ? 0 : order.taxTotal)) / order.subtotal
        : 1;
    const refundable = Math.max(0, order.capturedAmount - order.refundedAmount - pending);
    const customerName =
      nameOf(order.userId) || order.billTo?.toName || order.shipTo.toName || order.email.split('@')[0] || order.email;

    const timeline: StaffOrder['timeline'] = [
      ...history.map((h) => ({
        id: `status-${h.seq}`,
        kind: 'status',
        message: h.note ?? EVENT_WORDS[h.status] ?? h.status,
        detail:
          [
            h.fromStatus
              ? `${STATUS_LABELS[h.fromStatus as OrderStatus] ?? h.fromStatus} → ${STATUS_LABELS[h.status as OrderStatus] ?? h.status}`
              : null,
            h.reason,
          ]
            .filter(Boolean)
            .join(' · ') || null,
        actor: actorLabel(h.actorKind, h.actorId),
        visibleToShopper: true,
        at: h.createdAt.toISOString(),
        sort: h.createdAt.getTime(),
        tie: h.seq,
      })),
      ...events.map((e, i) => ({
        id: e.eventId,
        kind: e.kind,
        message: e.message,
        detail: null,
        actor: actorLabel(e.actorKind, e.actorId, e.actorName),
        visibleToShopper: e.visibleToShopper,
        at: e.createdAt.toISOString(),
        sort: e.createdAt.getTime(),
        tie: 10_000 + i,
      })),
    ]
      // Newest first; within one instant, what was written later first.
      .sort((a, b) => b.sort - a.sort || b.tie - a.tie)
      .map(({ sort: _s, tie: _t, ...entry }) => entry);

    return {
      orderId: order.orderId,
      status,
      statusLabel: STATUS_LABELS[status],
      paymentStatus: paymentStatusOf({
        status,
        capturedAmount: order.capturedAmount,
        refundedAmount: order.refundedAmount,
      }),
      paymentStatusLabel:
        PAYMENT_STATUS_LABELS[
          paymentStatusOf({ status, capturedAmount: order.capturedAmount, refundedAmount: order.refundedAmount })
        ],
      placedAt: order.placedAt.toISOString(),
      currency: order.currency,
      lines: lines.map(({ line: l, productExists }) => ({
        lineNo: l.lineNo,
        productId: l.productId,
        variantId: l.variantId,
        variantTitle: l.variantTitle,
        sku: l.sku,
        productName: l.productName,
        productHref: productExists ? `/manage-store/products/${encodeURIComponent(l.productId)}` : null,
        optionsText: l.optionsText,
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        lineTotal: l.lineTotal,
        refundedQuantity: refundedQty.get(l.lineNo) ?? 0,
        refundPerUnit: Math.round(l.unitPrice * goodsFactor),
      })),
      subtotal: order.subtotal,
      discount: order.discount,
      promoCode: order.promoCode,
      shippingMethod: order.shippingMethodName,
      shipping: order.shippingTotal,
      tax: order.taxTotal,
      taxIncluded: order.taxIncluded,
      total: order.grandTotal,
      shipTo: { ...order.shipTo, ...placeNames(order.shipTo.countryGeoId, order.shipTo.stateProvinceGeoId) },
      billTo: order.billTo
        ? { ...order.billTo, ...placeNames(order.billTo.countryGeoId, order.billTo.stateProvinceGeoId) }
        : null,
      payment: {
        label: order.paymentLabel,
        provider: order.paymentProvider,
        captured: order.capturedAmount,
        refunded: order.refundedAmount,
        refundable,
        shippingRefundable: Math.max(0, order.shippingTotal - holding.reduce((s, r) => s + r.shippingAmount, 0)),
        refunds,
      },
      customer: {
        userId: order.userId,
        email: order.email,
        name: customerName,
        registered: order.userId !== null,
        href: customerHref({ userId: order.userId, email: order.email }),
        orderCount: counted?.n ?? 0,
      },
      shipments: shipments.map((f) => ({
        fulfillmentId: f.fulfillmentId,
        carrierName: f.carrierName,
        trackingNumber: f.trackingNumber,
        trackingUrl: f.trackingUrl,
        shippedAt: f.createdAt.toISOString(),
      })),
      timeline,
      can: {
        fulfil: canTransition(status, 'fulfilled'),
        deliver: canTransition(status, 'delivered'),
        cancel: canTransition(status, 'cancelled'),
        refund: refundable > 0,
      },
    };
  }

  /** The link a mail gives the shopper: their account's order page, or a guest's signed link. */

  return { row, view };
}
