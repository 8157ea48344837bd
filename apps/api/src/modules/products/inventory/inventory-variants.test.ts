import { schema } from '@app/db';
import { and, eq, isNull, lte, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../test/harness';

// The inventory per variant (decision 112): a row per live variant, the SKU search finds the variant,
// an adjustment names its variant (a product with several refuses one that does not), the history
// names each movement's variant and filters to one, and the dashboard's low-stock card counts
// enabled live variants.

let t: TestApp;
let owner: BrowserSession;
let gardenOwner: BrowserSession;
let shopper: BrowserSession;
const HOST = 'lighting.localhost';
const GARDEN = 'garden.localhost';
const I = '/api/v1/inventory';
const API = '/skulocity/api/v1/catalog/products';
const run = `iv${Date.now().toString(36)}`;

function call(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  opts: { body?: unknown; session?: BrowserSession | null; host?: string } = {},
) {
  const host = opts.host ?? HOST;
  return t.app.inject({
    method,
    url,
    headers: { host, origin: `http://${host}`, ...(opts.session === null ? {} : (opts.session ?? owner)) },
    ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
  });
}

async function ok<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<T> {
  const res = await call(method, url, { body });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json().data as T;
}

type Variant = { variantId: string; title: string; sku: string; stock: number };

/**
 * A pendant with one option, Finish, through the owner's variant API: Brass (the product's default
 * variant, 6), Black (2), Opal (2). Returns the ids by label.
 */
async function pendant(name: string, prefix: string) {
  const { productId } = await ok<{ productId: string }>('POST', API, {
    fields: { productName: name, sku: `${prefix}-BR`, listPrice: 12900, status: 'ACTIVE' },
    initialStock: 6,
  });
  await ok('PUT', `${API}/${productId}/options`, {
    options: [{ name: 'Finish', values: [{ label: 'Brass' }, { label: 'Black' }, { label: 'Opal' }] }],
  });
  await ok('POST', `${API}/${productId}/variants`, {
    values: ['Black'],
    sku: `${prefix}-BK`,
    listPrice: 12900,
    stock: 2,
  });
  await ok('POST', `${API}/${productId}/variants`, {
    values: ['Opal'],
    sku: `${prefix}-OP`,
    listPrice: 13900,
    stock: 2,
  });
  const { variants } = await ok<{ variants: Variant[] }>('GET', `${API}/${productId}/variants`);
  const id = (title: string) => (variants.find((v) => v.title === title) as Variant).variantId;
  return { productId, brass: id('Brass'), black: id('Black'), opal: id('Opal') };
}

type Item = {
  productId: string;
  variantId: string;
  variantTitle: string;
  sku: string;
  stock: number;
  enabled: boolean;
};
async function list(qs: string) {
  const res = await call('GET', `${I}/products?${qs}`);
  expect(res.statusCode, qs).toBe(200);
  return res.json().data as { items: Item[]; nextCursor: string | null };
}

const adjust = (productId: string, body: object, session: BrowserSession | null = owner, host = HOST) =>
  call('POST', `${I}/products/${encodeURIComponent(productId)}/adjust`, { body, session, host });

async function variantStock(variantId: string) {
  const v = schema.productVariants;
  const [row] = await t.database.db
    .select({ n: v.stockQuantity })
    .from(v)
    .where(and(eq(v.tenantId, 'lighting'), eq(v.variantId, variantId)));
  return row?.n;
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', HOST);
  gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
  shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', HOST);
});
afterAll(() => t?.close());

describe('the inventory list per variant', () => {
  it('has a row per variant of a multi-variant product, one for a single-variant one; SKU finds the variant; keyset pages', async () => {
    const p = await pendant(`${run} Pendant`, `${run}-PD`.toUpperCase());
    const rows = (await list(`q=${run}`)).items;
    // Fewest first, ties by variant id: Black and Opal (2 each), then Brass (6).
    expect(rows.map((r) => [r.variantTitle, r.stock])).toEqual([
      ...[
        ['Black', 2, p.black],
        ['Opal', 2, p.opal],
      ]
        .sort((a, b) => String(a[2]).localeCompare(String(b[2])))
        .map(([title, n]) => [title, n]),
      ['Brass', 6],
    ]);
    expect(rows.every((r) => r.productId === p.productId && r.enabled)).toBe(true);
    expect(rows.find((r) => r.variantId === p.opal)).toMatchObject({ sku: `${run}-PD-OP`.toUpperCase() });

    // A variant's SKU (by its start, any case) finds that variant's row only.
    const bySku = await list(`q=${`${run}-pd-op`.toLowerCase()}`);
    expect(bySku.items.map((r) => r.variantId)).toEqual([p.opal]);
    // A variant's title finds it too.
    expect((await list(`q=${run}%20opal`)).items).toEqual([]);
    expect((await list('q=opal')).items.map((r) => r.variantId)).toContain(p.opal);

    // Keyset: one row a page, every variant once, even where two share a count.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(`q=${run}&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.items.map((i) => i.variantId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(rows.map((r) => r.variantId));

    // A product without options looks as it did: one row, its id the product's, no title.
    const { productId: single } = await ok<{ productId: string }>('POST', API, {
      fields: {
        productName: `${run} Plain Lamp`,
        sku: `${run}-PLAIN`.toUpperCase(),
        listPrice: 4900,
        status: 'ACTIVE',
      },
      initialStock: 4,
    });
    expect((await list(`q=${run}%20plain`)).items).toEqual([
      expect.objectContaining({ productId: single, variantId: single, variantTitle: '', stock: 4 }),
    ]);
  });

  it('leaves a removed variant out, and counts a disabled one but not as low', async () => {
    const p = await pendant(`${run} Gone Pendant`, `${run}-GN`.toUpperCase());
    const [black] = (
      await ok<{ variants: (Variant & { listPrice: number })[] }>('GET', `${API}/${p.productId}/variants`)
    ).variants.filter((v) => v.variantId === p.black);
    // Black disabled; Opal removed (it has books, so it is kept, emptied, and marked removed).
    await ok('PUT', `${API}/${p.productId}/variants/${p.black}`, {
      values: ['Black'],
      sku: black?.sku,
      listPrice: 12900,
      enabled: false,
    });
    expect(await ok<{ outcome: string }>('DELETE', `${API}/${p.productId}/variants/${p.opal}`)).toMatchObject({
      outcome: 'removed',
    });
    const rows = (await list(`q=${run}%20gone`)).items;
    expect(rows.map((r) => [r.variantTitle, r.enabled])).toEqual([
      ['Black', false],
      ['Brass', true],
    ]);
    // Black has 2 (at or below 5) but is not sold: not low.
    expect((await list(`q=${run}%20gone&stock=low`)).items).toEqual([]);
    const removed = await adjust(p.productId, { reason: 'RECEIVED', delta: 1, variantId: p.opal });
    expect(removed.statusCode).toBe(404);
  });
});

describe('adjusting a variant', () => {
  it('refuses a multi-variant product without a variant (422 VARIANT_REQUIRED naming it), and moves only the one named', async () => {
    const p = await pendant(`${run} Adjusted Pendant`, `${run}-AD`.toUpperCase());
    const refused = await adjust(p.productId, { reason: 'RECEIVED', delta: 5 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ error: true, code: 'VARIANT_REQUIRED' });
    expect(refused.json().message).toContain(`${run} Adjusted Pendant has 3 variants`);
    expect([await variantStock(p.brass), await variantStock(p.black), await variantStock(p.opal)]).toEqual([6, 2, 2]);

    const res = await adjust(p.productId, { reason: 'RECEIVED', delta: 5, note: 'pallet', variantId: p.opal });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      productId: p.productId,
      variantId: p.opal,
      variantTitle: 'Opal',
      before: 2,
      after: 7,
      delta: 5,
    });
    expect([await variantStock(p.brass), await variantStock(p.black), await variantStock(p.opal)]).toEqual([6, 2, 7]);
    const set = await adjust(p.productId, { reason: 'CORRECTION', set: 1, variantId: p.black });
    expect(set.json().data).toMatchObject({ variantId: p.black, before: 2, after: 1 });
    const short = await adjust(p.productId, { reason: 'DAMAGED', delta: -2, variantId: p.black });
    expect(short.statusCode).toBe(422);
    expect(short.json().message).toMatch(/^delta: only 1 in stock/);
  });

  it("answers 401, 403, 404 for another product's or another store's variant, and 400 for a malformed one", async () => {
    const p = await pendant(`${run} Guarded Pendant`, `${run}-GD`.toUpperCase());
    const other = await pendant(`${run} Other Pendant`, `${run}-OT`.toUpperCase());
    const body = { reason: 'RECEIVED', delta: 1, variantId: p.opal };
    expect((await adjust(p.productId, body, null)).statusCode).toBe(401);
    expect((await adjust(p.productId, body, shopper)).statusCode).toBe(403);
    // The garden owner naming lighting's product and variant.
    const foreign = await adjust(p.productId, body, gardenOwner, GARDEN);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ error: true, code: 'NOT_FOUND' });
    // Another product's variant, under this product.
    const crossed = await adjust(p.productId, { ...body, variantId: other.opal });
    expect(crossed.statusCode).toBe(404);
    expect(crossed.json().message).toBe('No such variant of this product.');
    for (const variantId of ['', 'a b', 'x'.repeat(65), 7]) {
      const bad = await adjust(p.productId, { ...body, variantId });
      expect(bad.statusCode, JSON.stringify(variantId)).toBe(400);
      expect(bad.json().message).toContain('body.variantId');
    }
    expect([await variantStock(p.opal), await variantStock(other.opal)]).toEqual([2, 2]);
    expect((await call('GET', `${I}/products/${p.productId}/movements?variantId=${other.opal}`)).statusCode).toBe(404);
    expect(
      (
        await call('GET', `${I}/products/${p.productId}/movements?variantId=${p.opal}`, {
          session: gardenOwner,
          host: GARDEN,
        })
      ).statusCode,
    ).toBe(404);
    expect((await call('GET', `${I}/products/${p.productId}/movements?variantId=a%20b`)).statusCode).toBe(400);
  });
});

describe("a product's history by variant", () => {
  it('names the variant of each movement, and filters to one variant with its own count', async () => {
    const p = await pendant(`${run} History Pendant`, `${run}-HI`.toUpperCase());
    await adjust(p.productId, { reason: 'DAMAGED', delta: -1, variantId: p.black });
    const all = (await call('GET', `${I}/products/${p.productId}/movements`)).json().data;
    expect(all.product).toMatchObject({ productId: p.productId, variantId: null, stock: 9 });
    expect(all.variants.map((v: Variant) => [v.title, v.stock])).toEqual([
      ['Brass', 6],
      ['Black', 1],
      ['Opal', 2],
    ]);
    expect(all.movements[0]).toMatchObject({ variantId: p.black, variantTitle: 'Black', reason: 'DAMAGED', delta: -1 });
    expect(new Set(all.movements.map((m: { variantTitle: string }) => m.variantTitle))).toEqual(
      new Set(['Brass', 'Black', 'Opal']),
    );

    const black = (await call('GET', `${I}/products/${p.productId}/movements?variantId=${p.black}`)).json().data;
    expect(black.product).toMatchObject({ variantId: p.black, variantTitle: 'Black', stock: 1 });
    expect(black.movements.map((m: { delta: number; variantId: string }) => [m.variantId, m.delta])).toEqual([
      [p.black, -1],
      [p.black, 2],
    ]);
  });
});

describe("the dashboard's low-stock card", () => {
  it('lists variants ("Pendant, Opal: 2 left"), not disabled or removed ones', async () => {
    const p = await pendant(`${run} Card Pendant`, `${run}-CD`.toUpperCase());
    const home = async () =>
      (await call('GET', '/api/v1/dashboard/home')).json().data.lowStock.products as {
        productId: string;
        variantId: string;
        variantTitle: string;
        productName: string;
        sku: string;
        stock: number;
      }[];
    const mine = async () => (await home()).filter((r) => r.productId === p.productId);
    // The seed's own low products fill the card (it lists 8): the owner restocks them first.
    const v = schema.productVariants;
    const seeded = await t.database.db
      .select({ productId: v.productId, variantId: v.variantId })
      .from(v)
      .where(
        and(eq(v.tenantId, 'lighting'), lte(v.stockQuantity, 5), isNull(v.removedAt), ne(v.productId, p.productId)),
      );
    for (const r of seeded) {
      const res = await adjust(r.productId, { reason: 'RECEIVED', delta: 100, variantId: r.variantId });
      expect(res.statusCode).toBe(200);
    }
    // Brass has 6 (above 5); Black and Opal have 2.
    expect((await mine()).map((r) => [`${r.productName}, ${r.variantTitle}`, r.sku, r.stock])).toEqual([
      [`${run} Card Pendant, Black`, `${run}-CD-BK`.toUpperCase(), 2],
      [`${run} Card Pendant, Opal`, `${run}-CD-OP`.toUpperCase(), 2],
    ]);
    const black = (await ok<{ variants: Variant[] }>('GET', `${API}/${p.productId}/variants`)).variants.find(
      (v) => v.variantId === p.black,
    );
    await ok('PUT', `${API}/${p.productId}/variants/${p.black}`, {
      values: ['Black'],
      sku: black?.sku,
      listPrice: 12900,
      enabled: false,
    });
    await ok('DELETE', `${API}/${p.productId}/variants/${p.opal}`);
    expect(await mine()).toEqual([]);
  });
});
