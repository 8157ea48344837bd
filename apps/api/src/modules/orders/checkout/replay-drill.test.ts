import { randomUUID } from 'node:crypto';
import { schema } from '@app/db';
import { and, asc, eq, gt, ne } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { setTestStock } from '../../../test/stock';
import { createTestPaymentProvider, type PaymentProvider, TEST_CARDS } from '../../payments/index';

/**
 * The replay drill: every state-changing checkout request, sent again (a double click, a retry after
 * a timeout, a proxy replaying) must change the world once. Each request is replayed twice in a row
 * and ten times at once; the drill counts the side effects a shopper or the shop would notice:
 * orders, stock taken and charges made at the payment provider. It prints what it checked.
 *
 * Not covered here: add to cart. Its Idempotency-Key is being added in another branch; the drill
 * gains a case for it once that lands.
 */
let t: TestApp;
const LIGHTING = 'lighting.localhost';
const B = '/skulocity/api/v1';
let product: { productId: string };

/** The test provider, counting the charges it really made (a new charge id) and the calls. */
const made = new Set<string>();
let calls = 0;
function countingProvider(): PaymentProvider {
  const inner = createTestPaymentProvider();
  return {
    id: inner.id,
    tokenizeCard: (card) => inner.tokenizeCard(card),
    refund: (req) => inner.refund(req),
    async charge(req) {
      calls++;
      const result = await inner.charge(req);
      if (result.ok) made.add(result.chargeId);
      return result;
    },
  };
}

beforeAll(async () => {
  t = await createTestApp({ paymentProvider: countingProvider() });
  const p = schema.products;
  const [row] = await t.database.db
    .select()
    .from(p)
    .where(and(eq(p.tenantId, 'lighting'), gt(p.stockQuantity, 5), ne(p.productType, 'CONFIGURABLE')))
    .orderBy(asc(p.productId))
    .limit(1);
  if (!row) throw new Error('no product');
  product = { productId: row.productId };
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.database.db.delete(schema.carts);
  await t.database.db.delete(schema.orders);
  await setTestStock(t.database.db, 20, { productId: product.productId });
  made.clear();
  calls = 0;
});

const order = {
  email: 'replay@example.com',
  shipTo: {
    toName: 'Grace Hopper',
    address1: '1 Market Street',
    city: 'San Francisco',
    postalCode: '94105',
    countryGeoId: 'USA',
    stateProvinceGeoId: 'US_CA',
  },
  shippingMethodId: 'STANDARD',
  payment: {
    method: 'card',
    cardNumber: TEST_CARDS.success,
    cvc: '123',
    expMonth: 12,
    expYear: 2099,
    nameOnCard: 'G Hopper',
  },
};

async function guestCart(quantity: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/product/addToCart`,
    headers: { host: LIGHTING },
    payload: { productId: product.productId, quantity },
  });
  return String([res.headers['set-cookie']].flat()[0]).split(';')[0] as string;
}
const place = (cookie: string, key: string, payload: object = order) =>
  t.app.inject({
    method: 'POST',
    url: `${B}/ecommerce/checkout/processorder`,
    headers: { host: LIGHTING, cookie, 'idempotency-key': key },
    payload,
  });
const stock = async () =>
  (await t.database.db.select().from(schema.products).where(eq(schema.products.productId, product.productId)))[0]
    ?.stockQuantity;
const orderCount = async () => (await t.database.db.select().from(schema.orders)).length;

async function drill(
  label: string,
  send: () => Promise<{ statusCode: number; json: () => { data: { orderId: string } } }>[],
) {
  const answers = await Promise.all(send());
  const statuses = answers.map((a) => a.statusCode);
  const orderIds = new Set(answers.filter((a) => a.statusCode === 200).map((a) => a.json().data.orderId));
  const result = {
    statuses: [...new Set(statuses)],
    orderIds: orderIds.size,
    orders: await orderCount(),
    stockTaken: 20 - ((await stock()) ?? 0),
    charges: made.size,
    providerCalls: calls,
  };
  const ok =
    result.orders === 1 &&
    result.stockTaken === 2 &&
    result.charges === 1 &&
    orderIds.size === 1 &&
    statuses.every((s) => s === 200);
  console.log(`[replay drill] ${label}: ${JSON.stringify(result)} -> ${ok ? 'PASS' : 'FAIL'}`);
  return result;
}

describe('replay drill: place order with Idempotency-Key', () => {
  it('replayed twice in a row: one order, stock taken once, one charge; both answers name the same order', async () => {
    const cookie = await guestCart(2);
    const key = randomUUID();
    const first = await place(cookie, key);
    const r = await drill('place order, sent twice in a row', () => [Promise.resolve(first), place(cookie, key)]);
    expect(r).toMatchObject({ statuses: [200], orderIds: 1, orders: 1, stockTaken: 2, charges: 1 });
  });

  it('replayed ten times at once: one order, stock taken once, one charge; every answer names the same order', async () => {
    const cookie = await guestCart(2);
    const key = randomUUID();
    const r = await drill('place order, sent ten times in parallel', () =>
      Array.from({ length: 10 }, () => place(cookie, key)),
    );
    expect(r).toMatchObject({ statuses: [200], orderIds: 1, orders: 1, stockTaken: 2, charges: 1 });
  });

  it('the same key with another body is refused with 409 and changes nothing', async () => {
    const cookie = await guestCart(2);
    const key = randomUUID();
    expect((await place(cookie, key)).statusCode).toBe(200);
    const other = await place(cookie, key, { ...order, email: 'someone-else@example.com' });
    const result = {
      status: other.statusCode,
      code: other.json().code,
      orders: await orderCount(),
      stockTaken: 20 - ((await stock()) ?? 0),
      charges: made.size,
    };
    const ok = result.status === 409 && result.orders === 1 && result.stockTaken === 2 && result.charges === 1;
    console.log(
      `[replay drill] place order, same key with another body: ${JSON.stringify(result)} -> ${ok ? 'PASS' : 'FAIL'}`,
    );
    expect(result).toMatchObject({ status: 409, orders: 1, stockTaken: 2, charges: 1 });
  });
});
