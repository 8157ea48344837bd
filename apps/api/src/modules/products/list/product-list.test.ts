import { insertDefaultVariants, schema } from '@app/db';
import { and, eq, inArray, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../../lib/context';
import type { PageRequest } from '../../../lib/page-request';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../../test/harness';
import { createStaff } from '../../../test/staff';
import { givenVariants } from '../variants-test-setup';
import { productListPages } from './product-list.pages';
import { prefixTsQuery } from './product-list.query';
import { bulkPrice, createProductListService, SEARCH_WALK_ROWS } from './product-list.service';

/**
 * The dashboard's product list (decision 036): keyset pages without
 * duplicates or gaps under ties, search over every status, filters, the 50 KB bound, bulk actions
 * with audit entries and events (inline and as a job), the streamed export, and who may do it.
 */
const POWER = SEEDED_HOSTS.power;
const LIGHTING = SEEDED_HOSTS.lighting;
const T = 'power';
let t: TestApp;
let owner: BrowserSession;
let shopper: BrowserSession;
let noCatalog: BrowserSession;
let lightingOwner: BrowserSession;
const heard: { name: string; ids: string[] }[] = [];
const seenCtx: RequestContext[] = [];

/** Test products: `n` rows named "<prefix> <i>", all written by one statement (so one updated_at: ties). */
async function addProducts(
  prefix: string,
  n: number,
  over: (i: number) => Partial<typeof schema.products.$inferInsert> = () => ({}),
) {
  const rows = Array.from({ length: n }, (_, i) => ({
    tenantId: T,
    productId: `${prefix}-${String(i).padStart(4, '0')}`,
    sku: `${prefix}-SKU-${i}`,
    productName: `${prefix} Widget ${i}`,
    slug: `${prefix.toLowerCase()}-widget-${i}`,
    listPrice: 1000 + (i % 5) * 100,
    stockQuantity: i % 4 === 0 ? 0 : i % 4 === 1 ? 3 : 50,
    brandName: i % 2 ? `${prefix}Brand` : null,
    ...over(i),
  }));
  for (let i = 0; i < rows.length; i += 500) await t.database.db.insert(schema.products).values(rows.slice(i, i + 500));
  // Each with its default variant, where its stock is (decision 112).
  await insertDefaultVariants(t.database.db, T);
  return rows.map((r) => r.productId);
}

const get = (url: string, session: BrowserSession | null = owner, host: string = POWER.host) =>
  t.app.inject({ method: 'GET', url, headers: { host, ...(session ?? {}) } });
const post = (
  url: string,
  payload: Record<string, unknown>,
  session: BrowserSession | null = owner,
  host: string = POWER.host,
) => t.app.inject({ method: 'POST', url, headers: { host, origin: `http://${host}`, ...(session ?? {}) }, payload });

async function allPages(query: string, limit: number): Promise<{ productId: string }[][]> {
  const pages: { productId: string }[][] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const res = await get(`/api/v1/product-list?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    pages.push(data.rows);
    cursor = data.nextCursor;
    if (!cursor) break;
  }
  return pages;
}

beforeAll(async () => {
  t = await createTestApp({
    extraRoutes: async (app) => {
      app.get('/test/ctx', async (req) => {
        seenCtx.push(req.ctx);
        return {};
      });
    },
  });
  t.services.events.on('catalog.changed', (p) => {
    if (p.tenantId === T) heard.push({ name: 'catalog.changed', ids: p.productIds ?? [] });
  });
  t.services.events.on('stock.changed', (p) => {
    if (p.tenantId === T) heard.push({ name: 'stock.changed', ids: p.productIds });
  });
  owner = await signIn(t.app, 'owner@power.test', 'owner-demo-1', POWER.host);
  shopper = await signIn(t.app, 'shopper@power.test', 'shopper-demo-1', POWER.host);
  await createStaff(t.database, T, 'orders-only@power.test', ['orders']);
  noCatalog = await signIn(t.app, 'orders-only@power.test', 'owner-demo-1', POWER.host);
  lightingOwner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING.host);
});
afterAll(async () => {
  await t?.close();
});

describe('the list', () => {
  it('pages every sort in both directions with no duplicate and no gap, ties broken by id', async () => {
    const ids = await addProducts('KSA', 23);
    for (const sort of ['updated', 'name', 'price', 'stock', 'created']) {
      for (const dir of ['asc', 'desc']) {
        const pages = await allPages(`q=KSA&sort=${sort}&dir=${dir}`, 5);
        const seen = pages.flat().map((r) => r.productId);
        expect(seen.length, `${sort} ${dir}`).toBe(23);
        expect(new Set(seen).size).toBe(23);
        expect([...seen].sort()).toEqual([...ids].sort());
        expect(pages.slice(0, -1).every((p) => p.length === 5)).toBe(true);
      }
    }
    // Order by price ascending, then id: the first rows are the cheapest.
    const [first] = await allPages('q=KSA&sort=price&dir=asc', 50);
    const prices = (first as unknown as { listPrice: number; productId: string }[]).map((r) => r.listPrice);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it('searches names by word prefix, part of a name and an exact SKU, DRAFT and ARCHIVED included', async () => {
    await addProducts('SRC', 3, (i) => ({
      productName: ['Quartzite Grinder', 'Bluefin Sander', 'Mossy Oscillator'][i],
      status: (['DRAFT', 'ARCHIVED', 'ACTIVE'] as const)[i],
    }));
    const names = async (q: string) =>
      (await get(`/api/v1/product-list?q=${encodeURIComponent(q)}`))
        .json()
        .data.rows.map((r: { name: string }) => r.name);
    expect(await names('quartz')).toEqual(['Quartzite Grinder']);
    expect(await names('efin san')).toEqual(['Bluefin Sander']);
    expect(await names('luefin')).toEqual(['Bluefin Sander']);
    expect(await names('SRC-SKU-2')).toEqual(['Mossy Oscillator']);
    // The exact SKU in another case, and a one-letter word beside a longer one: "q" is left out of
    // the word search (as a prefix it would ask for every word starting with q).
    expect(await names('src-sku-2')).toEqual(['Mossy Oscillator']);
    expect(await names('q mossy')).toEqual(['Mossy Oscillator']);
    const drafts = (await get('/api/v1/product-list?q=SRC&status=ARCHIVED')).json().data.rows;
    expect(drafts.map((r: { status: string }) => r.status)).toEqual(['ARCHIVED']);
  });

  it('leaves a one-letter word out of the prefix query beside longer ones, and keeps it alone', () => {
    expect(prefixTsQuery('S-4242')).toBe("'4242':*");
    expect(prefixTsQuery('brass pend')).toBe("'brass':* & 'pend':*");
    expect(prefixTsQuery('s')).toBe("'s':*");
    expect(prefixTsQuery('--')).toBeNull();
  });

  it('finds matches beyond the first rows of the list (its indexes answer), every page without gap or duplicate', async () => {
    // 60 old matches behind more newer products than a search walks first (SEARCH_WALK_ROWS): the
    // walk finds none of them, so the page comes from the search's indexes.
    const old = await addProducts('WLK', 60, (i) => ({
      productName: `Veldspar Lantern ${i}`,
      updatedAt: new Date(Date.UTC(2001, 0, 1, 0, 0, i)),
    }));
    await addProducts('WLN', SEARCH_WALK_ROWS + 100);
    try {
      for (const dir of ['desc', 'asc']) {
        const pages = await allPages(`q=veldspar&sort=updated&dir=${dir}`, 50);
        const seen = pages.flat().map((r) => r.productId);
        expect(pages.map((p) => p.length)).toEqual([50, 10]);
        expect(seen).toEqual(dir === 'desc' ? [...old].reverse() : old);
      }
      // A rare word and a SKU among them, found the same way.
      const one = await allPages('q=WLK-SKU-7', 50);
      expect(one.flat().map((r) => r.productId)).toEqual([old[7]]);
    } finally {
      await t.database.db.execute(sql`DELETE FROM products WHERE tenant_id = ${T} AND product_id LIKE 'WL%'`);
    }
  });

  it('shows a product with variants as its price range and total stock, and finds it by a variant SKU', async () => {
    const [id] = await addProducts('VAR', 1, () => ({ productName: 'Variant Drill', listPrice: 9900 }));
    const ctx = {
      tenantId: T,
      productStoreId: POWER.storeId,
      hostName: POWER.host,
      viaDevAlias: false,
      origin: `http://${POWER.host}`,
    };
    const [, second] = await givenVariants(t.database.db, ctx, id as string, 'Battery', [
      { label: '2 Ah', stock: 4, listPrice: 9900 },
      { label: '5 Ah', stock: 6, listPrice: 14900 },
      { label: '8 Ah', stock: 5, listPrice: 19900, enabled: false },
    ]);
    await t.database.db
      .update(schema.productVariants)
      .set({ sku: 'ZQX-778-B' })
      .where(and(eq(schema.productVariants.tenantId, T), eq(schema.productVariants.variantId, second as string)));
    const rows = (await get('/api/v1/product-list?q=zqx-778')).json().data.rows;
    expect(rows).toEqual([
      expect.objectContaining({
        productId: id,
        listPrice: 9900,
        // The disabled 8 Ah is not sold: the range is that of the enabled ones; its stock still counts.
        priceMax: 14900,
        variantCount: 3,
        stock: 15,
      }),
    ]);
    const single = (await get('/api/v1/product-list?q=SRC-SKU-2')).json().data.rows[0];
    expect(single).not.toHaveProperty('priceMax');
    expect(single).not.toHaveProperty('variantCount');
  });

  it('filters by stock (in, low at or below the threshold, out), brand, status and category', async () => {
    await addProducts('FLT', 8);
    const count = async (q: string) => (await get(`/api/v1/product-list?q=FLT&${q}`)).json().data.rows.length;
    expect(await count('stock=out')).toBe(2); // i = 0, 4
    expect(await count('stock=low')).toBe(2); // 3 units, threshold 5
    expect(await count('stock=in')).toBe(6);
    expect(await count('brand=FLTBrand')).toBe(4);
    expect(await count('status=DRAFT')).toBe(0);
    await t.database.db
      .insert(schema.productCategories)
      .values({ tenantId: T, productCategoryId: 'PWR_DRILLS', productId: 'FLT-0003' });
    const inCat = (await get('/api/v1/product-list?q=FLT&category=PWR_DRILLS')).json().data.rows;
    expect(inCat.map((r: { productId: string }) => r.productId)).toEqual(['FLT-0003']);
    expect(inCat[0].categories.length).toBe(1);
  });

  it('refuses a bad filter naming it, and a cursor of another sort', async () => {
    const bad = await get('/api/v1/product-list?stock=plenty');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('stock');
    const { nextCursor } = (await get('/api/v1/product-list?limit=1')).json().data;
    const other = await get(`/api/v1/product-list?sort=name&cursor=${nextCursor}`);
    expect(other.statusCode).toBe(400);
    expect(other.body).toContain('cursor');
  });

  it('keeps a full page under 50 KB, even with the longest names, SKUs, brands and many categories', async () => {
    const ids = await addProducts('BIG', 50, (i) => ({
      productName: `BIG ${'W'.repeat(195)}${i}`.slice(0, 200),
      sku: `BIG${String(i).padStart(3, '0')}${'S'.repeat(58)}`,
      brandName: 'B'.repeat(120),
      smallImageUrl: `https://images.example.test/${'x'.repeat(270)}`,
    }));
    await t.database.db.insert(schema.productCategories).values(
      ids.flatMap((productId) =>
        ['PWR_DRILLS', 'PWR_SAWS', 'PWR_IMPACT', 'PWR_MITRE_TRACK'].map((productCategoryId) => ({
          tenantId: T,
          productCategoryId,
          productId,
        })),
      ),
    );
    const res = await get('/api/v1/product-list?q=BIG&limit=50');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.rows.length).toBe(50);
    expect(Buffer.byteLength(res.body)).toBeLessThan(50 * 1024);
    expect((await get('/api/v1/product-list?limit=51')).statusCode).toBe(400);
  });
});

describe('who may', () => {
  it('answers a visitor 401, a shopper 403, staff without catalog 403, another store owner 401', async () => {
    expect((await get('/api/v1/product-list', null)).statusCode).toBe(401);
    expect((await get('/api/v1/product-list', shopper)).statusCode).toBe(403);
    const staff = await get('/api/v1/product-list', noCatalog);
    expect(staff.statusCode).toBe(403);
    expect(staff.body).toContain('catalog');
    expect((await get('/api/v1/product-list', lightingOwner)).statusCode).toBe(401);
    expect((await get('/api/v1/product-list/export.csv', shopper)).statusCode).toBe(403);
    const bulk = { action: { kind: 'status', to: 'DRAFT' }, productIds: ['X'] };
    expect((await post('/api/v1/product-list/bulk', bulk, null)).statusCode).toBe(401);
    expect((await post('/api/v1/product-list/bulk', bulk, shopper)).statusCode).toBe(403);
    expect((await post('/api/v1/product-list/bulk', bulk, noCatalog)).statusCode).toBe(403);
  });

  it("lists only the store's own products, and another store's ids are 404 and untouched", async () => {
    const [theirs] = await t.database.db
      .select({ id: schema.products.productId, status: schema.products.status })
      .from(schema.products)
      .where(eq(schema.products.tenantId, 'lighting'))
      .limit(1);
    const id = theirs?.id as string;
    const listed = (await get(`/api/v1/product-list?q=${id}`)).json().data.rows;
    expect(listed).toEqual([]);
    const res = await post('/api/v1/product-list/bulk', { action: { kind: 'delete' }, productIds: [id] });
    expect(res.statusCode).toBe(404);
    const [after] = await t.database.db
      .select({ status: schema.products.status })
      .from(schema.products)
      .where(and(eq(schema.products.tenantId, 'lighting'), eq(schema.products.productId, id)));
    expect(after?.status).toBe(theirs?.status);
  });
});

describe('bulk actions', () => {
  const audits = (ids: string[]) =>
    t.database.db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.tenantId, T), inArray(schema.auditLog.entityId, ids)));

  it('changes status with one audit entry per product changed and catalog.changed after commit', async () => {
    const ids = await addProducts('BST', 4);
    heard.length = 0;
    const res = await post('/api/v1/product-list/bulk', { action: { kind: 'status', to: 'DRAFT' }, productIds: ids });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      mode: 'done',
      result: { changed: 4, unchanged: 0, archivedInstead: 0, deleted: 0, notes: [] },
    });
    const entries = await audits(ids);
    expect(entries.length).toBe(4);
    expect(entries[0]?.changes).toEqual({ status: { before: 'ACTIVE', after: 'DRAFT' } });
    expect(entries[0]?.actorId).toBe('PWR-U-OWNER');
    expect(heard).toEqual([{ name: 'catalog.changed', ids: [...ids].sort() }]);
    // Again: nothing changes, nothing is recorded.
    const again = await post('/api/v1/product-list/bulk', { action: { kind: 'status', to: 'DRAFT' }, productIds: ids });
    expect(again.json().data.result.unchanged).toBe(4);
    expect((await audits(ids)).length).toBe(4);
  });

  it('sets prices by percent with halves rounded away from zero, in integer minor units', async () => {
    expect(bulkPrice(1999, 'percent', -1250, 1e10)).toBe(1749); // 1999 - 249.875
    expect(bulkPrice(10, 'percent', -500, 1e10)).toBe(9); // 10 - 0.5 -> 10 - 1
    expect(bulkPrice(10, 'percent', 500, 1e10)).toBe(11); // 10 + 0.5 -> 10 + 1
    expect(bulkPrice(1000, 'amount', -1500, 1e10)).toBe(0);
    expect(bulkPrice(1000, 'set', 250, 1e10)).toBe(250);
    const ids = await addProducts('BPR', 2, (i) => ({ listPrice: [1999, 10][i] }));
    const res = await post('/api/v1/product-list/bulk', {
      action: { kind: 'price', field: 'list', mode: 'percent', value: -1250 },
      productIds: ids,
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = await t.database.db
      .select({ id: schema.products.productId, list: schema.products.listPrice })
      .from(schema.products)
      .where(and(eq(schema.products.tenantId, T), inArray(schema.products.productId, ids)))
      .orderBy(schema.products.productId);
    expect(rows.map((r) => r.list)).toEqual([1749, 9]);
    // A sale price from a product without one starts from its list price.
    await post('/api/v1/product-list/bulk', {
      action: { kind: 'price', field: 'sale', mode: 'amount', value: -100 },
      productIds: [ids[0]],
    });
    const [sale] = await t.database.db
      .select({ sale: schema.products.salePrice })
      .from(schema.products)
      .where(and(eq(schema.products.tenantId, T), eq(schema.products.productId, ids[0] as string)));
    expect(sale?.sale).toBe(1649);
    const bad = await post('/api/v1/product-list/bulk', {
      action: { kind: 'price', field: 'list', mode: 'percent', value: 1.5 },
      productIds: ids,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('value');
  });

  it('adjusts stock through changeStock with the reason, skipping products that would go below zero', async () => {
    const ids = await addProducts('BSK', 2, (i) => ({ stockQuantity: [1, 10][i] }));
    heard.length = 0;
    const res = await post('/api/v1/product-list/bulk', {
      action: { kind: 'stock', mode: 'delta', value: -5, reason: 'DAMAGED' },
      productIds: ids,
    });
    expect(res.json().data.result).toMatchObject({ changed: 1, unchanged: 1, notes: ['BSK-SKU-0: only 1 in stock'] });
    const moves = await t.database.db
      .select()
      .from(schema.stockMovements)
      .where(and(eq(schema.stockMovements.tenantId, T), inArray(schema.stockMovements.productId, ids)));
    expect(moves.map((m) => [m.productId, m.quantityBefore, m.quantityAfter, m.reason])).toEqual([
      ['BSK-0001', 10, 5, 'DAMAGED'],
    ]);
    expect(heard).toContainEqual({ name: 'stock.changed', ids: ['BSK-0001'] });
  });

  it('reprices every variant of a product with several by the same rule, and refuses a stock change for it', async () => {
    const [multi, single] = await addProducts('BVR', 2, (i) => ({ listPrice: [10000, 2000][i], stockQuantity: 0 }));
    const ctx = {
      tenantId: T,
      productStoreId: POWER.storeId,
      hostName: POWER.host,
      viaDevAlias: false,
      origin: `http://${POWER.host}`,
    };
    const ids = (await givenVariants(t.database.db, ctx, multi as string, 'Battery', [
      { label: '2 Ah', stock: 4, listPrice: 10000 },
      { label: '5 Ah', stock: 6, listPrice: 15000 },
      { label: '8 Ah', stock: 2, listPrice: 20000, enabled: false },
    ])) as string[];
    const variantPrices = async () =>
      (
        await t.database.db
          .select({ id: schema.productVariants.variantId, list: schema.productVariants.listPrice })
          .from(schema.productVariants)
          .where(and(eq(schema.productVariants.tenantId, T), inArray(schema.productVariants.variantId, ids)))
          .orderBy(schema.productVariants.position)
      ).map((r) => r.list);
    const product = async (id: string) =>
      (
        await t.database.db
          .select({
            list: schema.products.listPrice,
            max: schema.products.priceMax,
            stock: schema.products.stockQuantity,
          })
          .from(schema.products)
          .where(and(eq(schema.products.tenantId, T), eq(schema.products.productId, id)))
      )[0];
    heard.length = 0;
    const res = await post('/api/v1/product-list/bulk', {
      action: { kind: 'price', field: 'list', mode: 'percent', value: -1000 },
      productIds: [multi, single],
    });
    expect(res.json().data.result).toMatchObject({ changed: 2, unchanged: 0 });
    // 10 % off each variant, the disabled one too; the product's "from" and range follow.
    expect(await variantPrices()).toEqual([9000, 13500, 18000]);
    expect(await product(multi as string)).toMatchObject({ list: 9000, max: 13500 });
    expect(await product(single as string)).toMatchObject({ list: 1800 });
    expect(heard.find((h) => h.name === 'catalog.changed')?.ids.sort()).toEqual([multi, single].sort());

    // A sale price above a variant's price leaves the whole product as it was, named in the report.
    const over = await post('/api/v1/product-list/bulk', {
      action: { kind: 'price', field: 'sale', mode: 'set', value: 12000 },
      productIds: [multi],
    });
    expect(over.json().data.result).toMatchObject({ changed: 0, unchanged: 1 });
    expect(over.json().data.result.notes[0]).toContain('the sale price would be above the price');
    expect(await variantPrices()).toEqual([9000, 13500, 18000]);

    // Stock is counted per variant: refused for the product with several, done for the other.
    const stock = await post('/api/v1/product-list/bulk', {
      action: { kind: 'stock', mode: 'delta', value: 5, reason: 'RECEIVED' },
      productIds: [multi, single],
    });
    expect(stock.json().data.result).toMatchObject({ changed: 1, unchanged: 1 });
    expect(stock.json().data.result.notes).toEqual(['BVR-SKU-0: BVR Widget 0 has 3 variants; count each in Inventory']);
    expect(await product(multi as string)).toMatchObject({ stock: 12 });
    expect(await product(single as string)).toMatchObject({ stock: 5 });
  });

  it('adds to and removes from a category, refusing a category of another store', async () => {
    const ids = await addProducts('BCA', 2);
    const add = await post('/api/v1/product-list/bulk', {
      action: { kind: 'category.add', categoryId: 'PWR_SAWS' },
      productIds: ids,
    });
    expect(add.json().data.result.changed).toBe(2);
    const rows = (await get('/api/v1/product-list?q=BCA&category=PWR_SAWS')).json().data.rows;
    expect(rows.length).toBe(2);
    const remove = await post('/api/v1/product-list/bulk', {
      action: { kind: 'category.remove', categoryId: 'PWR_SAWS' },
      productIds: [ids[0]],
    });
    expect(remove.json().data.result.changed).toBe(1);
    expect((await get('/api/v1/product-list?q=BCA&category=PWR_SAWS')).json().data.rows.length).toBe(1);
    const [lightingCat] = await t.database.db
      .select({ id: schema.categories.productCategoryId })
      .from(schema.categories)
      .where(eq(schema.categories.tenantId, 'lighting'))
      .limit(1);
    const foreign = await post('/api/v1/product-list/bulk', {
      action: { kind: 'category.add', categoryId: lightingCat?.id },
      productIds: ids,
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.body).toContain('categoryId');
  });

  it('deletes products never ordered and archives those with orders, saying so', async () => {
    const [ordered] = await t.database.db
      .select({ id: schema.orderLines.productId })
      .from(schema.orderLines)
      .where(eq(schema.orderLines.tenantId, T))
      .limit(1);
    const fresh = await addProducts('BDL', 2);
    const ids = [...fresh, ordered?.id as string];
    const res = await post('/api/v1/product-list/bulk', { action: { kind: 'delete' }, productIds: ids });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.result).toMatchObject({ deleted: 2, archivedInstead: 1 });
    const left = await t.database.db
      .select({ id: schema.products.productId, status: schema.products.status })
      .from(schema.products)
      .where(and(eq(schema.products.tenantId, T), inArray(schema.products.productId, ids)));
    expect(left).toEqual([{ id: ordered?.id, status: 'ARCHIVED' }]);
    const deletes = (await audits(fresh)).filter((e) => e.action === 'delete');
    expect(deletes.length).toBe(2);
  });

  it('runs a large whole-filtered-list change as a job with progress, one audit entry per product', async () => {
    const ids = await addProducts('JQZ', 450);
    heard.length = 0;
    const res = await post('/api/v1/product-list/bulk', {
      action: { kind: 'status', to: 'ARCHIVED' },
      filter: { q: 'JQZ', sort: 'updated' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json().data;
    expect(answer).toMatchObject({ mode: 'job', total: 450 });
    await t.services.jobs.drain();
    const job = (await get(`/api/v1/product-list/jobs/${answer.jobId}`)).json().data;
    expect(job).toMatchObject({ status: 'succeeded', done: 450, total: 450, result: { changed: 450 } });
    const archived = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(schema.products)
      .where(
        and(
          eq(schema.products.tenantId, T),
          like(schema.products.productId, 'JQZ-%'),
          eq(schema.products.status, 'ARCHIVED'),
        ),
      );
    expect(archived[0]?.n).toBe(450);
    const entries = await audits(ids);
    expect(entries.length).toBe(450);
    expect(entries.every((e) => e.actorId === 'PWR-U-OWNER')).toBe(true);
    expect(heard.filter((h) => h.name === 'catalog.changed').flatMap((h) => h.ids).length).toBe(450);
    // Another store cannot read it.
    expect((await get(`/api/v1/product-list/jobs/${answer.jobId}`, lightingOwner, LIGHTING.host)).statusCode).toBe(404);
  });
});

describe('export', () => {
  it('streams the filtered list as CSV with a BOM, quoting commas, quotes and newlines', async () => {
    await addProducts('CSV', 2, (i) => ({
      productName: ['CSV Lamp, "Brass"', 'CSV Cord\nTwo lines'][i],
      description: i === 0 ? '<p>a, b</p>' : null,
    }));
    const res = await get('/api/v1/product-list/export.csv?q=CSV&sort=name&dir=asc');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('attachment');
    expect(res.body.startsWith('\uFEFFproduct_id,slug,name,status')).toBe(true);
    expect(res.body).toContain('"CSV Cord\nTwo lines"');
    expect(res.body).toContain('"CSV Lamp, ""Brass"""');
    expect(res.body).toContain('"<p>a, b</p>"');
    expect(res.body).toContain(',10.00,');
    expect(res.body.trim().split('\n').length).toBe(4);
  });

  it('exports more rows than one read (the batches join up without gaps)', async () => {
    await addProducts('EXB', 1203);
    const res = await get('/api/v1/product-list/export.csv?q=EXB&sort=updated');
    const lines = res.body.trim().split('\n');
    expect(lines.length).toBe(1204);
    expect(new Set(lines).size).toBe(1204);
  });
});

describe('the page functions', () => {
  const pages = () => {
    // A second service on the same database and bus (the app's own is not exposed); its job type is
    // registered on a runner of its own, so the app's runner keeps its handler.
    const service = createProductListService(t.database.db, {
      audit: { record: async () => null } as never,
      events: t.services.events,
      jobs: { register() {}, enqueue: t.services.jobs.enqueue, get: t.services.jobs.get } as never,
    });
    return service;
  };
  const ownerCtx = async () => {
    await get('/test/ctx');
    return seenCtx.at(-1) as RequestContext;
  };
  const page = (ctx: RequestContext): PageRequest => ({
    ctx,
    headers: {},
    secure: false,
    assertFormFromStore() {},
    cached: (_key, compute) => compute(),
  });

  it('reads decimal prices and percents from the form, and names a bad value', async () => {
    const ids = await addProducts('PGF', 2, (i) => ({ listPrice: [2000, 1000][i], salePrice: [null, 900][i] }));
    const api = productListPages({ productList: pages() })(page(await ownerCtx()));
    const cut = await api.productBulkAction(
      { action: 'price', priceField: 'list', priceMode: 'amount', value: '-2.50' },
      ids,
    );
    expect(cut).toMatchObject({
      ok: true,
      message: '1 updated, 1 unchanged. PGF-SKU-1: the sale price would be above the price.',
    });
    const rows = await t.database.db
      .select({ list: schema.products.listPrice, sale: schema.products.salePrice })
      .from(schema.products)
      .where(and(eq(schema.products.tenantId, T), inArray(schema.products.productId, ids)))
      .orderBy(schema.products.productId);
    // 20.00 -> 17.50; 10.00 -> 7.50 would put the sale price (9.00) above the price: skipped.
    expect(rows).toEqual([
      { list: 1750, sale: null },
      { list: 1000, sale: 900 },
    ]);
    const bad = await api.productBulkAction({ action: 'price', priceMode: 'percent', value: '12.345' }, ids);
    expect(bad).toMatchObject({ ok: false, status: 422, fieldErrors: { value: expect.stringContaining('percent') } });
    const none = await api.productBulkAction({ action: 'status:DRAFT' }, []);
    expect(none).toMatchObject({ ok: false, fieldErrors: { productIds: expect.any(String) } });
    const nothing = await api.productBulkAction({ action: 'sing' }, ids);
    expect(nothing).toMatchObject({ ok: false, fieldErrors: { action: expect.any(String) } });
  });

  it('lets a visitor or a shopper read nothing', async () => {
    const visitor = { ...(await ownerCtx()), actor: { kind: 'guest' as const, cartToken: null } };
    const api = productListPages({ productList: pages() })(page(visitor));
    await expect(api.productListPage({})).rejects.toMatchObject({ statusCode: 401 });
  });
});
