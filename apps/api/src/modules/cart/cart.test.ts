import { schema } from '@app/db';
import { and, asc, eq, gt, ne } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api-client';
import { createTestApp, signIn, type TestApp } from '../../test/harness';

let t: TestApp;
const LIGHTING = 'lighting.localhost';
const GARDEN = 'garden.localhost';
const B = '/skulocity/api/v1';
let inStock: { productId: string; price: number; stock: number };
let second: { productId: string; price: number };
let soldOut: string;
let configurable: { productId: string; options: { optionId: string; choiceId: string }[] };

beforeAll(async () => {
  t = await createTestApp();
  const p = schema.products;
  const rows = await t.database.db
    .select()
    .from(p)
    .where(and(eq(p.tenantId, 'lighting'), gt(p.stockQuantity, 5), ne(p.productType, 'CONFIGURABLE')))
    .orderBy(asc(p.productId))
    .limit(2);
  const [a, b] = rows;
  if (!a || !b) throw new Error('seed has no products in stock');
  inStock = { productId: a.productId, price: a.salePrice ?? a.listPrice, stock: a.stockQuantity };
  second = { productId: b.productId, price: b.salePrice ?? b.listPrice };
  const [out] = await t.database.db
    .select()
    .from(p)
    .where(and(eq(p.tenantId, 'lighting'), eq(p.stockQuantity, 0)));
  if (!out) throw new Error('seed has no sold-out product');
  soldOut = out.productId;
  const ch = schema.productConfigChoices;
  const [conf] = await t.database.db
    .select()
    .from(p)
    .where(and(eq(p.tenantId, 'lighting'), eq(p.productType, 'CONFIGURABLE'), gt(p.stockQuantity, 0)));
  if (!conf) throw new Error('seed has no configurable product');
  const choices = await t.database.db
    .select()
    .from(ch)
    .where(and(eq(ch.tenantId, 'lighting'), eq(ch.productId, conf.productId)));
  const byOption = new Map<string, string>();
  for (const c of choices) if (!byOption.has(c.optionId)) byOption.set(c.optionId, c.choiceId);
  configurable = {
    productId: conf.productId,
    options: [...byOption].map(([optionId, choiceId]) => ({ optionId, choiceId })),
  };
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.database.db.delete(schema.carts);
});

type Headers = Record<string, string>;
const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers, payload?: object) =>
  t.app.inject({ method, url: `${B}${url}`, headers: { host: LIGHTING, ...headers }, ...(payload ? { payload } : {}) });
const cartCookieOf = (res: { headers: Record<string, unknown> }) =>
  ([res.headers['set-cookie']].flat().find((c) => String(c).startsWith('cart=')) as string | undefined)?.split(';')[0];
/** The cart as a client generated from the OpenAPI document calls it (decision 076). */
const api = (headers: Headers = {}) => apiClient(t.app, { host: LIGHTING, headers });
const cartCookieIn = (response: Response) =>
  response.headers
    .getSetCookie()
    .find((c) => c.startsWith('cart='))
    ?.split(';')[0];

describe('guest cart', () => {
  it('adds with prices from the catalog, sets the cart cookie once, and counts items', async () => {
    const first = await api().POST('/skulocity/api/v1/public/ecommerce/product/addToCart', {
      body: { productId: inStock.productId, quantity: 2 },
    });
    expect(first.response.status).toBe(200);
    const cookie = cartCookieIn(first.response) ?? '';
    expect(cookie).toMatch(/^cart=[\w-]{32}$/);
    expect(first.response.headers.get('set-cookie')).toContain('HttpOnly; SameSite=Lax');
    const cart = first.data?.data.cart;
    expect(cart?.shoppingCartSize).toBe(2);
    expect(cart?.lines[0]).toMatchObject({ productId: inStock.productId, quantity: 2, unitPrice: inStock.price });
    expect(cart?.subtotal).toBe(inStock.price * 2);

    const again = await api({ cookie }).POST('/skulocity/api/v1/public/ecommerce/product/addToCart', {
      body: { productId: inStock.productId, quantity: 1 },
    });
    expect(cartCookieIn(again.response)).toBeUndefined();
    expect(again.data?.data.cart.lines).toHaveLength(1);
    expect(again.data?.data.cart.shoppingCartSize).toBe(3);
    const shown = await api({ cookie }).GET('/skulocity/api/v1/public/ecommerce/cart/showcart');
    expect(shown.data?.data.cart.shoppingCartSize).toBe(3);
    expect(shown.response.headers.get('cache-control')).toBe('private, no-store');
    const empty = await api().GET('/skulocity/api/v1/public/ecommerce/cart/showcart');
    expect(empty.data?.data.cart.shoppingCartSize).toBe(0);
  });

  it('ignores nothing the client says about money: a price field is refused', async () => {
    const res = await req(
      'POST',
      '/public/ecommerce/product/addToCart',
      {},
      {
        productId: inStock.productId,
        quantity: 1,
        price: 1,
      },
    );
    expect(res.statusCode).toBe(400);
  });

  it('refuses quantities -1, 0, 1.5, 100, huge and text, naming the field', async () => {
    for (const quantity of [-1, 0, 1.5, 100, 1e12, 'two', '3']) {
      const res = await req(
        'POST',
        '/public/ecommerce/product/addToCart',
        {},
        { productId: inStock.productId, quantity },
      );
      expect(res.statusCode, String(quantity)).toBe(400);
      expect(res.json().message, String(quantity)).toContain('quantity');
    }
  });

  it('refuses sold-out and unknown products, and more than the stock, with a clear message', async () => {
    const add = (productId: string) =>
      api().POST('/skulocity/api/v1/public/ecommerce/product/addToCart', { body: { productId, quantity: 1 } });
    const out = await add(soldOut);
    expect(out.response.status).toBe(409);
    expect(out.error?.code).toBe('OUT_OF_STOCK');
    expect(out.error?.message).toMatch(/is out of stock\.$/);
    const unknown = await add('NOPE-1');
    expect(unknown.response.status).toBe(404);
    const many = Math.min(99, inStock.stock + 1);
    if (inStock.stock < 99) {
      const tooMany = await req(
        'POST',
        '/public/ecommerce/product/addToCart',
        {},
        {
          productId: inStock.productId,
          quantity: many,
        },
      );
      expect(tooMany.statusCode).toBe(409);
      expect(tooMany.json().message).toContain(`Only ${inStock.stock}`);
    }
  });

  it('changes and removes lines, and empties the cart', async () => {
    const added = await api().POST('/skulocity/api/v1/public/ecommerce/product/addToCart', {
      body: { productId: inStock.productId, quantity: 1 },
    });
    const cart = api({ cookie: cartCookieIn(added.response) ?? '' });
    await cart.POST('/skulocity/api/v1/public/ecommerce/product/addToCart', {
      body: { productId: second.productId, quantity: 1 },
    });
    const lineId = added.data?.data.cart.lines[0]?.lineId ?? '';
    const changed = await cart.PUT('/skulocity/api/v1/public/ecommerce/cart/modifycart', {
      body: { lineId, quantity: 4 },
    });
    expect(changed.data?.data.cart.shoppingCartSize).toBe(5);
    const zero = await cart.PUT('/skulocity/api/v1/public/ecommerce/cart/modifycart', {
      body: { lineId, quantity: 0 },
    });
    expect(zero.response.status).toBe(400);
    const removed = await cart.DELETE('/skulocity/api/v1/public/ecommerce/cart/line', {
      params: { query: { lineId } },
    });
    expect(removed.data?.data.cart.lines.map((l) => l.productId)).toEqual([second.productId]);
    const emptied = await cart.POST('/skulocity/api/v1/public/ecommerce/cart/emptycart');
    expect(emptied.data?.data.cart.shoppingCartSize).toBe(0);
  });

  it('adds a configured product priced with its choices; a missing option is refused', async () => {
    const selections = Object.fromEntries(configurable.options.map((o) => [o.optionId, o.choiceId]));
    const res = await req(
      'POST',
      '/crmsfa/orders/addConfigItemsToCart',
      {},
      {
        productId: configurable.productId,
        quantity: 1,
        selections,
      },
    );
    expect(res.statusCode).toBe(200);
    const line = res.json().data.cart.lines[0];
    expect(line.optionsText).toContain(':');
    const priced = await t.app.inject({
      method: 'POST',
      url: `${B}/crmsfa/orders/getConfigDetailsEvent`,
      headers: { host: LIGHTING },
      payload: { productId: configurable.productId, selections, quantity: 1 },
    });
    expect(line.unitPrice).toBe(priced.json().data.unitPrice);
    const plain = await req('POST', '/public/ecommerce/product/addToCart', {}, { productId: configurable.productId });
    expect(plain.statusCode).toBe(400);
    expect(
      (
        await req(
          'POST',
          '/crmsfa/orders/addConfigItemsToCart',
          {},
          {
            productId: configurable.productId,
            selections: {},
          },
        )
      ).statusCode,
    ).toBe(400);
  });
});

describe('promo codes on the cart', () => {
  async function cartWith(quantity: number) {
    const res = await req(
      'POST',
      '/public/ecommerce/product/addToCart',
      {},
      { productId: inStock.productId, quantity },
    );
    return cartCookieOf(res) as string;
  }

  it('applies a percentage code in any case, and takes it off again', async () => {
    const cookie = await cartWith(2);
    const res = await req('POST', '/public/ecommerce/cart/addpromocode', { cookie }, { promoCode: 'welcome10' });
    expect(res.statusCode).toBe(200);
    const cart = res.json().data.cart;
    expect(cart.promo.code).toBe('WELCOME10');
    expect(cart.discount).toBe(Math.round((inStock.price * 2) / 10));
    expect(cart.total).toBe(cart.subtotal - cart.discount);
    const off = await req('DELETE', '/public/ecommerce/cart/promocode', { cookie });
    expect(off.json().data.cart.discount).toBe(0);
  });

  it('refuses unknown and expired codes and a subtotal under the minimum, saying why', async () => {
    const cookie = await cartWith(1);
    const unknown = await req('POST', '/public/ecommerce/cart/addpromocode', { cookie }, { promoCode: 'NOPE' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ code: 'PROMO_INVALID', message: 'That promo code is not valid.' });
    const expired = await req('POST', '/public/ecommerce/cart/addpromocode', { cookie }, { promoCode: 'EXPIRED5' });
    expect(expired.json().message).toBe('EXPIRED5 has expired.');
    if (inStock.price < 15000) {
      const min = await req('POST', '/public/ecommerce/cart/addpromocode', { cookie }, { promoCode: 'LGTSAVE20' });
      expect(min.statusCode).toBe(422);
      expect(min.json().message).toBe('LGTSAVE20 needs a subtotal of at least $150.00.');
    }
    // A code of another store does not exist here.
    expect(
      (await req('POST', '/public/ecommerce/cart/addpromocode', { cookie }, { promoCode: 'GRDSAVE20' })).statusCode,
    ).toBe(422);
  });
});

describe('isolation and login', () => {
  it("a guest cart cookie means nothing on another store, and one cart's line cannot be touched from another", async () => {
    const added = await req(
      'POST',
      '/public/ecommerce/product/addToCart',
      {},
      { productId: inStock.productId, quantity: 1 },
    );
    const cookie = cartCookieOf(added) as string;
    const lineId = added.json().data.cart.lines[0].lineId as string;
    const garden = await req('GET', '/public/ecommerce/cart/showcart', { host: GARDEN, cookie });
    expect(garden.json().data.cart.lines).toEqual([]);
    const foreign = await req(
      'PUT',
      '/public/ecommerce/cart/modifycart',
      { host: GARDEN, cookie },
      { lineId, quantity: 2 },
    );
    expect(foreign.statusCode).toBe(404);
    const stranger = await req('DELETE', `/public/ecommerce/cart/line?lineId=${lineId}`, {});
    expect(stranger.statusCode).toBe(404);
    // A product of another store cannot be added here.
    const [g] = await t.database.db
      .select()
      .from(schema.products)
      .where(eq(schema.products.tenantId, 'garden'))
      .limit(1);
    const cross = await req(
      'POST',
      '/public/ecommerce/product/addToCart',
      { cookie },
      { productId: g?.productId, quantity: 1 },
    );
    expect(cross.statusCode).toBe(404);
    expect((await req('GET', '/public/ecommerce/cart/showcart', { cookie })).json().data.cart.shoppingCartSize).toBe(1);
  });

  it('a cart change posted from another site is refused', async () => {
    const res = await req(
      'POST',
      '/public/ecommerce/product/addToCart',
      { origin: 'https://evil.example' },
      {
        productId: inStock.productId,
      },
    );
    expect(res.statusCode).toBe(403);
  });

  it("at login the guest cart joins the account's cart, adding up the same product", async () => {
    const sam = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
    await req('POST', '/public/ecommerce/product/addToCart', sam, { productId: inStock.productId, quantity: 1 });
    const guest = await req(
      'POST',
      '/public/ecommerce/product/addToCart',
      {},
      { productId: inStock.productId, quantity: 2 },
    );
    const cookie = cartCookieOf(guest) as string;
    await req('POST', '/public/ecommerce/product/addToCart', { cookie }, { productId: second.productId, quantity: 1 });
    const login = await t.app.inject({
      method: 'POST',
      url: `${B}/login`,
      headers: { host: LIGHTING, cookie },
      payload: { email: 'shopper@lighting.test', password: 'shopper-demo-1' },
    });
    expect([login.headers['set-cookie']].flat().join('\n')).toMatch(/^cart=; .*Max-Age=0/m);
    const session = String([login.headers['set-cookie']].flat()[0]).split(';')[0] as string;
    const cart = (await req('GET', '/public/ecommerce/cart/showcart', { cookie: session })).json().data.cart;
    expect(cart.shoppingCartSize).toBe(4);
    expect(cart.lines).toHaveLength(2);
    expect((await req('GET', '/public/ecommerce/cart/showcart', { cookie })).json().data.cart.lines).toEqual([]);
  });
});
