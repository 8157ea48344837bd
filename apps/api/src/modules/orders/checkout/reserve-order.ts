import { randomBytes } from 'node:crypto';
import { type Cart, type PlaceOrder, type Quote, variantDisplayName } from '@app/contracts';
import { type Db, insertWhere, schema } from '@app/db';
import { and, count, eq, sql } from 'drizzle-orm';
import { type RequestContext, systemContext, type TenantContext } from '../../../lib/context';
import { Refused, refuse } from '../../../lib/result';
import { evaluatePromo } from '../../cart/index';
import { changeStock, changeStockAlong } from '../../products/index';
import { givePromoUsesBack, recordPromoRedemption, takePromoUse } from '../../promotions/index';
import { historyActor, type OrderHistoryRow, type OrderRow } from '../order-transition';
import type { Buyer } from './checkout-types';

const o = schema.orders;
const pr = schema.promoRedemptions;
const ol = schema.orderLines;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * What an order keeps of cart line `i`, numbered from 1: written by reserve, and the same fields
 * in the answer of the request that placed it.
 */
export function orderLineOf(l: Cart['lines'][number], i: number) {
  return {
    lineNo: i + 1,
    productId: l.productId,
    variantId: variantOfLine(l),
    // Snapshots, as the product's name is: '' for a default variant.
    variantTitle: l.variantTitle,
    sku: l.sku,
    productName: l.productName,
    optionsText: l.optionsText ?? null,
    quantity: l.quantity,
    unitPrice: l.unitPrice,
    lineTotal: l.lineTotal,
  };
}

/** What reserve wrote: the order's row and its first history row. */
export interface Placed {
  row: OrderRow;
  entry: OrderHistoryRow;
}

/**
 * Who the order's history names. Until every route hands checkout a RequestContext, a bare store
 * context records the checkout itself as the actor (the order row names the buyer).
 */
export const acting = (ctx: TenantContext | RequestContext): RequestContext =>
  'actor' in ctx ? ctx : systemContext(ctx, 'checkout');

/**
 * The variant a line is of: a cart line names it; an order line written before variants, of a
 * product deleted since, has none, and is its product's default variant (whose id is the product's).
 */
const variantOfLine = (l: { productId: string; variantId?: string | null }): string => l.variantId ?? l.productId;

/**
 * The units of each variant the lines hold: two lines of one variant (other configuration choices) are
 * taken, and given back, as their sum, in one stock movement.
 */
function unitsByVariant(lines: readonly { productId: string; variantId?: string | null; quantity: number }[]) {
  const units = new Map<string, number>();
  for (const l of lines) units.set(variantOfLine(l), (units.get(variantOfLine(l)) ?? 0) + l.quantity);
  return [...units];
}

/**
 * Gives back what reserve took for an order, in the caller's transaction: each line's stock, and the
 * promo use if the order had one. Called by checkout's undo and by the sweep of stuck orders; each
 * calls it only in the transaction that removed or cancelled a still-placed order, so it runs once.
 */
export async function giveBackReservation(
  tx: Tx,
  ctx: TenantContext,
  orderId: string,
  lines: { productId: string; variantId?: string | null; quantity: number }[],
) {
  // Through the books (modules/products/inventory): the stock comes back as RELEASED, linked to the order, one
  // movement per variant as reserve took it.
  const back = await changeStock(
    tx,
    ctx,
    unitsByVariant(lines).map(([variantId, quantity]) => ({
      variantId,
      delta: quantity,
      reason: 'RELEASED' as const,
      orderId,
    })),
  );
  // A product of a placed order cannot be gone (products with orders are archived, not deleted).
  if (!back.ok) throw new Error(`stock of order ${orderId} not given back: ${back.code} ${back.productId}`);
  // Through the promotions module, which owns the codes and their redemptions.
  await givePromoUsesBack(tx, ctx, orderId);
}

/** A short order number a shopper can read out on the phone: store prefix, then 8 characters. */
export function newOrderId(tenantId: string) {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(8);
  const tail = Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
  return `${tenantId.slice(0, 3).toUpperCase()}-${tail}`;
}

/** How a code's per-customer limit is told, at checkout and when the order is placed alike. */
export const perCustomerMessage = (code: string, limit: number) =>
  `${code} can be used only ${limit === 1 ? 'once' : `${limit} times`} per customer.`;

/** Who a code's per-customer limit counts: the account, else the receipt's email. */
export const promoCustomerKey = (userId: string | null, email: string) =>
  userId ? `user:${userId}` : `email:${email.toLowerCase()}`;

/** What reserve writes an order from: the priced cart, the buyer, and the payment as first known. */
export interface Reservation {
  orderId: string;
  buyer: Buyer;
  email: string;
  input: Pick<PlaceOrder, 'shipTo' | 'shippingMethodId'>;
  cart: Cart;
  cartRow: { promoCode: string | null };
  quote: Quote;
  method: string;
  idempotencyKey: string;
  requestHash: string;
  paymentLabel: string;
  paymentProvider: string;
  paymentAccount: string | null;
}

/**
 * Step 1: takes the stock and the promo use and writes the order, or nothing at all. Without a
 * promo code, `db` is the database and the step is one statement with no transaction around it:
 * the order, its lines, its first history row, the stock and its movements (decision 064). With
 * one, `db` is a transaction, and the code's use is written in it after that statement.
 */
export async function reserve(ctx: TenantContext, db: Db, a: Reservation): Promise<Placed> {
  const placed = {
    tenantId: ctx.tenantId,
    orderId: a.orderId,
    seq: 1,
    status: 'placed',
    fromStatus: null,
    note: 'Order placed',
    reason: null,
    ...historyActor(acting(ctx)),
  };
  // Through the books (modules/products/inventory): the take and its SOLD movements, and with them the order,
  // all or nothing. Atomic per product: a take only happens while enough is left, so concurrent
  // orders cannot oversell. The order's key's unique index turns a retry away (an error, so the
  // statement writes nothing). In one statement, the product rows, which every order of a popular
  // product waits for, are locked only until the statement ends: no trip back here before COMMIT.
  const taken = await changeStockAlong(
    db,
    ctx,
    unitsByVariant(a.cart.lines).map(([variantId, quantity]) => ({
      variantId,
      delta: -quantity,
      reason: 'SOLD' as const,
      orderId: a.orderId,
    })),
    // The order's insert adds it to its customer's row in customer_summaries (a guest's by email, an
    // account's by user), by the triggers modules/customers/summaries.ts names, in this statement.
    (ok) => [
      insertWhere(o, [orderRow(ctx, a)], ok),
      insertWhere(
        ol,
        a.cart.lines.map((l, i) => ({
          tenantId: ctx.tenantId,
          orderId: a.orderId,
          ...orderLineOf(l, i),
          // The variant's SKU as it is when the order is placed, read by the same statement.
          sku: sql`(SELECT sku FROM product_variants WHERE tenant_id = ${ctx.tenantId} AND variant_id = ${variantOfLine(l)})`,
        })),
        ok,
      ),
      insertWhere(schema.orderStatusHistory, [placed], ok),
    ],
  );
  if (!taken.ok) {
    const line =
      a.cart.lines.find((l) => 'variantId' in taken && l.variantId === taken.variantId) ??
      a.cart.lines.find((l) => l.productId === taken.productId);
    const product = line?.productName ?? 'An item';
    // Named as the shelf knows it: "Pendant, Brass / Large" (a default variant's title is '').
    const name = variantDisplayName(product, taken.code === 'INSUFFICIENT_STOCK' ? taken.variantTitle : '');
    throw new Refused(refuse(409, 'OUT_OF_STOCK', `Sorry, ${name} sold out while you were checking out.`));
  }
  if (a.cartRow.promoCode) {
    const code = a.cartRow.promoCode;
    // Through the promotions module: its row lock serialises uses of one code, so usage limits hold
    // under concurrency; `before` is the code as it was before this use.
    const before = await takePromoUse(db, ctx, code);
    const check = evaluatePromo(before, a.cart.subtotal, a.cart.currency, new Date());
    // Thrown (Refused) so the transaction around the take writes nothing; returned by the service.
    if (!check.ok) throw new Refused(refuse(422, 'PROMO_INVALID', check.message));
    const customerKey = promoCustomerKey(a.buyer.userId, a.email);
    if (before?.perCustomerLimit != null) {
      const [{ n } = { n: 0 }] = await db
        .select({ n: count() })
        .from(pr)
        .where(and(eq(pr.tenantId, ctx.tenantId), eq(pr.code, code), eq(pr.customerKey, customerKey)));
      if (n >= before.perCustomerLimit) {
        throw new Refused(refuse(422, 'PROMO_INVALID', perCustomerMessage(code, before.perCustomerLimit)));
      }
    }
    await recordPromoRedemption(db, ctx, { orderId: a.orderId, code, customerKey });
  }
  // The row as written: the values given, and the columns' defaults (PostgreSQL's now() is the
  // statement's, which `at` is).
  const row: OrderRow = {
    ...orderRow(ctx, a),
    paymentRef: null,
    capturedAmount: 0,
    refundedAmount: 0,
    placedAt: taken.at,
    updatedAt: taken.at,
  } as OrderRow;
  return { entry: { ...placed, createdAt: taken.at }, row };
}

function orderRow(ctx: TenantContext, a: Reservation): typeof o.$inferInsert {
  const s = a.input.shipTo;
  return {
    tenantId: ctx.tenantId,
    orderId: a.orderId,
    userId: a.buyer.userId,
    email: a.email,
    status: 'placed',
    currency: a.quote.currency,
    subtotal: a.quote.subtotal,
    discount: a.quote.discount,
    shippingTotal: a.quote.shipping,
    taxTotal: a.quote.tax,
    taxIncluded: a.quote.taxIncluded,
    grandTotal: a.quote.total,
    promoCode: a.quote.discount > 0 ? a.cartRow.promoCode : null,
    shippingMethodId: a.input.shippingMethodId,
    shippingMethodName: a.method,
    shipTo: {
      toName: s.toName,
      address1: s.address1,
      address2: s.address2 ?? null,
      city: s.city,
      postalCode: s.postalCode.toUpperCase(),
      countryGeoId: s.countryGeoId,
      stateProvinceGeoId: s.stateProvinceGeoId ?? null,
      phone: s.phone ?? null,
    },
    billTo: null,
    paymentProvider: a.paymentProvider,
    paymentAccount: a.paymentAccount,
    paymentLabel: a.paymentLabel,
    idempotencyKey: a.idempotencyKey,
    requestHash: a.requestHash,
  };
}
