import { randomUUID } from 'node:crypto';
import { schema } from '@app/db';
import { and, asc, eq, gt, ne } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient, okData } from '../../../test/api-client';
import { createTestApp, signIn, type TestApp } from '../../../test/harness';
import { setTestStock } from '../../../test/stock';
import type { MailMessage } from '../../mail/index';
import { TEST_CARDS } from '../../payments/index';

let t: TestApp;
const LIGHTING = 'lighting.localhost';
const B = '/skulocity/api/v1';
let product: { productId: string; price: number };
const mail: MailMessage[] = [];

beforeAll(async () => {
  t = await createTestApp({
    // A poll that never comes in a test's time: a receipt must go out because checkout wakes the runner.
    jobs: { pollMs: 60_000 },
    mailer: {
      async send(m) {
        mail.push(m);
      },
      close() {},
    },
  });
  const p = schema.products;
  const [row] = await t.database.db
    .select()
    .from(p)
    .where(and(eq(p.tenantId, 'lighting'), gt(p.stockQuantity, 5), ne(p.productType, 'CONFIGURABLE')))
    .orderBy(asc(p.productId))
    .limit(1);
  if (!row) throw new Error('no product');
  product = { productId: row.productId, price: row.salePrice ?? row.listPrice };
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.database.db.delete(schema.carts);
  await t.database.db.delete(schema.orders);
  await t.database.db.delete(schema.promoRedemptions);
  await setTestStock(t.database.db, 20, { productId: product.productId });
});

const shipTo = {
  toName: 'Grace Hopper',
  address1: '1 Market Street',
  city: 'San Francisco',
  postalCode: '94105',
  countryGeoId: 'USA',
  stateProvinceGeoId: 'US_CA',
};
const card = {
  method: 'card' as const,
  cardNumber: TEST_CARDS.success,
  cvc: '123',
  expMonth: 12,
  expYear: 2099,
  nameOnCard: 'G Hopper',
};

async function guestCart(quantity = 1) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/product/addToCart`,
    headers: { host: LIGHTING },
    payload: { productId: product.productId, quantity },
  });
  return String([res.headers['set-cookie']].flat()[0]).split(';')[0] as string;
}
const place = (headers: Record<string, string>, payload: object, key: string | null = randomUUID()) =>
  t.app.inject({
    method: 'POST',
    url: `${B}/ecommerce/checkout/processorder`,
    headers: { host: LIGHTING, ...(key ? { 'idempotency-key': key } : {}), ...headers },
    payload,
  });
/** Checkout as a client generated from the OpenAPI document calls it (decision 076). */
const api = (headers: Record<string, string> = {}, host = LIGHTING) => apiClient(t.app, { host, headers });
const stock = async () =>
  (await t.database.db.select().from(schema.products).where(eq(schema.products.productId, product.productId)))[0]
    ?.stockQuantity;

describe('checkout options', () => {
  it('lists the methods that ship to the destination with their rates, and totals with tax', async () => {
    const cookie = await guestCart(1);
    const options = (query: { countryGeoId: string; stateProvinceGeoId?: string }) =>
      okData(api({ cookie }).GET('/skulocity/api/v1/public/ecommerce/checkout/checkoutoptions', { params: { query } }));
    const { data: d } = await options({ countryGeoId: 'USA', stateProvinceGeoId: 'US_CA' });
    expect(d.shippingMethods.map((m) => m.methodId)).toEqual(['STANDARD', 'EXPRESS']);
    expect(d.quote.taxLabel).toBe('CA sales tax');
    expect(d.quote.total).toBe(d.quote.subtotal - d.quote.discount + d.quote.shipping + d.quote.tax);
    const uk = await options({ countryGeoId: 'GBR' });
    expect(uk.data.shippingMethods.map((m) => m.methodId)).toEqual(['INTERNATIONAL']);
  });
});

describe('placing an order', () => {
  it('a guest pays by card: the order is paid, stock taken, cart emptied, totals from the server', async () => {
    const cookie = await guestCart(2);
    const { data: order } = await okData(
      api({ cookie }).POST('/skulocity/api/v1/ecommerce/checkout/processorder', {
        params: { header: { 'idempotency-key': randomUUID() } },
        body: { email: 'grace@example.com', shipTo, shippingMethodId: 'STANDARD', payment: card },
      }),
    );
    expect(order).toMatchObject({ status: 'paid', email: 'grace@example.com', payment: 'Visa •••• 4242' });
    expect(order.subtotal).toBe(product.price * 2);
    expect(order.total).toBe(order.subtotal - order.discount + order.shipping + order.tax);
    expect(order.tax).toBe(Math.round(((order.subtotal - order.discount) * 725) / 10000));
    expect(order.accessKey).toMatch(/^\d+\.[\w-]+$/);
    expect(await stock()).toBe(18);
    const cart = await t.app.inject({
      method: 'GET',
      url: `${B}/public/ecommerce/cart/showcart`,
      headers: { host: LIGHTING, cookie },
    });
    expect(cart.json().data.cart.shoppingCartSize).toBe(0);
    // The card number is nowhere in the order.
    const [row] = await t.database.db.select().from(schema.orders);
    expect(JSON.stringify(row)).not.toContain(TEST_CARDS.success);

    // The guest's signed link opens it; without it, or with another order's, it is not found.
    const status = (host: string, query: { orderId: string; key?: string }) =>
      api({}, host).GET('/skulocity/api/v1/ecommerce/order/status', { params: { query } });
    const withKey = await status(LIGHTING, { orderId: order.orderId, key: order.accessKey ?? '' });
    expect(withKey.response.status).toBe(200);
    expect(withKey.data?.data.history.map((h) => h.status)).toEqual(['placed', 'paid']);
    // Checkout answers from what it wrote, without reading the order back: the same order as read later.
    const { accessKey: _answered, ...answered } = order;
    const { accessKey: _read, ...read } = withKey.data?.data ?? {};
    expect(answered).toEqual(read);
    expect(answered.lines).toHaveLength(1);
    expect(answered.lines[0]).toMatchObject({ lineNo: 1, productId: product.productId, quantity: 2 });
    expect(answered.lines[0]?.imageUrl).toMatch(/^http/);

    // The receipt, enqueued with the payment in one transaction, goes out without waiting for the
    // job runner's next poll; its link opens the order for the guest.
    await expect.poll(() => mail.filter((m) => m.to === 'grace@example.com').length, { timeout: 800 }).toBe(1);
    const receipt = mail.find((m) => m.to === 'grace@example.com') as MailMessage;
    expect(receipt.subject).toBe(`Your Brightside Lighting order ${order.orderId}`);
    expect(receipt.text).toContain(`Total: $${(order.total / 100).toFixed(2)}`);
    const link = /See your order: (\S+)/.exec(receipt.text)?.[1] as string;
    expect(link).toContain(`orderId=${order.orderId}&key=`);
    const opened = await t.app.inject({
      method: 'GET',
      url: `${B}/ecommerce/order/status?${new URL(link).search.slice(1)}`,
      headers: { host: LIGHTING },
    });
    expect(opened.statusCode).toBe(200);
    expect((await status(LIGHTING, { orderId: order.orderId })).response.status).toBe(404);
    const otherStore = await status('garden.localhost', { orderId: order.orderId, key: order.accessKey ?? '' });
    expect(otherStore.response.status).toBe(404);
    // A file answer: the client reads its bytes, and the type is one the document lists.
    const pdf = await api().GET('/skulocity/api/v1/ecommerce/order/order/pdf', {
      params: { query: { orderId: order.orderId, key: order.accessKey ?? '' } },
      parseAs: 'arrayBuffer',
    });
    expect(pdf.response.status).toBe(200);
    expect(pdf.response.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(pdf.data as ArrayBuffer)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('the same Idempotency-Key twice gives one order; with another cart it is refused', async () => {
    const cookie = await guestCart(1);
    const body = { email: 'grace@example.com', shipTo, shippingMethodId: 'STANDARD', payment: card };
    const key = randomUUID();
    const first = await place({ cookie }, body, key);
    const again = await place({ cookie }, body, key);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.orderId).toBe(first.json().data.orderId);
    expect(await t.database.db.select().from(schema.orders)).toHaveLength(1);
    expect(await stock()).toBe(19);
    await t.app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/product/addToCart`,
      headers: { host: LIGHTING, cookie },
      payload: { productId: product.productId, quantity: 3 },
    });
    expect((await place({ cookie }, body, key)).statusCode).toBe(409);
    expect((await place({ cookie }, { ...body, shippingMethodId: 'EXPRESS' }, key)).statusCode).toBe(409);
    expect((await place({ cookie }, body, null)).statusCode).toBe(400);
  });

  it('two lines of one product (other options) take their sum in one SOLD movement, and both are on the order', async () => {
    const p = schema.products;
    const ch = schema.productConfigChoices;
    const [conf] = await t.database.db
      .select()
      .from(p)
      .where(and(eq(p.tenantId, 'lighting'), eq(p.productType, 'CONFIGURABLE'), gt(p.stockQuantity, 0)))
      .orderBy(asc(p.productId))
      .limit(1);
    if (!conf) throw new Error('seed has no configurable product');
    await setTestStock(t.database.db, 10, { productId: conf.productId });
    const choices = await t.database.db
      .select()
      .from(ch)
      .where(and(eq(ch.tenantId, 'lighting'), eq(ch.productId, conf.productId)));
    const byOption = new Map<string, string[]>();
    for (const c of choices) byOption.set(c.optionId, [...(byOption.get(c.optionId) ?? []), c.choiceId]);
    const varied = [...byOption].find(([, ids]) => ids.length > 1);
    if (!varied) throw new Error('seed has no option with two choices');
    const selections = (pick: number) =>
      Object.fromEntries(
        [...byOption].map(([optionId, ids]) => [optionId, optionId === varied[0] ? ids[pick] : ids[0]]),
      );
    let cookie = '';
    for (const [pick, quantity] of [
      [0, 2],
      [1, 3],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${B}/crmsfa/orders/addConfigItemsToCart`,
        headers: { host: LIGHTING, ...(cookie ? { cookie } : {}) },
        payload: { productId: conf.productId, quantity, selections: selections(pick) },
      });
      expect(res.statusCode).toBe(200);
      cookie ||= String([res.headers['set-cookie']].flat()[0]).split(';')[0] as string;
    }
    const res = await place(
      { cookie },
      { email: 'two@example.com', shipTo, shippingMethodId: 'STANDARD', payment: card },
    );
    expect(res.statusCode).toBe(200);
    const order = res.json().data;
    expect(order.lines.map((l: { productId: string; quantity: number }) => [l.productId, l.quantity])).toEqual([
      [conf.productId, 2],
      [conf.productId, 3],
    ]);
    const [after] = await t.database.db.select().from(p).where(eq(p.productId, conf.productId));
    expect(after?.stockQuantity).toBe(5);
    const sm = schema.stockMovements;
    const moves = await t.database.db.select().from(sm).where(eq(sm.orderId, order.orderId));
    expect(moves.map((m) => [m.productId, m.reason, m.delta, m.quantityBefore, m.quantityAfter])).toEqual([
      [conf.productId, 'SOLD', -5, 10, 5],
    ]);
  });

  it('a declined card leaves no order and no stock taken', async () => {
    const cookie = await guestCart(2);
    const res = await place(
      { cookie },
      {
        email: 'grace@example.com',
        shipTo,
        shippingMethodId: 'STANDARD',
        payment: { ...card, cardNumber: TEST_CARDS.declined },
      },
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('PAYMENT_DECLINED');
    expect(await t.database.db.select().from(schema.orders)).toHaveLength(0);
    expect(await stock()).toBe(20);
    const cart = await t.app.inject({
      method: 'GET',
      url: `${B}/public/ecommerce/cart/showcart`,
      headers: { host: LIGHTING, cookie },
    });
    expect(cart.json().data.cart.shoppingCartSize).toBe(2);
  });

  it('an order that takes the last units is seen by the next search (its in-stock filter and count)', async () => {
    const p = schema.products;
    await setTestStock(t.database.db, 2, { productId: product.productId });
    const [row] = await t.database.db.select().from(p).where(eq(p.productId, product.productId));
    // pageSize differs between the two searches: the public read cache keeps each URL's answer.
    const search = async (pageSize: number) =>
      (
        await t.app.inject({
          url: `${B}/public/ecommerce/product/search?searchText=${encodeURIComponent(row?.productName ?? '')}&inStock=true&pageSize=${pageSize}`,
          headers: { host: LIGHTING },
        })
      ).json().data as { products: { productId: string }[]; facets: { inStock: number } };
    const before = await search(48);
    expect(before.products.map((x) => x.productId)).toContain(product.productId);
    const cookie = await guestCart(2);
    const res = await place(
      { cookie },
      { email: 'grace@example.com', shipTo, shippingMethodId: 'STANDARD', payment: card },
    );
    expect(res.statusCode).toBe(200);
    const after = await search(47);
    expect(after.products.map((x) => x.productId)).not.toContain(product.productId);
    expect(after.facets.inStock).toBe(before.facets.inStock - 1);
  });

  it('20 parallel orders for the last 5 units make exactly 5 orders and leave stock 0', async () => {
    await setTestStock(t.database.db, 5, { productId: product.productId });
    const cookies = await Promise.all(Array.from({ length: 20 }, () => guestCart(1)));
    const results = await Promise.all(
      cookies.map((cookie, i) =>
        place({ cookie }, { email: `buyer${i}@example.com`, shipTo, shippingMethodId: 'STANDARD', payment: card }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(5);
    expect(codes.filter((c) => c === 409)).toHaveLength(15);
    expect(results.find((r) => r.statusCode === 409)?.json().code).toBe('OUT_OF_STOCK');
    expect(await stock()).toBe(0);
    expect(await t.database.db.select().from(schema.orders)).toHaveLength(5);
  });

  it('refuses a method that does not ship to the address, a bad postal code, and prices sent by the client', async () => {
    const cookie = await guestCart(1);
    const base = { email: 'grace@example.com', shipTo, shippingMethodId: 'STANDARD', payment: card };
    const intl = await place({ cookie }, { ...base, shippingMethodId: 'INTERNATIONAL' });
    expect(intl.statusCode).toBe(400);
    expect(intl.json().message).toContain('shippingMethodId');
    const zip = await place({ cookie }, { ...base, shipTo: { ...shipTo, postalCode: 'ABC' } });
    expect(zip.json().message).toContain('postalCode');
    expect((await place({ cookie }, { ...base, total: 1 })).statusCode).toBe(400);
    expect((await place({ cookie }, { ...base, email: undefined })).statusCode).toBe(400);
    expect(await t.database.db.select().from(schema.orders)).toHaveLength(0);
  });

  it('saves an address typed at checkout to the account, for shipping or billing, and only when signed in', async () => {
    const url = `${B}/ecommerce/checkout/create/postaladdress/andPurpose`;
    expect((await t.app.inject({ method: 'POST', url, headers: { host: LIGHTING }, payload: shipTo })).statusCode).toBe(
      401,
    );
    const sam = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
    const bad = await t.app.inject({
      method: 'POST',
      url,
      headers: { host: LIGHTING, ...sam },
      payload: { ...shipTo, postalCode: 'nope' },
    });
    expect(bad.statusCode).toBe(400);
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: { host: LIGHTING, ...sam },
      payload: { ...shipTo, toName: 'Billing Office', contactMechPurposeTypeId: 'BILLING_LOCATION', setDefault: true },
    });
    expect(res.statusCode).toBe(200);
    const saved = res.json().data;
    expect(saved).toMatchObject({ toName: 'Billing Office', isDefaultBilling: true });
    const list = await t.app.inject({
      method: 'GET',
      url: `${B}/ecommerce/checkout/checkoutoptions`,
      headers: { host: LIGHTING, ...sam },
    });
    const mine = list.json().data.addresses as Array<{ contactMechId: string; isDefaultBilling: boolean }>;
    expect(mine.find((a) => a.contactMechId === saved.contactMechId)?.isDefaultBilling).toBe(true);
    expect(mine.filter((a) => a.isDefaultBilling)).toHaveLength(1);
    // Another shopper does not see it.
    const owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
    const theirs = await t.app.inject({
      method: 'GET',
      url: `${B}/ecommerce/checkout/checkoutoptions`,
      headers: { host: LIGHTING, ...owner },
    });
    expect(JSON.stringify(theirs.json().data.addresses)).not.toContain(saved.contactMechId);
  });

  it('offers no PayPal when the platform has no PayPal credentials', async () => {
    const cookie = await guestCart(1);
    const res = await t.app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/createPaypalOrder`,
      headers: { host: LIGHTING, cookie },
      payload: { email: 'grace@example.com', shipTo, shippingMethodId: 'STANDARD' },
    });
    // The store's state refuses it (decision 052): 409, not a malformed request.
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/PayPal is not available/);
  });

  it("a shopper's order: in their history, not another shopper's; a once-per-customer code works once", async () => {
    const sam = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
    const olivia = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
    const buy = async () => {
      await t.app.inject({
        method: 'POST',
        url: `${B}/public/ecommerce/product/addToCart`,
        headers: { host: LIGHTING, ...sam },
        payload: { productId: product.productId, quantity: 1 },
      });
      const promo = await t.app.inject({
        method: 'POST',
        url: `${B}/public/ecommerce/cart/addpromocode`,
        headers: { host: LIGHTING, ...sam },
        payload: { promoCode: 'once15' },
      });
      expect(promo.statusCode).toBe(200);
      return place(sam, { shipTo, shippingMethodId: 'STANDARD', payment: card });
    };
    const first = await buy();
    expect(first.statusCode).toBe(200);
    const order = first.json().data;
    expect(order.discount).toBe(Math.round((product.price * 15) / 100));
    expect(order.promoCode).toBe('ONCE15');
    expect(order.email).toBe('shopper@lighting.test');
    expect(order.accessKey).toBeNull();
    const second = await buy();
    expect(second.statusCode).toBe(422);
    expect(second.json().message).toBe('ONCE15 can be used only once per customer.');

    const history = await t.app.inject({
      method: 'GET',
      url: `${B}/ecommerce/order/history`,
      headers: { host: LIGHTING, ...sam },
    });
    expect(history.json().data.orders.map((o: { orderId: string }) => o.orderId)).toEqual([order.orderId]);
    const theirs = await t.app.inject({
      method: 'GET',
      url: `${B}/ecommerce/order/history`,
      headers: { host: LIGHTING, ...olivia },
    });
    expect(theirs.json().data.orders).toEqual([]);
    for (const url of [
      `/ecommerce/order/status?orderId=${order.orderId}`,
      `/ecommerce/order/order/pdf?orderId=${order.orderId}`,
    ]) {
      expect(
        (await t.app.inject({ method: 'GET', url: `${B}${url}`, headers: { host: LIGHTING, ...olivia } })).statusCode,
      ).toBe(404);
      expect(
        (await t.app.inject({ method: 'GET', url: `${B}${url}`, headers: { host: LIGHTING, ...sam } })).statusCode,
      ).toBe(200);
    }
  });
});
