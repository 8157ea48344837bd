import { fileURLToPath } from 'node:url';
import { schema } from '@app/db';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../../lib/context';
import { stockedProductId } from '../../../test/guest-order';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../test/harness';
import { createStaff } from '../../../test/staff';
import { givenVariants } from '../variants-test-setup';

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

  it('counts and adjusts one variant of a product with several, and shows that variant’s history', async () => {
    // A product no other case here touches: the store's last by id.
    const [last] = await t.database.db
      .select({ id: schema.products.productId })
      .from(schema.products)
      .where(eq(schema.products.tenantId, 'lighting'))
      .orderBy(desc(schema.products.productId))
      .limit(1);
    const pendant = last?.id as string;
    const ctx = systemContext(
      { tenantId: 'lighting', productStoreId: '9000', hostName: host, viaDevAlias: false, origin },
      'inventory-pages-test',
    );
    const [brass, opal] = (await givenVariants(t.database.db, ctx, pendant, 'Finish', [
      { label: 'Brass', stock: 6 },
      { label: 'Opal', stock: 2 },
    ])) as [string, string];
    const variantStock = async (variantId: string) =>
      (
        await t.database.db
          .select({ n: schema.productVariants.stockQuantity })
          .from(schema.productVariants)
          .where(and(eq(schema.productVariants.tenantId, 'lighting'), eq(schema.productVariants.variantId, variantId)))
      )[0]?.n;
    const list = await t.app.inject({ url: `${PAGE}?q=opal`, headers: { host, cookie: owner.cookie } });
    expect(list.body).toContain(`stock-row-${opal}`);
    expect(list.body).toContain(' · Opal');
    // The list's form names the row's variant and its product.
    const counted = await post(PAGE, {
      reason: 'RECEIVED',
      note: 'Opal delivery',
      [`was.${opal}`]: '2',
      [`product.${opal}`]: pendant,
      [`count.${opal}`]: '9',
    });
    expect(counted.statusCode).toBe(200);
    expect([await variantStock(brass), await variantStock(opal)]).toEqual([6, 9]);
    // The product's page, for one variant: its count, and its adjust form names it.
    const page = `${PAGE}/${pendant}?variant=${opal}`;
    const shown = await t.app.inject({ url: page, headers: { host, cookie: owner.cookie } });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('History of Opal');
    expect(shown.body).toContain('Opal delivery');
    const set = await post(
      page,
      adjustFields({ productId: pendant, variantId: opal, reason: 'CORRECTION', mode: 'set', quantity: '1' }),
    );
    expect(set.statusCode).toBe(200);
    expect([await variantStock(brass), await variantStock(opal)]).toEqual([6, 1]);
    // Without a variant the product's page has no adjust form, and a post is refused by name.
    const whole = await t.app.inject({ url: `${PAGE}/${pendant}`, headers: { host, cookie: owner.cookie } });
    expect(whole.body).toContain('Choose a variant below to adjust its stock');
    const refused = await post(`${PAGE}/${pendant}`, adjustFields({ productId: pendant }));
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('has 2 variants');
    expect(
      (await t.app.inject({ url: `${PAGE}/${pendant}?variant=${productId}`, headers: { host, cookie: owner.cookie } }))
        .statusCode,
    ).toBe(404);
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
