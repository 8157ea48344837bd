/**
 * Generated order history for the dashboard's benchmarks (orders list, filtered
 * list, customers and analytics at 100,000 orders per store). Deterministic: order `i` is always the
 * same, so two runs measure the same data. Orders span two years before `now`, with every status,
 * guests and registered customers (a third of the orders), repeat buyers, one to three lines each,
 * and partial and full refunds, consistent with the checks of the schema (totals add up, refunds
 * within the capture).
 */
import { type Database, schema } from '@app/db';

export const ORDER_COUNT = Number(process.env.BENCH_ORDERS ?? 100_000);
/** Distinct buyers: about five orders each, so returning customers are common. */
export const CUSTOMER_COUNT = Math.max(10, Math.floor(ORDER_COUNT / 5));
/** Customers with an account (the rest buy as guests). */
export const REGISTERED_COUNT = Math.floor(CUSTOMER_COUNT / 3);

const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Ken', 'Margaret', 'Linus', 'Radia', 'Donald'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Thompson', 'Hamilton', 'Torvalds', 'Perlman'];
const PRODUCTS = Array.from({ length: 400 }, (_, i) => ({
  productId: `BP-${i}`,
  productName: `${['Arden', 'Marlow', 'Kinsley', 'Ostra', 'Bexley'][i % 5]} ${['Lamp', 'Chair', 'Rug', 'Vase'][i % 4]} ${i}`,
  unitPrice: 900 + ((i * 7919) % 40000),
}));

/** Status of order `i`: mostly shipped and done, some waiting, a few cancelled or refunded. */
function statusOf(i: number): string {
  const r = i % 20;
  if (r === 0) return 'placed';
  if (r === 1) return 'cancelled';
  if (r === 2) return 'refunded';
  if (r <= 6) return 'paid';
  if (r <= 10) return 'fulfilled';
  if (r <= 14) return 'delivered';
  return 'completed';
}

export function customerEmail(c: number) {
  return `customer${c}@bench.example`;
}

/** Adds `count` orders (and the registered customers) to `tenantId`, which must exist. */
export async function fillOrders(database: Database, opts: { tenantId: string; count?: number; now?: Date }) {
  const db = database.db;
  const t = opts.tenantId;
  const count = opts.count ?? ORDER_COUNT;
  const customers = Math.max(10, Math.floor(count / 5));
  const registered = Math.floor(customers / 3);
  const now = (opts.now ?? new Date()).getTime();
  const span = 730 * 24 * 3600 * 1000;

  for (let start = 0; start < registered; start += 1000) {
    const users = [];
    for (let c = start; c < Math.min(registered, start + 1000); c++) {
      users.push({
        tenantId: t,
        userId: `BU-${c}`,
        email: customerEmail(c),
        // Not a real hash: these accounts are for reading, nobody logs in with them.
        passwordHash: 'bench-no-login',
        firstName: FIRST[c % FIRST.length] as string,
        lastName: LAST[c % LAST.length] as string,
        role: 'shopper' as const,
        createdAt: new Date(now - span - 86_400_000 + c * 1000),
      });
    }
    await db.insert(schema.users).values(users);
  }

  const batch = 1000;
  for (let start = 0; start < count; start += batch) {
    const orders: (typeof schema.orders.$inferInsert)[] = [];
    const lines: (typeof schema.orderLines.$inferInsert)[] = [];
    const history: (typeof schema.orderStatusHistory.$inferInsert)[] = [];
    const refunds: (typeof schema.orderRefunds.$inferInsert)[] = [];
    for (let i = start; i < Math.min(count, start + batch); i++) {
      const orderId = `BEN-${String(i).padStart(7, '0')}`;
      // Spread over two years, newest last; a few seconds apart so ties are rare but possible.
      const placedAt = new Date(now - span + Math.floor((i / count) * span) + ((i * 7919) % 3600) * 1000);
      const c = (i * 7919) % customers;
      const status = statusOf(i);
      const lineCount = 1 + (i % 3);
      let subtotal = 0;
      for (let l = 0; l < lineCount; l++) {
        const p = PRODUCTS[(i * 31 + l * 97) % PRODUCTS.length] as (typeof PRODUCTS)[number];
        const quantity = 1 + ((i + l) % 2);
        subtotal += p.unitPrice * quantity;
        lines.push({
          tenantId: t,
          orderId,
          lineNo: l + 1,
          productId: p.productId,
          productName: p.productName,
          quantity,
          unitPrice: p.unitPrice,
          lineTotal: p.unitPrice * quantity,
        });
      }
      const shipping = subtotal >= 10000 ? 0 : 795;
      const tax = Math.round(subtotal * 0.0725);
      const grand = subtotal + shipping + tax;
      const paid = status !== 'placed' && status !== 'cancelled';
      // Every tenth paid order had a partial refund; refunded ones were refunded whole.
      const partial = paid && status !== 'refunded' && i % 10 === 5 ? Math.min(grand, 1000) : 0;
      const refunded = status === 'refunded' ? grand : partial;
      const name = `${FIRST[c % FIRST.length]} ${LAST[c % LAST.length]}`;
      orders.push({
        tenantId: t,
        orderId,
        userId: c < registered ? `BU-${c}` : null,
        email: customerEmail(c),
        status,
        currency: 'USD',
        subtotal,
        discount: 0,
        shippingTotal: shipping,
        taxTotal: tax,
        grandTotal: grand,
        shippingMethodId: 'STANDARD',
        shippingMethodName: 'Standard',
        shipTo: {
          toName: name,
          address1: `${1 + (i % 999)} Market Street`,
          address2: null,
          city: 'San Francisco',
          postalCode: '94105',
          countryGeoId: 'USA',
          stateProvinceGeoId: 'US_CA',
          phone: null,
        },
        paymentProvider: 'test',
        paymentRef: paid ? `bench-${i}` : null,
        paymentLabel: 'Visa •••• 4242',
        idempotencyKey: `bench:${i}`,
        requestHash: 'bench',
        capturedAmount: paid ? grand : 0,
        refundedAmount: refunded,
        placedAt,
        updatedAt: placedAt,
      });
      history.push({ tenantId: t, orderId, seq: 1, status: 'placed', note: 'Order placed', createdAt: placedAt });
      if (status !== 'placed') {
        history.push({ tenantId: t, orderId, seq: 2, status, fromStatus: 'placed', createdAt: placedAt });
      }
      if (refunded > 0) {
        refunds.push({
          tenantId: t,
          refundId: `BRF-${i}`,
          orderId,
          amount: refunded,
          currency: 'USD',
          status: 'succeeded',
          provider: 'test',
          providerRef: `bench-refund-${i}`,
          createdAt: new Date(Math.min(now, placedAt.getTime() + 5 * 86_400_000)),
          settledAt: new Date(Math.min(now, placedAt.getTime() + 5 * 86_400_000)),
        });
      }
    }
    await db.insert(schema.orders).values(orders);
    await db.insert(schema.orderLines).values(lines);
    await db.insert(schema.orderStatusHistory).values(history);
    if (refunds.length) await db.insert(schema.orderRefunds).values(refunds);
  }
  return { count, customers, registered };
}
