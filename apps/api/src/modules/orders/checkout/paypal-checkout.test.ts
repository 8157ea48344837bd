import { schema } from '@app/db';
import { and, asc, eq, gt, ne } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestApp } from '../../../test/harness';
import { connectStoreToPayPal } from '../../../test/paypal-seller';
import { type PayPalStandIn, startPayPalStandIn } from '../../../test/paypal-stand-in';
import { setTestStock } from '../../../test/stock';

// Checkout with PayPal against the local stand-in (real HTTP, PayPal's documented shapes).
let t: TestApp;
let paypal: PayPalStandIn;
const LIGHTING = 'lighting.localhost';
const GARDEN = 'garden.localhost';
const B = '/skulocity/api/v1';
let product: { productId: string };
let other: { productId: string };

beforeAll(async () => {
  paypal = await startPayPalStandIn({ clientId: 'platform-client', clientSecret: 'platform-secret' });
  t = await createTestApp({
    config: {
      PAYPAL_BASE_URL: paypal.url,
      PAYPAL_CLIENT_ID: 'platform-client',
      PAYPAL_CLIENT_SECRET: 'platform-secret',
    },
  });
  // Only a store with a PayPal account of its own offers PayPal (decision 049).
  await connectStoreToPayPal(t, paypal, 'lighting');
  const p = schema.products;
  const rows = await t.database.db
    .select()
    .from(p)
    .where(and(eq(p.tenantId, 'lighting'), gt(p.stockQuantity, 5), ne(p.productType, 'CONFIGURABLE')))
    .orderBy(asc(p.productId))
    .limit(2);
  if (!rows[0] || !rows[1]) throw new Error('no products');
  product = { productId: rows[0].productId };
  other = { productId: rows[1].productId };
});
afterAll(async () => {
  await t.close();
  await paypal.close();
});
beforeEach(async () => {
  await t.database.db.delete(schema.carts);
  await t.database.db.delete(schema.orders);
  await t.database.db.delete(schema.paypalCheckouts);
  await setTestStock(t.database.db, 20, { productId: product.productId });
  paypal.requests.length = 0;
});

const shipTo = {
  toName: 'Grace Hopper',
  address1: '1 Market Street',
  city: 'San Francisco',
  postalCode: '94105',
  countryGeoId: 'USA',
  stateProvinceGeoId: 'US_CA',
};
const checkoutBody = { email: 'grace@example.com', shipTo, shippingMethodId: 'STANDARD' };

async function addToCart(headers: Record<string, string>, productId = product.productId, quantity = 2) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/product/addToCart`,
    headers: { host: LIGHTING, ...headers },
    payload: { productId, quantity },
  });
  expect(res.statusCode).toBe(200);
  const set = [res.headers['set-cookie']].flat()[0];
  return set ? String(set).split(';')[0] : headers.cookie;
}
const create = (headers: Record<string, string>, body: object = checkoutBody, host = LIGHTING) =>
  t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/createPaypalOrder`,
    headers: { host, ...headers },
    payload: body,
  });
const capture = (headers: Record<string, string>, paypalOrderId: string, host = LIGHTING) =>
  t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/capturePaypalOrder`,
    headers: { host, ...headers },
    payload: { paypalOrderId },
  });
/** The shopper approves on PayPal's page, which sends them back to the store. */
async function approve(approveUrl: string) {
  const res = await fetch(approveUrl, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location') ?? '');
}
const stock = async (productId = product.productId) =>
  (await t.database.db.select().from(schema.products).where(eq(schema.products.productId, productId)))[0]
    ?.stockQuantity;
const guestOrders = async () =>
  t.database.db.select().from(schema.orders).where(eq(schema.orders.email, 'grace@example.com'));
const captures = () => paypal.requests.filter((r) => r.path.endsWith('/capture'));

describe('paying with PayPal', () => {
  it('a guest approves at PayPal and comes back: one paid order for exactly the PayPal amount', async () => {
    const cookie = (await addToCart({})) as string;
    const created = await create({ cookie });
    expect(created.statusCode).toBe(200);
    const { paypalOrderId, approveUrl } = created.json().data;
    expect(approveUrl).toContain(`${paypal.url}/checkoutnow?token=${paypalOrderId}`);
    // Nothing is held while the shopper is at PayPal.
    expect(await stock()).toBe(20);

    const back = await approve(approveUrl);
    expect(`${back.origin}${back.pathname}`).toBe(`http://${LIGHTING}/checkout/paypal/return`);
    expect(back.searchParams.get('token')).toBe(paypalOrderId);

    const res = await capture({ cookie }, paypalOrderId);
    expect(res.statusCode).toBe(200);
    const order = res.json().data;
    expect(order.status).toBe('paid');
    expect(order.payment).toBe('PayPal');
    expect(order.accessKey).toBeTruthy();
    const atPayPal = paypal.orders.get(paypalOrderId);
    expect(atPayPal?.status).toBe('COMPLETED');
    expect(atPayPal?.amount).toEqual({ currency_code: 'USD', value: (order.total / 100).toFixed(2) });
    expect(captures()[0]?.headers['paypal-request-id']).toBeTruthy();
    expect(await stock()).toBe(18);
    const cart = await t.app.inject({
      method: 'GET',
      url: `${B}/public/ecommerce/cart/showcart`,
      headers: { host: LIGHTING, cookie },
    });
    expect(cart.json().data.cart.shoppingCartSize).toBe(0);

    // Coming back twice (a reload of the return page) gives the same order and no second capture.
    const again = await capture({ cookie }, paypalOrderId);
    expect(again.json().data.orderId).toBe(order.orderId);
    expect(captures()).toHaveLength(1);
    expect(await guestOrders()).toHaveLength(1);
  });

  it('a signed-in shopper pays with PayPal and finds the order in their history', async () => {
    const session = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
    await addToCart(session);
    const { paypalOrderId, approveUrl } = (await create(session, { shipTo, shippingMethodId: 'EXPRESS' })).json().data;
    await approve(approveUrl);
    const res = await capture(session, paypalOrderId);
    expect(res.statusCode).toBe(200);
    const history = await t.app.inject({
      method: 'GET',
      url: `${B}/ecommerce/order/history`,
      headers: { host: LIGHTING, ...session },
    });
    expect(JSON.stringify(history.json().data)).toContain(res.json().data.orderId);
  });

  it('a capture before approval is refused and leaves no order and all the stock', async () => {
    const cookie = (await addToCart({})) as string;
    const { paypalOrderId } = (await create({ cookie })).json().data;
    const res = await capture({ cookie }, paypalOrderId);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/not been approved/);
    expect(await guestOrders()).toHaveLength(0);
    expect(await stock()).toBe(20);
  });

  it('a capture PayPal declines leaves no order and all the stock; the shopper can try again', async () => {
    const cookie = (await addToCart({})) as string;
    const { paypalOrderId, approveUrl } = (await create({ cookie })).json().data;
    await approve(approveUrl);
    paypal.declineNextCapture();
    const res = await capture({ cookie }, paypalOrderId);
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('PAYMENT_DECLINED');
    expect(await guestOrders()).toHaveLength(0);
    expect(await stock()).toBe(20);
    // The cart is still there to pay another way.
    const cart = await t.app.inject({
      method: 'GET',
      url: `${B}/public/ecommerce/cart/showcart`,
      headers: { host: LIGHTING, cookie },
    });
    expect(cart.json().data.cart.shoppingCartSize).toBe(2);
  });

  it('a cart that changed while the shopper was at PayPal is not captured', async () => {
    const cookie = (await addToCart({})) as string;
    const { paypalOrderId, approveUrl } = (await create({ cookie })).json().data;
    await approve(approveUrl);
    await addToCart({ cookie }, other.productId, 1);
    const res = await capture({ cookie }, paypalOrderId);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('PAYMENT_AMOUNT_CHANGED');
    expect(captures()).toHaveLength(0);
    expect(await guestOrders()).toHaveLength(0);
    expect(await stock()).toBe(20);
  });

  it("PayPal's order must be for the order's amount and currency, checked before capturing", async () => {
    const cookie = (await addToCart({})) as string;
    const { paypalOrderId, approveUrl } = (await create({ cookie })).json().data;
    await approve(approveUrl);
    const atPayPal = paypal.orders.get(paypalOrderId);
    if (!atPayPal) throw new Error('stand-in lost the order');
    atPayPal.amount = { currency_code: 'USD', value: '1.00' };
    const cheap = await capture({ cookie }, paypalOrderId);
    expect(cheap.statusCode).toBe(409);
    expect(captures()).toHaveLength(0);
    atPayPal.amount = { currency_code: 'EUR', value: atPayPal.amount.value };
    expect((await capture({ cookie }, paypalOrderId)).statusCode).toBe(409);
    expect(await guestOrders()).toHaveLength(0);
  });

  it("another shopper, another guest and another store cannot capture someone's PayPal order", async () => {
    const cookie = (await addToCart({})) as string;
    const { paypalOrderId, approveUrl } = (await create({ cookie })).json().data;
    await approve(approveUrl);
    const strangerCookie = (await addToCart({}, product.productId, 2)) as string;
    expect((await capture({ cookie: strangerCookie }, paypalOrderId)).statusCode).toBe(404);
    expect((await capture({}, paypalOrderId)).statusCode).toBe(404);
    const session = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
    expect((await capture(session, paypalOrderId)).statusCode).toBe(404);
    expect((await capture({ cookie }, paypalOrderId, GARDEN)).statusCode).toBe(404);
    expect(captures()).toHaveLength(0);
    // The real buyer still can.
    expect((await capture({ cookie }, paypalOrderId)).statusCode).toBe(200);
  });

  it('checks what is sent: an empty cart, a bad address, a bad PayPal order id', async () => {
    expect((await create({})).statusCode).toBe(400);
    const cookie = (await addToCart({})) as string;
    const bad = await create({ cookie }, { ...checkoutBody, shipTo: { ...shipTo, postalCode: 'nope' } });
    expect(bad.statusCode).toBe(400);
    expect((await create({ cookie }, { ...checkoutBody, total: 1 })).statusCode).toBe(400);
    const id = await capture({ cookie }, '../../../v1/oauth2/token');
    expect(id.statusCode).toBe(400);
    expect(id.json().message).toMatch(/paypalOrderId/);
    expect(paypal.requests.filter((r) => r.path.includes('/v2/'))).toHaveLength(0);
  });

  it('the same Idempotency-Key on create gives the same PayPal order', async () => {
    const cookie = (await addToCart({})) as string;
    const a = (await create({ cookie, 'idempotency-key': 'pp-create-0001' })).json().data;
    const b = (await create({ cookie, 'idempotency-key': 'pp-create-0001' })).json().data;
    expect(b.paypalOrderId).toBe(a.paypalOrderId);
    expect(paypal.orders.size).toBeGreaterThan(0);
  });
});
