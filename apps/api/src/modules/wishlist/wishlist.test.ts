import { MAX_WISHLIST_ITEMS } from '@app/contracts';
import { schema } from '@app/db';
import { and, asc, eq, gt, like, ne } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';

let t: TestApp;
const LIGHTING = 'lighting.localhost';
const GARDEN = 'garden.localhost';
const B = '/skulocity/api/v1';
const LIST = '/ecommerce/wishlist';
const ITEMS = '/ecommerce/wishlist/items';
let sam: BrowserSession;
let olivia: BrowserSession;
let inStock: { productId: string; productName: string; slug: string; price: number };
let second: string;
let soldOut: string;
let configurable: string;
let gardenProduct: string;

beforeAll(async () => {
  t = await createTestApp();
  const p = schema.products;
  const db = t.database.db;
  const [a, b] = await db
    .select()
    .from(p)
    .where(and(eq(p.tenantId, 'lighting'), gt(p.stockQuantity, 5), ne(p.productType, 'CONFIGURABLE')))
    .orderBy(asc(p.productId))
    .limit(2);
  const [out] = await db
    .select()
    .from(p)
    .where(and(eq(p.tenantId, 'lighting'), eq(p.stockQuantity, 0)));
  const [conf] = await db
    .select()
    .from(p)
    .where(and(eq(p.tenantId, 'lighting'), eq(p.productType, 'CONFIGURABLE'), gt(p.stockQuantity, 0)));
  const [g] = await db.select().from(p).where(eq(p.tenantId, 'garden')).limit(1);
  if (!a || !b || !out || !conf || !g) throw new Error('the seed lacks the products these tests need');
  inStock = { productId: a.productId, productName: a.productName, slug: a.slug, price: a.salePrice ?? a.listPrice };
  second = b.productId;
  soldOut = out.productId;
  configurable = conf.productId;
  gardenProduct = g.productId;
  sam = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
  olivia = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.database.db.delete(schema.wishlistItems);
  await t.database.db.delete(schema.carts);
});

type Headers = Record<string, string>;
const req = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Headers, payload?: object) =>
  t.app.inject({ method, url: `${B}${url}`, headers: { host: LIGHTING, ...headers }, ...(payload ? { payload } : {}) });
const add = (who: Headers, productId: unknown) => req('POST', ITEMS, who, { productId });
const remove = (who: Headers, productId: string) => req('DELETE', `${ITEMS}/${encodeURIComponent(productId)}`, who);
const move = (who: Headers, productId: string) =>
  req('POST', `${ITEMS}/${encodeURIComponent(productId)}/movetocart`, who);
const ids = async (who: Headers) =>
  ((await req('GET', LIST, who)).json().data.wishlist.items as { productId: string }[]).map((i) => i.productId);

describe('a shopper and their wishlist', () => {
  it('adds a product priced from the catalog, lists it, and removes it', async () => {
    const res = await add(sam, inStock.productId);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Added to your wishlist.');
    const list = await req('GET', LIST, sam);
    expect(list.statusCode).toBe(200);
    expect(list.headers['cache-control']).toBe('private, no-store');
    const { wishlist } = list.json().data;
    expect(wishlist).toMatchObject({ currency: 'USD', count: 1 });
    expect(wishlist.items[0]).toMatchObject({
      productId: inStock.productId,
      productName: inStock.productName,
      slug: inStock.slug,
      price: inStock.price,
      inStock: true,
      configurable: false,
    });
    expect(wishlist.items[0].imageUrl).toMatch(/^http/);

    const gone = await remove(sam, inStock.productId);
    expect(gone.statusCode).toBe(200);
    expect(gone.json().data.wishlist).toMatchObject({ count: 0, items: [] });
    const again = await remove(sam, inStock.productId);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 'NOT_FOUND', message: 'That product is not in your wishlist.' });
  });

  it('adding the same product twice keeps one item', async () => {
    await add(sam, inStock.productId);
    const twice = await add(sam, inStock.productId);
    expect(twice.statusCode).toBe(200);
    expect(twice.json().message).toBe('Already in your wishlist.');
    expect(twice.json().data.wishlist.count).toBe(1);
  });

  it('lists the newest first, sold-out and configurable products included', async () => {
    for (const id of [inStock.productId, soldOut, configurable]) expect((await add(sam, id)).statusCode).toBe(200);
    const { items } = (await req('GET', LIST, sam)).json().data.wishlist;
    expect(items.map((i: { productId: string }) => i.productId).sort()).toEqual(
      [inStock.productId, soldOut, configurable].sort(),
    );
    const byId = Object.fromEntries(items.map((i: { productId: string }) => [i.productId, i]));
    expect(byId[soldOut]).toMatchObject({ inStock: false, lowStock: null });
    expect(byId[configurable]).toMatchObject({ configurable: true });
    const times = items.map((i: { addedAt: string }) => Date.parse(i.addedAt));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
  });

  it('moves an item to the cart (one of it) and off the wishlist', async () => {
    await add(sam, inStock.productId);
    await add(sam, second);
    const res = await move(sam, inStock.productId);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Moved to your cart.');
    expect(res.json().data.cart.shoppingCartSize).toBe(1);
    expect(res.json().data.cart.lines[0]).toMatchObject({ productId: inStock.productId, quantity: 1 });
    expect(res.json().data.wishlist.items.map((i: { productId: string }) => i.productId)).toEqual([second]);
    const cart = (await req('GET', '/public/ecommerce/cart/showcart', sam)).json().data.cart;
    expect(cart.shoppingCartSize).toBe(1);
    // Moving it again: it is no longer on the wishlist.
    expect((await move(sam, inStock.productId)).statusCode).toBe(404);
  });

  it('a sold-out item is not moved (409 OUT_OF_STOCK) and stays; a configurable one asks for its options', async () => {
    await add(sam, soldOut);
    await add(sam, configurable);
    const out = await move(sam, soldOut);
    expect(out.statusCode).toBe(409);
    expect(out.json().code).toBe('OUT_OF_STOCK');
    expect(out.json().message).toMatch(/is out of stock\.$/);
    const conf = await move(sam, configurable);
    expect(conf.statusCode).toBe(422);
    expect(conf.json().message).toMatch(/^Please choose the options of .+ on its page/);
    expect((await ids(sam)).sort()).toEqual([soldOut, configurable].sort());
    expect((await req('GET', '/public/ecommerce/cart/showcart', sam)).json().data.cart.shoppingCartSize).toBe(0);
  });

  it('a product missing from this store is a 404: unknown, or of another store', async () => {
    const unknown = await add(sam, 'NOPE-1');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Product NOPE-1 does not exist in this store.');
    const foreign = await add(sam, gardenProduct);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().errors).toEqual([`Product ${gardenProduct} does not exist in this store.`]);
    expect(await ids(sam)).toEqual([]);
    expect((await move(sam, gardenProduct)).statusCode).toBe(404);
    expect((await remove(sam, gardenProduct)).statusCode).toBe(404);
  });

  it('refuses a bad productId with 400 naming the field', async () => {
    for (const bad of ['', '   ', 'a b', 'x'.repeat(65), '../etc', 42, null]) {
      const res = await add(sam, bad);
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().message, String(bad)).toMatch(/productId/);
    }
    const missing = await req('POST', ITEMS, sam, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('body.productId: productId is required');
    const extra = await req('POST', ITEMS, sam, { productId: inStock.productId, quantity: 2 });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().message).toContain('unknown field(s): quantity');
    expect((await req('DELETE', `${ITEMS}/a%20b`, sam)).statusCode).toBe(400);
    expect((await req('POST', `${ITEMS}/a%20b/movetocart`, sam)).statusCode).toBe(400);
    expect(await ids(sam)).toEqual([]);
  });

  it(`holds at most ${MAX_WISHLIST_ITEMS} products, saying so (422) beyond`, async () => {
    const db = t.database.db;
    const fillers = Array.from({ length: MAX_WISHLIST_ITEMS }, (_, i) => ({
      tenantId: 'lighting',
      productId: `WL-FILL-${String(i).padStart(3, '0')}`,
      sku: `WL-FILL-${i}`,
      productName: `Filler ${i}`,
      slug: `filler-${i}`,
      listPrice: 100,
      stockQuantity: 1,
    }));
    await db.insert(schema.products).values(fillers);
    try {
      const [me] = await db
        .select({ userId: schema.users.userId })
        .from(schema.users)
        .where(and(eq(schema.users.tenantId, 'lighting'), eq(schema.users.email, 'shopper@lighting.test')));
      await db
        .insert(schema.wishlistItems)
        .values(fillers.map((f) => ({ tenantId: 'lighting', userId: me?.userId ?? '', productId: f.productId })));
      const full = await add(sam, inStock.productId);
      expect(full.statusCode).toBe(422);
      expect(full.json()).toMatchObject({
        code: 'UNPROCESSABLE',
        message: `Your wishlist is full: it holds at most ${MAX_WISHLIST_ITEMS} products. Remove one to add another.`,
      });
      // One already there is still "added" (nothing changes), and after a removal there is room again.
      expect((await add(sam, 'WL-FILL-000')).statusCode).toBe(200);
      expect((await remove(sam, 'WL-FILL-000')).statusCode).toBe(200);
      expect((await add(sam, inStock.productId)).statusCode).toBe(200);
      expect((await req('GET', LIST, sam)).json().data.wishlist.count).toBe(MAX_WISHLIST_ITEMS);
    } finally {
      await db
        .delete(schema.products)
        .where(and(eq(schema.products.tenantId, 'lighting'), like(schema.products.productId, 'WL-FILL-%')));
    }
  });
});

describe('who may see and change a wishlist', () => {
  it('a guest gets 401 on every path', async () => {
    for (const res of [
      await req('GET', LIST, {}),
      await add({}, inStock.productId),
      await remove({}, inStock.productId),
      await move({}, inStock.productId),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED', message: 'Please log in to continue.' });
    }
  });

  it("another shopper neither sees nor removes nor moves someone's items", async () => {
    await add(sam, inStock.productId);
    expect(await ids(olivia)).toEqual([]);
    const theirs = await remove(olivia, inStock.productId);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().message).toBe('That product is not in your wishlist.');
    expect((await move(olivia, inStock.productId)).statusCode).toBe(404);
    expect(await ids(sam)).toEqual([inStock.productId]);
    expect((await req('GET', '/public/ecommerce/cart/showcart', olivia)).json().data.cart.shoppingCartSize).toBe(0);
    // Her own item does not show up in his list either.
    await add(olivia, second);
    expect(await ids(sam)).toEqual([inStock.productId]);
  });

  it("a session of this store means nothing on another store's host", async () => {
    await add(sam, inStock.productId);
    expect((await req('GET', LIST, { ...sam, host: GARDEN })).statusCode).toBe(401);
    expect((await req('POST', ITEMS, { ...sam, host: GARDEN }, { productId: gardenProduct })).statusCode).toBe(401);
    const gardenSam = await signIn(t.app, 'shopper@garden.test', 'shopper-demo-1', GARDEN);
    expect((await req('GET', LIST, { ...gardenSam, host: GARDEN })).json().data.wishlist.items).toEqual([]);
    // The lighting product is not one of the garden store's.
    expect(
      (await req('POST', ITEMS, { ...gardenSam, host: GARDEN }, { productId: inStock.productId })).statusCode,
    ).toBe(404);
  });

  it('a cookie-borne change needs this store as origin and the CSRF token of this session', async () => {
    const noToken = await add({ cookie: sam.cookie, origin: 'http://lighting.localhost' }, inStock.productId);
    expect(noToken.statusCode).toBe(403);
    expect(noToken.json().message).toContain('did not come from this store');
    expect(
      (await add({ cookie: sam.cookie, 'x-csrf-token': olivia['x-csrf-token'] }, inStock.productId)).statusCode,
    ).toBe(403);
    expect((await add({ ...sam, origin: 'https://evil.example' }, inStock.productId)).statusCode).toBe(403);
    expect(await ids(sam)).toEqual([]);
    await add(sam, inStock.productId);
    expect((await remove({ cookie: sam.cookie }, inStock.productId)).statusCode).toBe(403);
    expect((await move({ cookie: sam.cookie }, inStock.productId)).statusCode).toBe(403);
    expect(await ids(sam)).toEqual([inStock.productId]);
  });

  it('an API client with a bearer token needs no CSRF token', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: `${B}/login`,
      headers: { host: LIGHTING },
      payload: { email: 'shopper@lighting.test', password: 'shopper-demo-1' },
    });
    const bearer = { authorization: `Bearer ${login.json().data.token as string}` };
    expect((await add(bearer, inStock.productId)).statusCode).toBe(200);
    expect(await ids(sam)).toEqual([inStock.productId]);
  });
});
