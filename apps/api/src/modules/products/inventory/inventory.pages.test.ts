import { fileURLToPath } from 'node:url';
import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stockedProductId } from '../../../test/guest-order';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../test/harness';
import { createStaff } from '../../../test/staff';

// The inventory pages' form posts (React Router's actions through the page server), as a browser
// without JavaScript sends them. Needs the web build: npm run build -w @app/web.

const webBuildDir = fileURLToPath(new URL('../../../../../web/build', import.meta.url));
const host = 'lighting.localhost';
const origin = `http://${host}`;
const PAGE = '/manage-store/inventory';

let t: TestApp;
let owner: BrowserSession;
let ordersStaff: BrowserSession;
let productId: string;

beforeAll(async () => {
  t = await createTestApp({ webBuildDir });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', host);
  await createStaff(t.database, 'lighting', 'inv-pages-orders@lighting.test', ['orders']);
  ordersStaff = await signIn(t.app, 'inv-pages-orders@lighting.test', 'owner-demo-1', host);
  productId = await stockedProductId(t.database.db, 'lighting');
});
afterAll(() => t?.close());

const stock = async () => {
  const [row] = await t.database.db
    .select({ n: schema.products.stockQuantity })
    .from(schema.products)
    .where(and(eq(schema.products.tenantId, 'lighting'), eq(schema.products.productId, productId)));
  return row?.n as number;
};

function post(url: string, fields: Record<string, string>, session: BrowserSession | null = owner) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: {
      host,
      origin,
      'content-type': 'application/x-www-form-urlencoded',
      ...(session ? { cookie: session.cookie } : {}),
    },
    payload: new URLSearchParams({ ...(session ? { _csrf: session['x-csrf-token'] } : {}), ...fields }).toString(),
  });
}

/** The list's one form: a count per row beside the count the page showed, one reason and note. */
const countFields = async (count: string, over: Record<string, string> = {}) => ({
  reason: 'RECEIVED',
  note: '',
  [`was.${productId}`]: String(await stock()),
  [`count.${productId}`]: count,
  ...over,
});

/** A product's own page: one adjustment, added or set. */
const adjustFields = (over: Record<string, string>) => ({
  intent: 'adjust',
  productId,
  reason: 'RECEIVED',
  mode: 'delta',
  quantity: '3',
  note: '',
  ...over,
});

describe('the inventory pages without JavaScript', () => {
  it('lists products with their stock and opens a product’s history', async () => {
    const list = await t.app.inject({ url: `${PAGE}?stock=in`, headers: { host, cookie: owner.cookie } });
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('Products and their stock');
    expect(list.body).toContain(`stock-row-${productId}`);
    const history = await t.app.inject({ url: `${PAGE}/${productId}`, headers: { host, cookie: owner.cookie } });
    expect(history.statusCode).toBe(200);
    // The seed's stock is the opening entry of the books.
    expect(history.body).toContain('Opening stock');
    const missing = await t.app.inject({ url: `${PAGE}/NOPE`, headers: { host, cookie: owner.cookie } });
    expect(missing.statusCode).toBe(404);
  });

  it('counts from a row, shows errors next to the number with what was typed kept, refuses less than none', async () => {
    const before = await stock();
    const typo = await post(PAGE, await countFields('three', { note: 'Kept note' }));
    expect(typo.statusCode).toBe(422);
    expect(typo.body).toContain('Enter the count: a whole number, 0 or more.');
    expect(typo.body).toContain('value="three"');
    expect(typo.body).toContain('value="Kept note"');
    const negative = await post(PAGE, await countFields('-1', { reason: 'DAMAGED' }));
    expect(negative.statusCode).toBe(422);
    expect(negative.body).toContain('Enter the count: a whole number, 0 or more.');
    expect(await stock()).toBe(before);

    const ok = await post(PAGE, await countFields(String(before + 3), { note: 'Form delivery' }));
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('Stock saved for 1 product.');
    expect(await stock()).toBe(before + 3);
    const set = await post(`${PAGE}/${productId}`, adjustFields({ reason: 'CORRECTION', mode: 'set', quantity: '4' }));
    expect(set.statusCode).toBe(200);
    expect(await stock()).toBe(4);
    const history = await t.app.inject({ url: `${PAGE}/${productId}`, headers: { host, cookie: owner.cookie } });
    expect(history.body).toContain('Form delivery');
    expect(history.body).toContain('Correction');
  });

  it('sets the low-stock threshold, naming a bad value next to its field', async () => {
    const bad = await post(PAGE, { intent: 'threshold', lowStockThreshold: '-4' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Enter a whole number from 0 to 100000.');
    const ok = await post(PAGE, { intent: 'threshold', lowStockThreshold: '7' });
    expect(ok.statusCode).toBe(200);
    const [store] = await t.database.db
      .select({ n: schema.productStores.lowStockThreshold })
      .from(schema.productStores)
      .where(eq(schema.productStores.tenantId, 'lighting'));
    expect(store?.n).toBe(7);
  });

  it('refuses a post without the CSRF token, staff without catalog, and sends visitors to log in', async () => {
    const before = await stock();
    const forged = await t.app.inject({
      method: 'POST',
      url: PAGE,
      headers: { host, origin, cookie: owner.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(await countFields(String(before + 50))).toString(),
    });
    expect(forged.statusCode).toBe(403);
    expect(await stock()).toBe(before);
    const staff = await post(PAGE, await countFields(String(before + 50)), ordersStaff);
    expect(staff.statusCode).toBe(403);
    expect(await stock()).toBe(before);
    const visitor = await t.app.inject({ url: PAGE, headers: { host } });
    expect(visitor.statusCode).toBe(302);
    expect(visitor.headers.location).toMatch(/^\/auth\/login\?redirectUrl=/);
    expect(await stock()).toBe(before);
  });
});
