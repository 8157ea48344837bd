import type * as schema from '../src/schema/index';
import type { BuiltStore, SeedProductRow } from './build';
import { commerceSeed } from './commerce';

/**
 * Past orders of the demo accounts, so order history, the PDF invoice, returns and reviews can be
 * tried on a fresh database: per account one delivered order (returnable, reviewable), one completed
 * (with a refunded return on the shopper's), one paid and one cancelled. Ids are stable and readable
 * (LIG-DEMO-S1: lighting, shopper, first order). Seeded history takes no stock.
 *
 * Totals follow the checkout's rules (apps/api/src/modules/orders/checkout/quote.ts): Standard shipping by
 * weight, free from the store's threshold, California sales tax on the goods; a test there checks
 * these orders against the real quote code.
 */
type Order = typeof schema.orders.$inferInsert;
type Line = typeof schema.orderLines.$inferInsert;
type History = typeof schema.orderStatusHistory.$inferInsert;
type ReturnRow = typeof schema.returnRequests.$inferInsert;
type ReturnLine = typeof schema.returnLines.$inferInsert;
type ReturnHistory = typeof schema.returnStatusHistory.$inferInsert;
type Refund = typeof schema.orderRefunds.$inferInsert;

export interface SeedOrders {
  orders: Order[];
  lines: Line[];
  history: History[];
  returns: ReturnRow[];
  returnLines: ReturnLine[];
  returnHistory: ReturnHistory[];
  refunds: Refund[];
}

export interface SeedBuyer {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  role: 'admin' | 'shopper';
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** California: the demo addresses' tax (725 basis points, goods only). */
const CA_TAX_BP = 725;

/** Which way an order went, with its steps as [status, note, hours after placing]. */
const STORIES = {
  delivered: {
    placed: Date.UTC(2026, 10, 2, 15, 20),
    steps: [
      ['paid', 'Payment received (Visa)', 0.01],
      ['fulfilled', 'Shipped with Standard', 20],
      ['delivered', 'Delivered', 4 * 24],
    ],
  },
  completed: {
    placed: Date.UTC(2026, 8, 12, 10, 5),
    steps: [
      ['paid', 'Payment received (Visa)', 0.01],
      ['fulfilled', 'Shipped with Standard', 22],
      ['delivered', 'Delivered', 4 * 24],
      ['completed', 'Completed', 30 * 24],
    ],
  },
  paid: {
    placed: Date.UTC(2026, 10, 20, 18, 45),
    steps: [['paid', 'Payment received (Visa)', 0.01]],
  },
  cancelled: {
    placed: Date.UTC(2026, 9, 3, 9, 30),
    steps: [['cancelled', 'Cancelled at your request', 2]],
  },
} as const satisfies Record<string, { placed: number; steps: readonly (readonly [string, string, number])[] }>;
type Story = keyof typeof STORIES;

/**
 * When the demo accounts were made (and their emails confirmed): two months before their first
 * seeded order, so "Customer since" never comes after the order history.
 */
export const SEED_ACCOUNTS_CREATED = new Date(Math.min(...Object.values(STORIES).map((x) => x.placed)) - 60 * DAY);

/** [story, [product index, quantity][]]: the shopper's and the owner's orders, in id order. */
const PLAN: [Story, [number, number][]][] = [
  [
    'delivered',
    [
      [0, 2],
      [1, 1],
    ],
  ],
  [
    'completed',
    [
      [2, 2],
      [3, 1],
    ],
  ],
  ['paid', [[4, 1]]],
  ['cancelled', [[5, 1]]],
];

const price = (p: SeedProductRow) => p.salePrice ?? p.listPrice;

/** The Standard method's rate for the goods, as the checkout computes it. */
function standardRate(prefix: string, weightGrams: number, subtotal: number): number {
  const standard = commerceSeed(prefix).shipping.find((m) => m.methodId === 'STANDARD');
  if (!standard?.bands) throw new Error('the seed has no Standard shipping method');
  if (standard.freeAbove != null && subtotal >= standard.freeAbove) return 0;
  const table = [...standard.bands].sort((a, b) => a.upTo - b.upTo);
  return (table.find((b) => weightGrams <= b.upTo) ?? table.at(-1))?.rate ?? 0;
}

export function seedOrders(b: BuiltStore, buyers: SeedBuyer[]): SeedOrders {
  const t = b.store.tenantId;
  const out: SeedOrders = {
    orders: [],
    lines: [],
    history: [],
    returns: [],
    returnLines: [],
    returnHistory: [],
    refunds: [],
  };
  // Plain, pictured, in-stock products in a fixed order; each account gets products of its own.
  const candidates = b.products
    .filter((p) => p.productType === 'FINISHED_GOOD' && p.stockQuantity > 0 && p.smallImageUrl)
    .sort((x, y) => x.productId.localeCompare(y.productId));
  const perBuyer = 6;
  // A product sold in variants was bought as its first variant, which kept the product's id and SKU.
  const variantTitle = new Map(
    b.variants.variants.filter((v) => v.variantId === v.productId).map((v) => [v.productId, v.title]),
  );
  buyers.forEach((buyer, bi) => {
    const who = buyer.role === 'admin' ? 'O' : 'S';
    const products = candidates
      .slice(bi * perBuyer * 2, bi * perBuyer * 2 + perBuyer * 2)
      .filter((_, i) => i % 2 === 0);
    PLAN.forEach(([story, items], oi) => {
      const orderId = `${t.slice(0, 3).toUpperCase()}-DEMO-${who}${oi + 1}`;
      const { placed: base, steps } = STORIES[story];
      // The owner's orders a day later than the shopper's: the two histories do not look copied.
      const placed = base + bi * DAY;
      const lines = items.map(([pi, quantity], li): Line => {
        const p = products[pi] as SeedProductRow;
        return {
          tenantId: t,
          orderId,
          lineNo: li + 1,
          productId: p.productId,
          productName: p.productName,
          variantId: p.productId,
          sku: p.sku,
          variantTitle: variantTitle.get(p.productId) ?? '',
          optionsText: null,
          quantity,
          unitPrice: price(p),
          lineTotal: price(p) * quantity,
        };
      });
      const subtotal = lines.reduce((s, l) => s + (l.lineTotal as number), 0);
      const weight = items.reduce((s, [pi, q]) => s + (products[pi] as SeedProductRow).weightGrams * q, 0);
      const shipping = standardRate(b.store.prefix, weight, subtotal);
      const tax = Math.round((subtotal * CA_TAX_BP) / 10000);
      const last = steps.at(-1) as readonly [string, string, number];
      out.orders.push({
        tenantId: t,
        orderId,
        userId: buyer.userId,
        email: buyer.email,
        status: last[0],
        currency: 'USD',
        subtotal,
        discount: 0,
        shippingTotal: shipping,
        taxTotal: tax,
        grandTotal: subtotal + shipping + tax,
        promoCode: null,
        shippingMethodId: 'STANDARD',
        shippingMethodName: 'Standard',
        shipTo: {
          toName: `${buyer.firstName} ${buyer.lastName}`,
          address1: buyer.role === 'admin' ? '500 Howard Street' : '1 Market Street',
          address2: null,
          city: 'San Francisco',
          postalCode: '94105',
          countryGeoId: 'USA',
          stateProvinceGeoId: 'US_CA',
          phone: null,
        },
        billTo: null,
        paymentProvider: 'test',
        paymentRef: story === 'cancelled' ? null : `seed-${orderId}`,
        // Every seeded story but the cancelled one was paid; refunds follow below (refundedAmount).
        capturedAmount: story === 'cancelled' ? 0 : subtotal + shipping + tax,
        refundedAmount: last[0] === 'refunded' ? subtotal + shipping + tax : 0,
        paymentLabel: 'Visa •••• 4242',
        idempotencyKey: `seed:${orderId}`,
        requestHash: 'seed',
        placedAt: new Date(placed),
        updatedAt: new Date(placed + last[2] * HOUR),
      });
      out.lines.push(...lines);
      out.history.push(
        { tenantId: t, orderId, seq: 1, status: 'placed', note: 'Order placed', createdAt: new Date(placed) },
        ...steps.map(([status, note, after], i) => ({
          tenantId: t,
          orderId,
          seq: i + 2,
          status,
          note,
          createdAt: new Date(placed + after * HOUR),
        })),
      );
      // The shopper's completed order had one item come back damaged, refunded since.
      if (story === 'completed' && who === 'S') {
        const returnId = `${orderId}-R1`;
        const at = (days: number) => new Date(placed + days * DAY);
        out.returns.push({
          tenantId: t,
          returnId,
          orderId,
          userId: buyer.userId,
          status: 'refunded',
          reason: 'damaged',
          note: 'One arrived with a cracked corner.',
          createdAt: at(6),
          updatedAt: at(13),
        });
        out.returnLines.push({ tenantId: t, returnId, orderId, lineNo: 1, quantity: 1 });
        // The return's refund, as refundOrder writes one: the line's price, before tax.
        const line = lines[0] as Line;
        const order = out.orders.at(-1) as Order;
        order.refundedAmount = (order.refundedAmount ?? 0) + (line.unitPrice as number);
        out.refunds.push({
          tenantId: t,
          refundId: `${returnId}-RF1`,
          orderId,
          amount: line.unitPrice as number,
          currency: 'USD',
          status: 'succeeded',
          reason: 'Return: damaged',
          lines: [{ lineNo: 1, quantity: 1, amount: line.unitPrice as number }],
          returnId,
          provider: 'test',
          providerRef: `seed-refund-${orderId}`,
          actorKind: 'system',
          actorId: 'seed',
          createdAt: at(13),
          settledAt: at(13),
        });
        out.returnHistory.push(
          ...(
            [
              ['requested', 'Return requested', 6],
              ['approved', 'Approved: a return label was emailed', 7],
              ['received', 'Parcel received', 12],
              ['refunded', 'Refunded to Visa •••• 4242', 13],
            ] as const
          ).map(([status, note, days], i) => ({
            tenantId: t,
            returnId,
            seq: i + 1,
            status,
            note,
            createdAt: at(days),
          })),
        );
      }
    });
  });
  return out;
}
