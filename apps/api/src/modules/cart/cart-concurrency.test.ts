import { schema } from '@app/db';
import { and, asc, eq, gt, ne } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { setTestStock } from '../../test/stock';

// Concurrent changes to one cart (decision 023): parallel adds of one product never fail with a
// duplicate line and never lose a quantity; a retried add with its Idempotency-Key adds once.

let t: TestApp;
const LIGHTING = 'lighting.localhost';
const B = '/skulocity/api/v1';
let product: string;
let other: string;
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
  if (!rows[0] || !rows[1]) throw new Error('seed has no products in stock');
  product = rows[0].productId;
  other = rows[1].productId;
  const [conf] = await t.database.db
    .select()
    .from(p)
    .where(and(eq(p.tenantId, 'lighting'), eq(p.productType, 'CONFIGURABLE'), gt(p.stockQuantity, 0)));
  if (!conf) throw new Error('seed has no configurable product');
  const ch = schema.productConfigChoices;
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
  await setTestStock(t.database.db, 50, { tenantId: 'lighting', productId: product });
});

const add = (cookie: string | null, productId: string, quantity = 1, key?: string) =>
  t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/product/addToCart`,
    headers: { host: LIGHTING, ...(cookie ? { cookie } : {}), ...(key ? { 'idempotency-key': key } : {}) },
    payload: { productId, quantity },
  });

/** A guest cart that already exists (with another product in it), and its cookie. */
async function guestCart() {
  const res = await add(null, other);
  expect(res.statusCode).toBe(200);
  return String([res.headers['set-cookie']].flat()[0]).split(';')[0] as string;
}

async function quantityOf(cookie: string, productId: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `${B}/public/ecommerce/cart/showcart`,
    headers: { host: LIGHTING, cookie },
  });
  const lines = res.json().data.cart.lines as { productId: string; quantity: number }[];
  return lines.filter((l) => l.productId === productId).reduce((s, l) => s + l.quantity, 0);
}

describe('parallel changes to one cart', () => {
  it('ten parallel adds of 1 all succeed and give quantity 10', async () => {
    const cookie = await guestCart();
    const answers = await Promise.all(Array.from({ length: 10 }, () => add(cookie, product)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(await quantityOf(cookie, product)).toBe(10);
  });

  it('with 4 in stock, ten parallel adds: 4 succeed, 6 are refused by name, none fails', async () => {
    await setTestStock(t.database.db, 4, { tenantId: 'lighting', productId: product });
    const cookie = await guestCart();
    const answers = await Promise.all(Array.from({ length: 10 }, () => add(cookie, product)));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([...Array(4).fill(200), ...Array(6).fill(409)]);
    for (const refused of answers.filter((a) => a.statusCode === 409)) {
      expect(refused.json()).toMatchObject({ error: true, code: 'OUT_OF_STOCK' });
      expect(refused.json().message).toMatch(/Only 4 .* left in stock/);
    }
    expect(await quantityOf(cookie, product)).toBe(4);
  });
});

describe('Idempotency-Key on add to cart', () => {
  it('the same key twice adds once, in sequence and in parallel; another key adds again', async () => {
    const cookie = await guestCart();
    const first = await add(cookie, product, 2, 'add-key-0001');
    const again = await add(cookie, product, 2, 'add-key-0001');
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    expect(again.json().data.cart.lines.find((l: { productId: string }) => l.productId === product).quantity).toBe(2);
    expect(await quantityOf(cookie, product)).toBe(2);

    const both = await Promise.all([add(cookie, product, 1, 'add-key-0002'), add(cookie, product, 1, 'add-key-0002')]);
    expect(both.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(await quantityOf(cookie, product)).toBe(3);

    expect((await add(cookie, product, 1, 'add-key-0003')).statusCode).toBe(200);
    expect(await quantityOf(cookie, product)).toBe(4);
  });

  it('the same key for another product or quantity is refused (409), and adds nothing', async () => {
    const cookie = await guestCart();
    expect((await add(cookie, product, 1, 'add-key-0004')).statusCode).toBe(200);
    const other = await add(cookie, product, 3, 'add-key-0004');
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ error: true, code: 'CONFLICT' });
    expect(other.json().message).toMatch(/Idempotency-Key/);
    expect(await quantityOf(cookie, product)).toBe(1);
  });

  it('a refused add does not use up its key: the retry once stock is back adds', async () => {
    await setTestStock(t.database.db, 0, { tenantId: 'lighting', productId: product });
    const cookie = await guestCart();
    expect((await add(cookie, product, 1, 'add-key-0005')).statusCode).toBe(409);
    await setTestStock(t.database.db, 5, { tenantId: 'lighting', productId: product });
    expect((await add(cookie, product, 1, 'add-key-0005')).statusCode).toBe(200);
    expect(await quantityOf(cookie, product)).toBe(1);
  });

  it('addConfigItemsToCart: the same key twice adds the configured product once', async () => {
    const cookie = await guestCart();
    const selections = Object.fromEntries(configurable.options.map((o) => [o.optionId, o.choiceId]));
    const body = { productId: configurable.productId, quantity: 1, selections };
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: `${B}/crmsfa/orders/addConfigItemsToCart`,
        headers: { host: LIGHTING, cookie, 'idempotency-key': 'cfg-key-0001' },
        payload: body,
      });
    const first = await send();
    expect(first.statusCode, first.body).toBe(200);
    expect((await send()).statusCode).toBe(200);
    expect(await quantityOf(cookie, configurable.productId)).toBe(1);
  });
});
