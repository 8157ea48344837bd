import { type Db, schema } from '@app/db';
import { and, asc, eq, gt, ne } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RequestContext, systemContext } from '../../lib/context';
import type { PageRequest } from '../../lib/page-request';
import { apiClient } from '../../test/api-client';
import { createTestApp, type TestApp } from '../../test/harness';
// biome-ignore lint/style/noRestrictedImports: part A's test helper for variants (decision 112) is test-only and so not in products' index.
import { givenVariants } from '../products/variants-test-setup';
import { cartPages } from './cart.pages';

// The cart by variant (decision 112): a line is one variant of a product, named by its id or, for a
// product with one variant to sell, by the product's; priced, stocked and weighed as the variant.

let t: TestApp;
let db: Db;
let ctx: RequestContext;
const T = 'lighting';
const LIGHTING = 'lighting.localhost';
const ADD = '/skulocity/api/v1/public/ecommerce/product/addToCart' as const;
const ADD_CONFIG = '/skulocity/api/v1/crmsfa/orders/addConfigItemsToCart' as const;
const api = (headers: Record<string, string> = {}) => apiClient(t.app, { host: LIGHTING, headers });
const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .find((c) => c.startsWith('cart='))
    ?.split(';')[0] ?? '';
const post = (url: string, payload: object, cookie = '') =>
  t.app.inject({ method: 'POST', url, headers: { host: LIGHTING, ...(cookie ? { cookie } : {}) }, payload });

/** A pendant in Brass (5, $120.00), Black (2, $100.00) and Opal (0): Brass is the product's default variant. */
let pendant: { productId: string; name: string; brass: string; black: string; opal: string };
/** A product with two variants, only the second enabled: its productId alone names that one. */
let oneEnabled: { productId: string; off: string; on: string };
let configurable: { productId: string; selections: Record<string, string>; delta: number; variant: string };

const v = schema.productVariants;
const setVariant = (variantId: string, set: Partial<typeof v.$inferInsert>) =>
  db
    .update(v)
    .set(set)
    .where(and(eq(v.tenantId, T), eq(v.variantId, variantId)));

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.db;
  ctx = systemContext(
    { tenantId: T, productStoreId: '9000', hostName: LIGHTING, viaDevAlias: false, origin: `http://${LIGHTING}` },
    'cart-variants-test',
  );
  const p = schema.products;
  const simple = await db
    .select({ productId: p.productId, name: p.productName })
    .from(p)
    .where(and(eq(p.tenantId, T), gt(p.stockQuantity, 5), ne(p.productType, 'CONFIGURABLE'), eq(p.status, 'ACTIVE')))
    .orderBy(asc(p.productId))
    .limit(2);
  const [a, b] = simple as [{ productId: string; name: string }, { productId: string; name: string }];
  const [brass, black, opal] = (await givenVariants(db, ctx, a.productId, 'Finish', [
    { label: 'Brass', stock: 5, listPrice: 12_000 },
    { label: 'Black', stock: 2, listPrice: 10_000 },
    { label: 'Opal', stock: 0 },
  ])) as [string, string, string];
  pendant = { productId: a.productId, name: a.name, brass, black, opal };
  const [off, on] = (await givenVariants(db, ctx, b.productId, 'Size', [
    { label: 'Small', stock: 3, enabled: false },
    { label: 'Large', stock: 4 },
  ])) as [string, string];
  oneEnabled = { productId: b.productId, off, on };

  const [conf] = await db
    .select({ productId: p.productId })
    .from(p)
    .where(and(eq(p.tenantId, T), eq(p.productType, 'CONFIGURABLE'), gt(p.stockQuantity, 0)))
    .orderBy(asc(p.productId))
    .limit(1);
  if (!conf) throw new Error('seed has no configurable product');
  const ch = schema.productConfigChoices;
  const choices = await db
    .select()
    .from(ch)
    .where(and(eq(ch.tenantId, T), eq(ch.productId, conf.productId)))
    .orderBy(asc(ch.optionId), asc(ch.choiceId));
  const selections: Record<string, string> = {};
  let delta = 0;
  for (const c of choices) {
    if (selections[c.optionId]) continue;
    selections[c.optionId] = c.choiceId;
    delta += c.priceDelta;
  }
  const [, large] = (await givenVariants(db, ctx, conf.productId, 'Size', [
    { label: 'Small', stock: 6, listPrice: 5_000 },
    { label: 'Large', stock: 6, listPrice: 8_000 },
  ])) as [string, string];
  configurable = { productId: conf.productId, selections, delta, variant: large };
});
afterAll(async () => t?.close());
beforeEach(async () => {
  await db.delete(schema.carts);
  await setVariant(pendant.brass, { enabled: true, removedAt: null });
});

describe('adding by variant', () => {
  it('adds a variant by its id: the line names it and is priced, stocked and titled as the variant', async () => {
    const added = await api().POST(ADD, { body: { variantId: pendant.black, quantity: 2 } });
    expect(added.response.status).toBe(200);
    const [line] = added.data?.data.cart.lines ?? [];
    expect(line).toMatchObject({
      productId: pendant.productId,
      variantId: pendant.black,
      variantTitle: 'Black',
      quantity: 2,
      unitPrice: 10_000,
      listUnitPrice: null,
      lineTotal: 20_000,
      stockQuantity: 2,
      problem: null,
    });
    expect(line?.sku).toMatch(/-2$/);
    // With the product's id too, when they agree.
    const both = await api({ cookie: cookieOf(added.response) }).POST(ADD, {
      body: { productId: pendant.productId, variantId: pendant.brass, quantity: 1 },
    });
    expect(both.response.status).toBe(200);
  });

  it('keeps two variants of one product on two lines, and the same variant on one', async () => {
    const first = await api().POST(ADD, { body: { variantId: pendant.brass, quantity: 1 } });
    const cart = api({ cookie: cookieOf(first.response) });
    await cart.POST(ADD, { body: { variantId: pendant.black, quantity: 1 } });
    const again = await cart.POST(ADD, { body: { variantId: pendant.brass, quantity: 2 } });
    const lines = again.data?.data.cart.lines ?? [];
    expect(lines.map((l) => [l.variantTitle, l.quantity, l.unitPrice])).toEqual([
      ['Brass', 3, 12_000],
      ['Black', 1, 10_000],
    ]);
    expect(again.data?.data.cart.subtotal).toBe(3 * 12_000 + 10_000);
  });

  it('a product id alone: refused with VARIANT_REQUIRED when several variants sell, the only enabled one otherwise', async () => {
    const several = await api().POST(ADD, { body: { productId: pendant.productId, quantity: 1 } });
    expect(several.response.status).toBe(422);
    expect(several.error?.code).toBe('VARIANT_REQUIRED');
    expect(several.error?.message).toContain(`Please choose a finish of ${pendant.name}`);
    const only = await api().POST(ADD, { body: { productId: oneEnabled.productId, quantity: 1 } });
    expect(only.response.status).toBe(200);
    expect(only.data?.data.cart.lines[0]).toMatchObject({ variantId: oneEnabled.on, variantTitle: 'Large' });
  });

  it('refuses a variant of another product, an unknown, a disabled or a removed one with VARIANT_UNAVAILABLE', async () => {
    const cases: [string, object][] = [
      ['another product', { productId: oneEnabled.productId, variantId: pendant.black }],
      ['unknown', { variantId: 'NO-SUCH-VARIANT' }],
      ['disabled', { variantId: oneEnabled.off }],
      ['disabled, with its product', { productId: oneEnabled.productId, variantId: oneEnabled.off }],
    ];
    for (const [what, body] of cases) {
      const res = await post(ADD, { ...body, quantity: 1 });
      expect(res.statusCode, what).toBe(422);
      expect(res.json().code, what).toBe('VARIANT_UNAVAILABLE');
    }
    await setVariant(pendant.brass, { removedAt: new Date() });
    const removed = await post(ADD, { variantId: pendant.brass, quantity: 1 });
    expect(removed.statusCode).toBe(422);
    expect(removed.json().message).toBe(`Sorry, ${pendant.name}, Brass is not available.`);
    // Another store's variant is not there for this one.
    const garden = await post(ADD, { variantId: pendant.black, quantity: 1 }).then(() =>
      t.app.inject({
        method: 'POST',
        url: ADD,
        headers: { host: 'garden.localhost' },
        payload: { variantId: pendant.black, quantity: 1 },
      }),
    );
    expect(garden.statusCode).toBe(422);
  });

  it('refuses malformed requests with 400 and the error envelope', async () => {
    for (const body of [
      { quantity: 1 },
      { variantId: '', quantity: 1 },
      { variantId: 'has spaces', quantity: 1 },
      { variantId: 'x'.repeat(65), quantity: 1 },
      { variantId: 42, quantity: 1 },
      { variantId: ['a'], quantity: 1 },
      { variantId: pendant.black, quantity: 0 },
      { variantId: pendant.black, quantity: 1, price: 1 },
    ]) {
      const res = await post(ADD, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error, JSON.stringify(body)).toBe(true);
    }
    const none = await post(ADD, { quantity: 1 });
    expect(none.json().message).toContain('productId or variantId is required');
  });

  it("checks the variant's own stock, naming the variant", async () => {
    const soldOut = await post(ADD, { variantId: pendant.opal, quantity: 1 });
    expect(soldOut.statusCode).toBe(409);
    expect(soldOut.json().message).toBe(`${pendant.name}, Opal is out of stock.`);
    const short = await post(ADD, { variantId: pendant.black, quantity: 3 });
    expect(short.statusCode).toBe(409);
    expect(short.json().message).toBe(`Only 2 of ${pendant.name}, Black are left in stock.`);
    // Brass has 5 though the product's total is 7: the line is capped by its variant.
    const added = await api().POST(ADD, { body: { variantId: pendant.brass, quantity: 5 } });
    const more = await api({ cookie: cookieOf(added.response) }).PUT(
      '/skulocity/api/v1/public/ecommerce/cart/modifycart',
      {
        body: { lineId: added.data?.data.cart.lines[0]?.lineId ?? '', quantity: 6 },
      },
    );
    expect(more.response.status).toBe(409);
    expect(more.error?.message).toBe(`Only 5 of ${pendant.name}, Brass are left in stock.`);
  });

  it('says on the line when its variant is disabled, removed or short since it was added', async () => {
    const added = await api().POST(ADD, { body: { variantId: pendant.brass, quantity: 4 } });
    const cart = api({ cookie: cookieOf(added.response) });
    const problem = async () =>
      (await cart.GET('/skulocity/api/v1/public/ecommerce/cart/showcart')).data?.data.cart.lines[0]?.problem;
    expect(await problem()).toBeNull();
    await setVariant(pendant.brass, { enabled: false });
    expect(await problem()).toBe('Not available just now. Please remove it from your cart');
    const modify = await cart.PUT('/skulocity/api/v1/public/ecommerce/cart/modifycart', {
      body: { lineId: added.data?.data.cart.lines[0]?.lineId ?? '', quantity: 1 },
    });
    expect(modify.response.status).toBe(422);
    expect(modify.error?.code).toBe('VARIANT_UNAVAILABLE');
    await setVariant(pendant.brass, { enabled: true, removedAt: new Date() });
    expect(await problem()).toBe('No longer available. Please remove it from your cart');
    await setVariant(pendant.brass, { removedAt: null, stockQuantity: 3 });
    expect(await problem()).toBe('Only 3 left in stock');
    await setVariant(pendant.brass, { stockQuantity: 5 });
  });

  it("prices configuration choices on top of the variant's price", async () => {
    const res = await api().POST(ADD_CONFIG, {
      body: { variantId: configurable.variant, quantity: 1, selections: configurable.selections },
    });
    expect(res.response.status).toBe(200);
    const [line] = res.data?.data.cart.lines ?? [];
    expect(line).toMatchObject({ variantId: configurable.variant, variantTitle: 'Large' });
    expect(line?.unitPrice).toBe(Math.max(0, 8_000 + configurable.delta));
    expect(line?.optionsText).toContain(':');
    const required = await api().POST(ADD_CONFIG, {
      body: { productId: configurable.productId, quantity: 1, selections: configurable.selections },
    });
    expect(required.error?.code).toBe('VARIANT_REQUIRED');
  });

  it("getConfigDetailsEvent prices a configuration on the chosen variant's price, and refuses one not on sale", async () => {
    const CONFIG_PRICE = '/skulocity/api/v1/crmsfa/orders/getConfigDetailsEvent';
    const price = (body: object) => post(CONFIG_PRICE, { quantity: 2, selections: configurable.selections, ...body });
    const large = await price({ productId: configurable.productId, variantId: configurable.variant });
    expect(large.statusCode, large.body).toBe(200);
    const unit = Math.max(0, 8_000 + configurable.delta);
    expect(large.json().data).toMatchObject({ basePrice: 8_000, unitPrice: unit, totalPrice: unit * 2 });
    // What the cart then charges for that configuration is the same price.
    const added = await api().POST(ADD_CONFIG, {
      body: { variantId: configurable.variant, quantity: 1, selections: configurable.selections },
    });
    expect(added.data?.data.cart.lines[0]?.unitPrice).toBe(unit);
    // Without a variant: the product's "from" price, as before variants.
    const from = await price({ productId: configurable.productId });
    expect(from.json().data.basePrice).toBe(5_000);
    // Another product's, unknown, disabled: 422; malformed: 400.
    for (const variantId of [pendant.black, `${configurable.productId}-9`]) {
      const refused = await price({ productId: configurable.productId, variantId });
      expect(refused.statusCode, variantId).toBe(422);
      expect(refused.json().code).toBe('VARIANT_UNAVAILABLE');
    }
    await setVariant(configurable.variant, { enabled: false });
    const disabled = await price({ productId: configurable.productId, variantId: configurable.variant });
    await setVariant(configurable.variant, { enabled: true });
    expect(disabled.statusCode).toBe(422);
    expect((await price({ productId: configurable.productId, variantId: 'x'.repeat(200) })).statusCode).toBe(400);
  });

  it("the cart page's add (the product page's form) takes the variant's id", async () => {
    const guest: RequestContext = { ...ctx, actor: { kind: 'guest', cartToken: 'variant-form-guest-token-000000' } };
    const page: PageRequest = {
      ctx: guest,
      headers: {},
      secure: false,
      assertFormFromStore() {},
      cached: (_k, c) => c(),
    };
    const pages = cartPages({ cart: t.services.cart, orders: { read: async () => ({ lines: [] }) } })(page);
    const added = await pages.cartAction({
      intent: 'add',
      productId: pendant.productId,
      variantId: pendant.black,
      quantity: '1',
    });
    expect(added).toMatchObject({ ok: true, message: 'Added to your cart.' });
    const refused = await pages.cartAction({ intent: 'add', productId: pendant.productId, quantity: '1' });
    expect(refused).toMatchObject({ ok: false, status: 422 });
    const cart = await pages.cart();
    expect(cart.lines.map((l) => l.variantTitle)).toEqual(['Black']);
  });
});
