import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Order, OrderStatus, OrderSummary, ReturnableLine, ReturnRequest } from '@app/contracts';
import { productDisplayImage } from '@app/contracts/client';
import { type Db, schema } from '@app/db';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import { createAttempts, tooManyAttempts } from '../../lib/attempts';
import type { RequestContext, TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { absoluteMediaUrl } from '../../lib/urls';
import { COUNTRIES } from '../geo/index';
import { STATUS_LABELS } from './order-state';

const o = schema.orders;
const ol = schema.orderLines;
const oh = schema.orderStatusHistory;
const p = schema.products;
const of = schema.orderFulfillments;
const orf = schema.orderRefunds;
const oev = schema.orderEvents;

/** The names of an order address's country and region, from the geo list (the ids when unknown). */
function placeNames(countryGeoId: string, regionGeoId: string | null) {
  const country = COUNTRIES.find((c) => c.geoId === countryGeoId);
  const region = regionGeoId ? (country?.regions.find((r) => r.geoId === regionGeoId)?.name ?? regionGeoId) : null;
  return { countryName: country?.name ?? countryGeoId, regionName: region };
}

export const ORDERS_PAGE_SIZE = 10;
/** A guest's link to an order works this long. */
const ACCESS_TTL_MS = 90 * 24 * 3600 * 1000;

/**
 * The returns part of an order's view (its requests and what can still be sent back). The returns
 * module provides it (`orderReturns`) and app.ts passes it in: returns depends on orders, never the
 * other way round.
 */
export type OrderReturnsReader = (
  db: Db,
  ctx: TenantContext,
  order: OrderForReturns,
) => Promise<{ returns: ReturnRequest[]; returnable: ReturnableLine[] }>;

/** What the returns part of an order's view is read from: the order, its status and its lines. */
export interface OrderForReturns {
  orderId: string;
  status: OrderStatus;
  lines: {
    lineNo: number;
    productId: string;
    productName: string;
    variantId: string | null;
    variantTitle: string;
    sku: string | null;
    quantity: number;
  }[];
  /** Checkout has just placed it: no return can have been asked for yet, so none is read. */
  justPlaced?: boolean;
}

/** An order line as its buyer sees it. */
type ShownLine = Order['lines'][number];

/**
 * What checkout has just written and read back in its own transaction: the order's row, its whole
 * history and its lines as the cart showed them (the same product link and picture the order page
 * reads), for an order it has just made paid.
 */
export interface FreshOrder {
  row: typeof o.$inferSelect;
  history: (typeof oh.$inferSelect)[];
  lines: ShownLine[];
}

/**
 * Orders as shoppers read them. A signed-in shopper sees their own orders; a guest reaches an order
 * only through its signed link (`expiry.signature`, bound to the store and the order).
 */
/**
 * Wrong guest order keys allowed per client address, and per order (higher: a shared address such
 * as an office must not lock a customer out of their own order), within the window.
 */
export const ORDER_KEY_LIMITS = { windowMs: 15 * 60_000, failuresPerClient: 10, failuresPerOrder: 30 } as const;

export function createOrdersService(db: Db, deps: { secret: string; returnsOf: OrderReturnsReader }) {
  const attempts = createAttempts(db);
  const sign = (tenantId: string, orderId: string, expires: number) =>
    createHmac('sha256', deps.secret).update(`order\0${tenantId}\0${orderId}\0${expires}`).digest('base64url');

  function accessKey(ctx: TenantContext, orderId: string, now = Date.now()): string {
    const expires = Math.floor((now + ACCESS_TTL_MS) / 1000);
    return `${expires}.${sign(ctx.tenantId, orderId, expires)}`;
  }

  function keyValid(ctx: TenantContext, orderId: string, key: string | undefined): boolean {
    const [exp, sig] = (key ?? '').split('.');
    const expires = Number(exp);
    if (!sig || !Number.isInteger(expires) || expires * 1000 < Date.now()) return false;
    const expected = Buffer.from(sign(ctx.tenantId, orderId, expires));
    const given = Buffer.from(sig);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /**
   * Whether `who` may see and act on the order: its signed-in owner (`mine`), or a holder of its
   * signed link. Anyone else gets the same 404 as for an order that does not exist.
   */
  async function access(
    ctx: TenantContext | RequestContext,
    orderId: string,
    who: { userId: string | null; key?: string },
  ): Promise<{ mine: boolean }> {
    const [row] = await db
      .select({ userId: o.userId })
      .from(o)
      .where(and(eq(o.tenantId, ctx.tenantId), eq(o.orderId, orderId)));
    const mine = Boolean(row && who.userId !== null && row.userId === who.userId);
    if (mine) return { mine };
    // Without a key there is nothing to guess: the same 404 as for an order that does not exist.
    if (!who.key) throw AppError.notFound(`Order ${orderId} was not found.`);
    await keyGuard(ctx, orderId, Boolean(row) && keyValid(ctx, orderId, who.key));
    return { mine };
  }

  /**
   * A guest's signed link is the only thing between a stranger and an order's address: wrong keys
   * are counted per client address and per order, and past the limit even the right key waits
   * (429 with Retry-After), so guessing is not worth trying. Throws the 404 of a wrong key itself.
   */
  async function keyGuard(ctx: TenantContext | RequestContext, orderId: string, valid: boolean) {
    const ip = 'ip' in ctx ? ctx.ip : null;
    const subjects = [...(ip ? [`ip:${ip}`] : []), `order:${orderId.slice(0, 64)}`];
    const [byClient, byOrder] = await Promise.all([
      ip ? attempts.count(ctx, 'order-key', `ip:${ip}`, ORDER_KEY_LIMITS.windowMs, true) : 0,
      attempts.count(ctx, 'order-key', `order:${orderId.slice(0, 64)}`, ORDER_KEY_LIMITS.windowMs, true),
    ]);
    if (byClient >= ORDER_KEY_LIMITS.failuresPerClient || byOrder >= ORDER_KEY_LIMITS.failuresPerOrder) {
      throw tooManyAttempts(ORDER_KEY_LIMITS.windowMs);
    }
    if (!valid) {
      await attempts.record(ctx, 'order-key', subjects, false);
      throw AppError.notFound(`Order ${orderId} was not found.`);
    }
  }

  /**
   * The order as its buyer sees it. `fresh`: what checkout has just written (FreshOrder): then
   * nothing is read, since shipments, refunds, returns and shopper events cannot exist yet.
   */
  async function load(
    ctx: TenantContext,
    orderId: string,
    withKey: boolean,
    fresh?: FreshOrder,
  ): Promise<Order | null> {
    if (fresh) {
      const history = [...fresh.history].sort((a, b) => a.seq - b.seq);
      return shown(ctx, fresh.row, { lines: fresh.lines, history, justPlaced: true }, withKey);
    }
    const [row] = await db
      .select()
      .from(o)
      .where(and(eq(o.tenantId, ctx.tenantId), eq(o.orderId, orderId)));
    if (!row) return null;
    const [lines, history, shipments, refunds, events] = await Promise.all([
      // The product as it is now, for the line's link and picture; a product since removed has neither.
      db
        .select({
          line: ol,
          slug: p.slug,
          smallImageUrl: p.smallImageUrl,
          mediumImageUrl: p.mediumImageUrl,
          detailImageUrl: p.detailImageUrl,
        })
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
      // Only money that went back: a pending or failed refund is the store's business until it settles.
      db
        .select({
          amount: orf.amount,
          taxAmount: orf.taxAmount,
          reason: orf.reason,
          at: orf.settledAt,
          createdAt: orf.createdAt,
        })
        .from(orf)
        .where(and(eq(orf.tenantId, ctx.tenantId), eq(orf.orderId, orderId), eq(orf.status, 'succeeded')))
        .orderBy(asc(orf.createdAt)),
      // Staff notes and mails stay on the store's side; shipments, refunds and return steps do not.
      db
        .select({ kind: oev.kind, message: oev.message, at: oev.createdAt })
        .from(oev)
        .where(and(eq(oev.tenantId, ctx.tenantId), eq(oev.orderId, orderId), eq(oev.visibleToShopper, true)))
        .orderBy(asc(oev.createdAt)),
    ]);
    const orderLines = lines.map(
      ({ line: l, ...product }): ShownLine => ({
        lineNo: l.lineNo,
        productId: l.productId,
        variantId: l.variantId,
        variantTitle: l.variantTitle,
        sku: l.sku,
        productName: l.productName,
        slug: product.slug,
        imageUrl: productDisplayImage({
          smallImageUrl: absoluteMediaUrl(ctx, product.smallImageUrl),
          mediumImageUrl: absoluteMediaUrl(ctx, product.mediumImageUrl),
          detailImageUrl: absoluteMediaUrl(ctx, product.detailImageUrl),
        }),
        optionsText: l.optionsText,
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        lineTotal: l.lineTotal,
      }),
    );
    return shown(ctx, row, { lines: orderLines, history, shipments, refunds, events }, withKey);
  }

  /** The buyer's view of an order from its rows. */
  async function shown(
    ctx: TenantContext,
    row: typeof o.$inferSelect,
    parts: {
      lines: ShownLine[];
      history: (typeof oh.$inferSelect)[];
      shipments?: (typeof of.$inferSelect)[];
      refunds?: { amount: number; taxAmount: number; reason: string; at: Date | null; createdAt: Date }[];
      events?: { kind: string; message: string; at: Date }[];
      justPlaced?: boolean;
    },
    withKey: boolean,
  ): Promise<Order> {
    const status = row.status as OrderStatus;
    const { lines, history, shipments = [], refunds = [], events = [] } = parts;
    const { returns, returnable } = await deps.returnsOf(db, ctx, {
      orderId: row.orderId,
      status,
      lines,
      ...(parts.justPlaced ? { justPlaced: true } : {}),
    });
    return {
      orderId: row.orderId,
      status,
      statusLabel: STATUS_LABELS[status],
      placedAt: row.placedAt.toISOString(),
      email: row.email,
      currency: row.currency,
      lines,
      subtotal: row.subtotal,
      discount: row.discount,
      promoCode: row.promoCode,
      shipping: row.shippingTotal,
      tax: row.taxTotal,
      taxIncluded: row.taxIncluded,
      total: row.grandTotal,
      shippingMethod: row.shippingMethodName,
      shipTo: { ...row.shipTo, ...placeNames(row.shipTo.countryGeoId, row.shipTo.stateProvinceGeoId) },
      payment: row.paymentLabel,
      history: history.map((h) => ({ status: h.status as OrderStatus, note: h.note, at: h.createdAt.toISOString() })),
      accessKey: withKey ? accessKey(ctx, row.orderId) : null,
      shipments: shipments.map((f) => ({
        carrierName: f.carrierName,
        trackingNumber: f.trackingNumber,
        trackingUrl: f.trackingUrl,
        shippedAt: f.createdAt.toISOString(),
      })),
      refunds: refunds.map((r) => ({
        amount: r.amount,
        taxAmount: r.taxAmount,
        reason: r.reason,
        at: (r.at ?? r.createdAt).toISOString(),
      })),
      refundedTotal: row.refundedAmount,
      events: events.map((e) => ({ kind: e.kind, message: e.message, at: e.at.toISOString() })),
      returns,
      returnable,
    };
  }

  return {
    accessKey,

    /** The order for its owner, or for whoever holds its signed link; 404 for anyone else. */
    async read(ctx: TenantContext, orderId: string, who: { userId: string | null; key?: string }): Promise<Order> {
      const { mine } = await access(ctx, orderId, who);
      return (await load(ctx, orderId, !mine)) as Order;
    },

    access,

    /** The order right after checkout placed it: the buyer gets the signed link if they are a guest. */
    async placed(ctx: TenantContext, orderId: string, guest: boolean, fresh?: FreshOrder): Promise<Order> {
      const order = await load(ctx, orderId, guest, fresh);
      if (!order) throw AppError.notFound(`Order ${orderId} was not found.`);
      return order;
    },

    async history(
      ctx: TenantContext,
      userId: string,
      page: number,
    ): Promise<{ orders: OrderSummary[]; total: number; page: number; pageSize: number }> {
      const where = and(eq(o.tenantId, ctx.tenantId), eq(o.userId, userId));
      const [rows, [{ n } = { n: 0 }]] = await Promise.all([
        db
          .select()
          .from(o)
          .where(where)
          .orderBy(desc(o.placedAt), desc(o.orderId))
          .limit(ORDERS_PAGE_SIZE)
          .offset((page - 1) * ORDERS_PAGE_SIZE),
        db.select({ n: count() }).from(o).where(where),
      ]);
      return {
        orders: rows.map((r) => ({
          orderId: r.orderId,
          status: r.status as OrderStatus,
          statusLabel: STATUS_LABELS[r.status as OrderStatus],
          placedAt: r.placedAt.toISOString(),
          currency: r.currency,
          total: r.grandTotal,
        })),
        total: n,
        page,
        pageSize: ORDERS_PAGE_SIZE,
      };
    },
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
