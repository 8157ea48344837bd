import { schema } from '@app/db';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppEvents } from '../../lib/events/index';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import { createStaff } from '../../test/staff';

const GARDEN: string = SEEDED_HOSTS.garden.host;
const LIGHTING = SEEDED_HOSTS.lighting.host;
const BASE = '/skulocity/api/v1/catalog';
const seen: AppEvents['catalog.changed'][] = [];
let t: TestApp;
let owner: BrowserSession;
let shopper: BrowserSession;
let staffWith: BrowserSession;
let staffWithout: BrowserSession;

beforeAll(async () => {
  t = await createTestApp();
  await createStaff(t.database, 'garden', 'cat-staff@garden.test', ['catalog']);
  await createStaff(t.database, 'garden', 'order-staff@garden.test', ['orders']);
  [owner, shopper, staffWith, staffWithout] = await Promise.all([
    signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN),
    signIn(t.app, 'shopper@garden.test', 'shopper-demo-1', GARDEN),
    signIn(t.app, 'cat-staff@garden.test', 'owner-demo-1', GARDEN),
    signIn(t.app, 'order-staff@garden.test', 'owner-demo-1', GARDEN),
  ]);
  t.services.events.on('catalog.changed', (p) => {
    seen.push(p);
  });
});
afterAll(() => t.close());
beforeEach(() => {
  seen.length = 0;
});

type Headers = Record<string, string>;
const get = (path: string, headers: Headers = owner, host = GARDEN) =>
  t.app.inject({ method: 'GET', url: `${BASE}${path}`, headers: { host, ...headers } });
const send = (method: 'POST' | 'PUT', path: string, body: unknown, headers: Headers = owner, host = GARDEN) =>
  t.app.inject({
    method,
    url: `${BASE}${path}`,
    headers: { host, origin: `http://${host}`, ...headers },
    payload: body as object,
  });
const post = (path: string, body: unknown, headers?: Headers) => send('POST', path, body, headers);
const put = (path: string, body: unknown, headers?: Headers) => send('PUT', path, body, headers);

/** The storefront's category bar data: catalog name -> its categories' ids. */
async function bar(): Promise<Record<string, string[]>> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/skulocity/api/v1/public/ecommerce/categories',
    headers: { host: GARDEN },
  });
  expect(res.statusCode).toBe(200);
  const out: Record<string, string[]> = {};
  for (const c of res.json().data.catalogCol) {
    out[c.prodCatalogId] = c.categoryList.map((x: { productCategoryId: string }) => x.productCategoryId);
  }
  return out;
}

const audits = (entityIds: string[]) =>
  t.database.db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.tenantId, 'garden'), inArray(schema.auditLog.entityId, entityIds)))
    .orderBy(asc(schema.auditLog.id));

async function newCategory(categoryName: string, place: Record<string, string> = {}) {
  const res = await post('/category/createcategory', { categoryName, ...place });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.productCategoryId as string;
}

describe('who may use the catalog administration paths', () => {
  const reads = [
    '/stores/editproductstorecatalogs',
    '/category/content/editProdCatalogCategories?prodCatalogId=GRD_PLANTS',
    '/category/rollup/editrollup?productCategoryId=GRD_HOUSEPLANTS',
    '/autocomplete/LookupProductCategory?productCategoryId=grd',
    '/category/editcategory?productCategoryId=GRD_HOUSEPLANTS',
  ];
  it.each(reads)(
    'GET %s: visitor 401, shopper 403, staff without catalog 403, staff with catalog 200',
    async (path) => {
      expect((await get(path, {})).statusCode).toBe(401);
      expect((await get(path, shopper)).statusCode).toBe(403);
      const refused = await get(path, staffWithout);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toContain('catalog permission');
      expect((await get(path, staffWith)).statusCode).toBe(200);
      expect((await get(path, owner)).statusCode).toBe(200);
    },
  );

  const writes: [string, 'POST' | 'PUT', unknown][] = [
    ['/stores/createproductstorecatalog', 'POST', { catalogName: 'Nope' }],
    ['/stores/deleteproductstorecatalog', 'POST', { prodCatalogId: 'GRD_PLANTS' }],
    [
      '/category/content/createProdCatalogCategory',
      'POST',
      { prodCatalogId: 'GRD_PLANTS', productCategoryId: 'GRD_SOIL' },
    ],
    [
      '/category/content/deleteProdCatalogCategory',
      'POST',
      { prodCatalogId: 'GRD_PLANTS', productCategoryId: 'GRD_HERBS' },
    ],
    ['/category/rollup/create/parent', 'POST', { productCategoryId: 'GRD_SOIL', parentProductCategoryId: 'GRD_HERBS' }],
    [
      '/category/rollup/create/parent',
      'PUT',
      { productCategoryId: 'GRD_EASY_CARE', parentProductCategoryId: 'GRD_HOUSEPLANTS', sequenceNum: 3 },
    ],
    [
      '/category/rollup/delete/parent',
      'POST',
      { productCategoryId: 'GRD_EASY_CARE', parentProductCategoryId: 'GRD_HOUSEPLANTS' },
    ],
    ['/category/createcategory', 'POST', { categoryName: 'Nope' }],
    ['/category/updatecategory', 'PUT', { productCategoryId: 'GRD_SOIL', categoryName: 'Nope' }],
    ['/category/deletecategory', 'POST', { productCategoryId: 'GRD_FURNITURE' }],
  ];
  it.each(writes)(
    '%s (%s): visitor 401, shopper 403, staff without catalog 403; nothing changes',
    async (path, method, body) => {
      const before = await bar();
      expect((await send(method, path, body, {})).statusCode).toBe(401);
      expect((await send(method, path, body, shopper)).statusCode).toBe(403);
      expect((await send(method, path, body, staffWithout)).statusCode).toBe(403);
      expect(await bar()).toEqual(before);
      expect(seen).toEqual([]);
    },
  );

  it('staff with the catalog permission may change the catalog', async () => {
    const res = await post('/category/createcategory', { categoryName: 'Staff Made' }, staffWith);
    expect(res.statusCode).toBe(200);
    const entries = await audits([res.json().data.productCategoryId]);
    expect(entries[0]).toMatchObject({ action: 'create', actorId: 'staff-cat-staff' });
  });
});

describe('GET /catalog/stores/editproductstorecatalogs and linking catalogs', () => {
  it("lists the store's catalogs in order; another site's store is 404", async () => {
    const res = await get('/stores/editproductstorecatalogs?productStoreId=9001');
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.productStoreId).toBe('9001');
    expect(data.catalogs.map((c: { prodCatalogId: string }) => c.prodCatalogId)).toEqual([
      'GRD_PLANTS',
      'GRD_TOOLS',
      'GRD_LIVING',
    ]);
    expect(data.catalogs[0]).toEqual({
      prodCatalogId: 'GRD_PLANTS',
      productStoreId: '9001',
      catalogName: expect.any(String),
      sequenceNum: 0,
      categoryCount: 4,
    });
    expect(res.headers['cache-control']).toContain('no-store');
    // The host's store when absent; lighting's store id from garden: 404.
    expect((await get('/stores/editproductstorecatalogs')).json().data.productStoreId).toBe('9001');
    expect((await get('/stores/editproductstorecatalogs?productStoreId=9000')).statusCode).toBe(404);
  });

  it('creates a catalog, unlinks it (kept, off the storefront) and links it again at a place; audited, emitted', async () => {
    const made = await post('/stores/createproductstorecatalog', { catalogName: 'Seasonal Picks', sequenceNum: 5 });
    expect(made.statusCode, made.body).toBe(200);
    const catalog = made.json().data.catalogs.find((c: { catalogName: string }) => c.catalogName === 'Seasonal Picks');
    expect(catalog).toMatchObject({ prodCatalogId: 'SEASONAL_PICKS', sequenceNum: 5, categoryCount: 0 });
    // Sequence 0, 1, 2 seeded; 5 puts it last.
    expect(Object.keys(await bar())).toEqual(['GRD_PLANTS', 'GRD_TOOLS', 'GRD_LIVING', 'SEASONAL_PICKS']);

    const off = await post('/stores/deleteproductstorecatalog', { prodCatalogId: 'SEASONAL_PICKS' });
    expect(off.statusCode).toBe(200);
    expect(off.json().data.unlinked.map((c: { prodCatalogId: string }) => c.prodCatalogId)).toContain('SEASONAL_PICKS');
    expect(Object.keys(await bar())).not.toContain('SEASONAL_PICKS');
    // Unlinking what is not linked: 404.
    expect((await post('/stores/deleteproductstorecatalog', { prodCatalogId: 'SEASONAL_PICKS' })).statusCode).toBe(404);

    const back = await post('/stores/createproductstorecatalog', { prodCatalogId: 'SEASONAL_PICKS', sequenceNum: 0 });
    expect(back.statusCode).toBe(200);
    // Both at 0: by id after the sequence.
    expect(Object.keys(await bar())).toEqual(['GRD_PLANTS', 'SEASONAL_PICKS', 'GRD_TOOLS', 'GRD_LIVING']);

    const entries = await audits(['SEASONAL_PICKS']);
    expect(entries.map((e) => e.action)).toEqual(['create', 'unlink-store', 'link-store']);
    expect(entries[1]?.changes).toMatchObject({ productStoreId: { before: '9001', after: null } });
    expect(seen).toHaveLength(3);
    expect(seen.every((e) => e.tenantId === 'garden')).toBe(true);
  });

  it("validates the body (400 naming the field); another site's catalog id is 404 and its store stays", async () => {
    const bad = await post('/stores/createproductstorecatalog', {});
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('catalogName');
    const badSeq = await post('/stores/createproductstorecatalog', { catalogName: 'X', sequenceNum: -1 });
    expect(badSeq.statusCode).toBe(400);
    expect(badSeq.body).toContain('sequenceNum');
    const badId = await post('/stores/createproductstorecatalog', { prodCatalogId: 'has space', catalogName: 'X' });
    expect(badId.statusCode).toBe(400);
    expect(badId.body).toContain('prodCatalogId');
    const lightingCatalog = (
      await t.database.db.select().from(schema.catalogs).where(eq(schema.catalogs.tenantId, 'lighting')).limit(1)
    )[0];
    expect(lightingCatalog).toBeDefined();
    const id = lightingCatalog?.prodCatalogId as string;
    expect((await post('/stores/createproductstorecatalog', { prodCatalogId: id })).statusCode).toBe(404);
    expect((await post('/stores/deleteproductstorecatalog', { prodCatalogId: id })).statusCode).toBe(404);
    expect((await get(`/category/content/editProdCatalogCategories?prodCatalogId=${id}`)).statusCode).toBe(404);
    const [still] = await t.database.db
      .select()
      .from(schema.catalogs)
      .where(and(eq(schema.catalogs.tenantId, 'lighting'), eq(schema.catalogs.prodCatalogId, id)));
    expect(still?.productStoreId).toBe('9000');
  });
});

describe("a catalog's top categories", () => {
  it('lists, adds, reorders and removes them; the category bar follows at once', async () => {
    const res = await get('/category/content/editProdCatalogCategories?prodCatalogId=GRD_TOOLS');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ prodCatalogId: 'GRD_TOOLS', productStoreId: '9001' });
    const ids = res.json().data.categories.map((c: { productCategoryId: string }) => c.productCategoryId);
    expect(ids).toEqual(['GRD_HAND_TOOLS', 'GRD_PRUNERS', 'GRD_WATERING', 'GRD_HOSES']);
    expect((await bar()).GRD_TOOLS).toEqual(ids);

    const added = await post('/category/content/createProdCatalogCategory', {
      prodCatalogId: 'GRD_TOOLS',
      productCategoryId: 'GRD_SOIL',
    });
    expect(added.statusCode).toBe(200);
    expect((await bar()).GRD_TOOLS).toEqual([...ids, 'GRD_SOIL']);
    expect(seen.at(-1)).toEqual({ tenantId: 'garden', categoryIds: ['GRD_SOIL'] });

    const order = ['GRD_SOIL', 'GRD_HOSES', 'GRD_HAND_TOOLS', 'GRD_PRUNERS', 'GRD_WATERING'];
    const re = await post('/category/content/reorderProdCatalogCategories', {
      prodCatalogId: 'GRD_TOOLS',
      productCategoryIds: order,
    });
    expect(re.statusCode).toBe(200);
    expect((await bar()).GRD_TOOLS).toEqual(order);
    const partial = await post('/category/content/reorderProdCatalogCategories', {
      prodCatalogId: 'GRD_TOOLS',
      productCategoryIds: ['GRD_SOIL'],
    });
    expect(partial.statusCode).toBe(422);
    expect(partial.body).toContain('productCategoryIds');

    const gone = await post('/category/content/deleteProdCatalogCategory', {
      prodCatalogId: 'GRD_TOOLS',
      productCategoryId: 'GRD_SOIL',
    });
    expect(gone.statusCode).toBe(200);
    expect((await bar()).GRD_TOOLS).toEqual(order.slice(1));
    // The category itself stays (it is still in GRD_LIVING).
    expect((await bar()).GRD_LIVING).toContain('GRD_SOIL');
    const entries = await audits(['GRD_TOOLS/GRD_SOIL', 'GRD_TOOLS']);
    expect(entries.map((e) => e.action)).toEqual(['create', 'reorder-categories', 'delete']);
  });

  it('validates (400 naming the field) and keeps to this site (404)', async () => {
    const missing = await get('/category/content/editProdCatalogCategories');
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('prodCatalogId');
    const noCat = await post('/category/content/createProdCatalogCategory', { prodCatalogId: 'GRD_TOOLS' });
    expect(noCat.statusCode).toBe(400);
    expect(noCat.body).toContain('productCategoryId');
    const [lightingCategory] = await t.database.db
      .select()
      .from(schema.categories)
      .where(eq(schema.categories.tenantId, 'lighting'))
      .limit(1);
    const foreign = await post('/category/content/createProdCatalogCategory', {
      prodCatalogId: 'GRD_TOOLS',
      productCategoryId: lightingCategory?.productCategoryId,
    });
    expect(foreign.statusCode).toBe(404);
    expect((await bar()).GRD_TOOLS).not.toContain(lightingCategory?.productCategoryId);
  });
});

describe('the rollup: parents and children', () => {
  it("GET editrollup shows a category's parents, children and catalogs", async () => {
    const parent = (await get('/category/rollup/editrollup?productCategoryId=GRD_HOUSEPLANTS')).json().data;
    expect(parent.children.map((c: { productCategoryId: string }) => c.productCategoryId)).toEqual(['GRD_EASY_CARE']);
    expect(parent.catalogs.map((c: { prodCatalogId: string }) => c.prodCatalogId)).toEqual(['GRD_PLANTS']);
    const child = (await get('/category/rollup/editrollup?productCategoryId=GRD_EASY_CARE')).json().data;
    expect(child).toMatchObject({
      productCategoryId: 'GRD_EASY_CARE',
      categoryName: 'Easy-Care Plants',
      parents: [
        { productCategoryId: 'GRD_HOUSEPLANTS', categoryName: expect.any(String), sequenceNum: expect.any(Number) },
      ],
      children: [],
      catalogs: [],
    });
    expect((await get('/category/rollup/editrollup?productCategoryId=NOPE')).statusCode).toBe(404);
    expect((await get('/category/rollup/editrollup')).statusCode).toBe(400);
  });

  it('refuses a link that would make a cycle with 409 naming the categories, at any depth, changing nothing', async () => {
    const self = await post('/category/rollup/create/parent', {
      productCategoryId: 'GRD_HOUSEPLANTS',
      parentProductCategoryId: 'GRD_HOUSEPLANTS',
    });
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toContain('GRD_HOUSEPLANTS');

    const direct = await post('/category/rollup/create/parent', {
      productCategoryId: 'GRD_HOUSEPLANTS',
      parentProductCategoryId: 'GRD_EASY_CARE',
    });
    expect(direct.statusCode).toBe(409);
    expect(direct.json().code).toBe('CONFLICT');
    expect(direct.json().message).toContain('"Easy-Care Plants" (GRD_EASY_CARE)');
    expect(direct.json().message).toContain('GRD_HOUSEPLANTS');

    // Three levels: A > B > C; C may not become A's parent.
    const a = await newCategory('Cycle A');
    const b = await newCategory('Cycle B', { parentProductCategoryId: a });
    const c = await newCategory('Cycle C', { parentProductCategoryId: b });
    seen.length = 0;
    const deep = await post('/category/rollup/create/parent', { productCategoryId: a, parentProductCategoryId: c });
    expect(deep.statusCode).toBe(409);
    expect(deep.json().message).toContain('"Cycle A" (CYCLE_A)');
    expect(deep.json().message).toContain('"Cycle C" (CYCLE_C)');
    // The same through PUT (a move) and the dashboard's move.
    const viaPut = await put('/category/rollup/create/parent', {
      productCategoryId: b,
      parentProductCategoryId: c,
      fromParentProductCategoryId: a,
    });
    expect(viaPut.statusCode).toBe(409);
    const viaMove = await post('/category/rollup/move', {
      productCategoryId: a,
      toParentProductCategoryId: c,
    });
    expect(viaMove.statusCode).toBe(409);
    expect(seen).toEqual([]);
    const rollup = (await get(`/category/rollup/editrollup?productCategoryId=${a}`)).json().data;
    expect(rollup.parents).toEqual([]);
    expect(rollup.children.map((x: { productCategoryId: string }) => x.productCategoryId)).toEqual([b]);
  });

  it('adds, re-sequences, moves and removes parent links; audited and emitted', async () => {
    const add = await post('/category/rollup/create/parent', {
      productCategoryId: 'GRD_HERBS',
      parentProductCategoryId: 'GRD_VEG_SEEDS',
      sequenceNum: 1,
    });
    expect(add.statusCode, add.body).toBe(200);
    expect(add.json().data.parents.map((x: { productCategoryId: string }) => x.productCategoryId)).toEqual([
      'GRD_VEG_SEEDS',
    ]);
    expect(seen.at(-1)).toEqual({ tenantId: 'garden', categoryIds: ['GRD_HERBS', 'GRD_VEG_SEEDS'] });
    const veg = (await get('/category/rollup/editrollup?productCategoryId=GRD_VEG_SEEDS')).json().data;
    expect(veg.children.map((x: { productCategoryId: string }) => x.productCategoryId)).toEqual([
      'GRD_HERBS',
      'GRD_TOMATO_BEAN',
    ]);

    const again = await post('/category/rollup/create/parent', {
      productCategoryId: 'GRD_HERBS',
      parentProductCategoryId: 'GRD_VEG_SEEDS',
    });
    expect(again.statusCode).toBe(409);

    const reseq = await put('/category/rollup/create/parent', {
      productCategoryId: 'GRD_HERBS',
      parentProductCategoryId: 'GRD_VEG_SEEDS',
      sequenceNum: 500,
    });
    expect(reseq.statusCode).toBe(200);
    expect(reseq.json().data.parents[0]).toMatchObject({ productCategoryId: 'GRD_VEG_SEEDS', sequenceNum: 500 });

    const moved = await put('/category/rollup/create/parent', {
      productCategoryId: 'GRD_HERBS',
      parentProductCategoryId: 'GRD_PERENNIALS',
      fromParentProductCategoryId: 'GRD_VEG_SEEDS',
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data.parents.map((x: { productCategoryId: string }) => x.productCategoryId)).toEqual([
      'GRD_PERENNIALS',
    ]);

    const notThere = await put('/category/rollup/create/parent', {
      productCategoryId: 'GRD_HERBS',
      parentProductCategoryId: 'GRD_SOIL',
    });
    expect(notThere.statusCode).toBe(404);

    const removed = await post('/category/rollup/delete/parent', {
      productCategoryId: 'GRD_HERBS',
      parentProductCategoryId: 'GRD_PERENNIALS',
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.parents).toEqual([]);
    expect(
      (
        await post('/category/rollup/delete/parent', {
          productCategoryId: 'GRD_HERBS',
          parentProductCategoryId: 'GRD_PERENNIALS',
        })
      ).statusCode,
    ).toBe(404);

    const entries = (await audits(['GRD_HERBS'])).filter((e) => e.entity === 'category.rollup');
    expect(entries.map((e) => e.action)).toEqual(['add-parent', 'update', 'move', 'remove-parent']);
    expect(entries[2]?.changes).toMatchObject({
      parentProductCategoryId: { before: 'GRD_VEG_SEEDS', after: 'GRD_PERENNIALS' },
    });
  });

  it("validates the body, naming the field; another site's categories are 404", async () => {
    const noParent = await post('/category/rollup/create/parent', { productCategoryId: 'GRD_HERBS' });
    expect(noParent.statusCode).toBe(400);
    expect(noParent.body).toContain('parentProductCategoryId');
    const extra = await post('/category/rollup/create/parent', {
      productCategoryId: 'GRD_HERBS',
      parentProductCategoryId: 'GRD_SOIL',
      other: 1,
    });
    expect(extra.statusCode).toBe(400);
    const [lightingCategory] = await t.database.db
      .select()
      .from(schema.categories)
      .where(eq(schema.categories.tenantId, 'lighting'))
      .limit(1);
    const foreign = await post('/category/rollup/create/parent', {
      productCategoryId: 'GRD_HERBS',
      parentProductCategoryId: lightingCategory?.productCategoryId,
    });
    expect(foreign.statusCode).toBe(404);
    const fromLighting = await send(
      'POST',
      '/category/rollup/create/parent',
      { productCategoryId: 'GRD_HERBS', parentProductCategoryId: 'GRD_SOIL' },
      await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING),
      LIGHTING,
    );
    expect(fromLighting.statusCode).toBe(404);
  });

  it('the dashboard move takes a top category into another category and back: the category bar follows at once', async () => {
    const before = await bar();
    expect(before.GRD_LIVING).toContain('GRD_WILDLIFE');
    const res = await post('/category/rollup/move', {
      productCategoryId: 'GRD_WILDLIFE',
      fromProdCatalogId: 'GRD_LIVING',
      toParentProductCategoryId: 'GRD_PERENNIALS',
      position: 0,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.parents.map((x: { productCategoryId: string }) => x.productCategoryId)).toEqual([
      'GRD_PERENNIALS',
    ]);
    expect((await bar()).GRD_LIVING).not.toContain('GRD_WILDLIFE');
    expect(seen.at(-1)).toEqual({ tenantId: 'garden', categoryIds: ['GRD_WILDLIFE', 'GRD_PERENNIALS'] });

    const home = await t.app.inject({
      method: 'GET',
      url: '/skulocity/api/v1/public/ecommerce/categories',
      headers: { host: GARDEN },
    });
    expect(home.body).not.toContain('"productCategoryId":"GRD_WILDLIFE"');

    const back = await post('/category/rollup/move', {
      productCategoryId: 'GRD_WILDLIFE',
      fromParentProductCategoryId: 'GRD_PERENNIALS',
      toProdCatalogId: 'GRD_LIVING',
      position: 1,
    });
    expect(back.statusCode).toBe(200);
    expect((await bar()).GRD_LIVING?.[1]).toBe('GRD_WILDLIFE');
    const bad = await post('/category/rollup/move', { productCategoryId: 'GRD_WILDLIFE' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('toParentProductCategoryId');
  });
});

describe('GET /catalog/autocomplete/LookupProductCategory', () => {
  it("finds this site's categories by id or name prefix, case-insensitive, bounded", async () => {
    const byId = (await get('/autocomplete/LookupProductCategory?productCategoryId=grd_h')).json().data;
    expect(byId.map((x: { productCategoryId: string }) => x.productCategoryId).sort()).toEqual(
      ['GRD_HAND_TOOLS', 'GRD_HERBS', 'GRD_HOSES', 'GRD_HOUSEPLANTS'].sort(),
    );
    const byName = (await get('/autocomplete/LookupProductCategory?productCategoryId=Easy')).json().data;
    expect(byName).toEqual([{ productCategoryId: 'GRD_EASY_CARE', categoryName: 'Easy-Care Plants' }]);
    // A LIKE wildcard is taken literally.
    expect((await get('/autocomplete/LookupProductCategory?productCategoryId=%25')).json().data).toEqual([]);
    const all = (await get('/autocomplete/LookupProductCategory')).json().data;
    expect(all.length).toBeGreaterThanOrEqual(15);
    expect(all.length).toBeLessThanOrEqual(20);
    expect(all.every((x: { productCategoryId: string }) => !x.productCategoryId.startsWith('LIG'))).toBe(true);
    const tooLong = await get(`/autocomplete/LookupProductCategory?productCategoryId=${'x'.repeat(101)}`);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.body).toContain('productCategoryId');
  });
});

describe('category create, edit and delete', () => {
  it('creates a category at a catalog top with an http picture and SEO fields; it shows in the category bar at once', async () => {
    const before = await bar();
    const res = await post('/category/createcategory', {
      categoryName: 'Ferns & Mosses',
      description: 'Shade lovers',
      linkTwoImageUrl: 'https://images.example.com/ferns.jpg',
      seoTitle: 'Ferns for shade',
      seoDescription: 'Ferns and mosses for the shady corners.',
      prodCatalogId: 'GRD_PLANTS',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      productCategoryId: 'FERNS_MOSSES',
      categoryName: 'Ferns & Mosses',
      description: 'Shade lovers',
      linkTwoImageUrl: 'https://images.example.com/ferns.jpg',
      imageMediaId: null,
      seoTitle: 'Ferns for shade',
      seoDescription: 'Ferns and mosses for the shady corners.',
      productCount: 0,
      childCount: 0,
    });
    expect((await bar()).GRD_PLANTS).toEqual([...(before.GRD_PLANTS ?? []), 'FERNS_MOSSES']);
    expect(seen.at(-1)).toEqual({ tenantId: 'garden', categoryIds: ['FERNS_MOSSES'] });
    // Same name again: a new id.
    expect(await newCategory('Ferns & Mosses')).toBe('FERNS_MOSSES_2');

    const upd = await put('/category/updatecategory', {
      productCategoryId: 'FERNS_MOSSES',
      categoryName: 'Ferns',
      description: '',
      seoTitle: 'Ferns',
      seoDescription: '',
    });
    expect(upd.statusCode).toBe(200);
    // Without a new picture the picture is kept; an empty description is cleared (the update is a
    // patch: a field left out would keep its value).
    expect(upd.json().data).toMatchObject({
      categoryName: 'Ferns',
      description: null,
      linkTwoImageUrl: 'https://images.example.com/ferns.jpg',
      seoTitle: 'Ferns',
      seoDescription: null,
    });
    const main = await t.app.inject({
      method: 'GET',
      url: '/skulocity/api/v1/public/ecommerce/categories',
      headers: { host: GARDEN },
    });
    const shown = main
      .json()
      .data.catalogCol.flatMap((c: { categoryList: { productCategoryId: string }[] }) => c.categoryList)
      .find((c: { productCategoryId: string }) => c.productCategoryId === 'FERNS_MOSSES');
    expect(shown).toMatchObject({ categoryName: 'Ferns', linkTwoImageUrl: 'https://images.example.com/ferns.jpg' });

    const removed = await put('/category/updatecategory', {
      productCategoryId: 'FERNS_MOSSES',
      categoryName: 'Ferns',
      removeImage: true,
    });
    expect(removed.json().data.linkTwoImageUrl).toBeNull();

    const entries = await audits(['FERNS_MOSSES']);
    expect(entries.map((e) => e.action)).toEqual(['create', 'update', 'update']);
    expect(entries[1]?.changes).toMatchObject({ categoryName: { before: 'Ferns & Mosses', after: 'Ferns' } });
  });

  it('takes a picture from the media library, and refuses one that is not in it (422)', async () => {
    const [media] = await t.database.db.select().from(schema.media).where(eq(schema.media.tenantId, 'garden')).limit(1);
    if (media) {
      const ok = await post('/category/createcategory', {
        categoryName: 'With Library Picture',
        mediaId: media.mediaId,
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().data).toMatchObject({
        imageMediaId: media.mediaId,
        linkTwoImageUrl: `/media/${media.storageKey}`,
      });
    }
    const [lightingMedia] = await t.database.db
      .select()
      .from(schema.media)
      .where(eq(schema.media.tenantId, 'lighting'))
      .limit(1);
    const foreign = await post('/category/createcategory', {
      categoryName: 'Foreign Picture',
      mediaId: lightingMedia?.mediaId ?? '0123456789abcdef0123456789abcdef',
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.body).toContain('mediaId');
  });

  it('validates the fields, naming them (400), and a taken id (409)', async () => {
    for (const [body, field] of [
      [{}, 'categoryName'],
      [{ categoryName: '   ' }, 'categoryName'],
      [{ categoryName: 'x'.repeat(101) }, 'categoryName'],
      [{ categoryName: 'X', linkTwoImageUrl: 'javascript:alert(1)' }, 'linkTwoImageUrl'],
      [{ categoryName: 'X', seoDescription: 'x'.repeat(321) }, 'seoDescription'],
      [{ categoryName: 'X', productCategoryId: 'a b' }, 'productCategoryId'],
      [
        { categoryName: 'X', prodCatalogId: 'GRD_PLANTS', parentProductCategoryId: 'GRD_SOIL' },
        'parentProductCategoryId',
      ],
    ] as const) {
      const res = await post('/category/createcategory', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.body).toContain(field);
    }
    const taken = await post('/category/createcategory', { categoryName: 'Again', productCategoryId: 'GRD_SOIL' });
    expect(taken.statusCode).toBe(409);
    expect(taken.body).toContain('productCategoryId');
    const noName = await put('/category/updatecategory', { productCategoryId: 'GRD_SOIL', categoryName: ' ' });
    expect(noName.statusCode).toBe(400);
    expect(noName.body).toContain('categoryName');
  });

  it('refuses to delete a category with products or subcategories (409 with the reason); deletes an empty one', async () => {
    const withProducts = await post('/category/deletecategory', { productCategoryId: 'GRD_PRUNERS' });
    expect(withProducts.statusCode).toBe(409);
    expect(withProducts.json().message).toMatch(/still has \d+ products?; move or remove/);
    const withChildren = await post('/category/deletecategory', { productCategoryId: 'GRD_HOUSEPLANTS' });
    expect(withChildren.statusCode).toBe(409);
    expect(withChildren.json().message).toMatch(/products? and 1 subcategory/);

    const parent = await newCategory('Delete Parent', { prodCatalogId: 'GRD_LIVING' });
    const child = await newCategory('Delete Child', { parentProductCategoryId: parent });
    const refused = await post('/category/deletecategory', { productCategoryId: parent });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      '"Delete Parent" (DELETE_PARENT) still has 1 subcategory; move or remove it first.',
    );
    seen.length = 0;
    expect((await post('/category/deletecategory', { productCategoryId: child })).statusCode).toBe(200);
    expect(seen).toEqual([{ tenantId: 'garden', categoryIds: [parent, child] }]);
    expect((await post('/category/deletecategory', { productCategoryId: parent })).statusCode).toBe(200);
    expect((await bar()).GRD_LIVING).not.toContain(parent);
    expect((await get(`/category/editcategory?productCategoryId=${parent}`)).statusCode).toBe(404);
    expect((await audits([parent])).map((e) => e.action)).toEqual(['create', 'delete']);
    expect((await post('/category/deletecategory', { productCategoryId: parent })).statusCode).toBe(404);
  });

  it("another site's category is 404 for edit, update and delete", async () => {
    const [lightingCategory] = await t.database.db
      .select()
      .from(schema.categories)
      .where(eq(schema.categories.tenantId, 'lighting'))
      .limit(1);
    const id = lightingCategory?.productCategoryId as string;
    expect((await get(`/category/editcategory?productCategoryId=${id}`)).statusCode).toBe(404);
    expect(
      (await put('/category/updatecategory', { productCategoryId: id, categoryName: 'Hijacked' })).statusCode,
    ).toBe(404);
    expect((await post('/category/deletecategory', { productCategoryId: id })).statusCode).toBe(404);
    const [still] = await t.database.db
      .select()
      .from(schema.categories)
      .where(and(eq(schema.categories.tenantId, 'lighting'), eq(schema.categories.productCategoryId, id)));
    expect(still?.categoryName).toBe(lightingCategory?.categoryName);
  });
});

describe('OpenAPI', () => {
  it('documents every catalog administration path', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    const paths: [string, string][] = [
      ['/stores/editproductstorecatalogs', 'get'],
      ['/stores/createproductstorecatalog', 'post'],
      ['/stores/deleteproductstorecatalog', 'post'],
      ['/category/content/editProdCatalogCategories', 'get'],
      ['/category/content/createProdCatalogCategory', 'post'],
      ['/category/content/deleteProdCatalogCategory', 'post'],
      ['/category/content/reorderProdCatalogCategories', 'post'],
      ['/category/rollup/editrollup', 'get'],
      ['/category/rollup/create/parent', 'post'],
      ['/category/rollup/create/parent', 'put'],
      ['/category/rollup/delete/parent', 'post'],
      ['/category/rollup/move', 'post'],
      ['/autocomplete/LookupProductCategory', 'get'],
      ['/category/editcategory', 'get'],
      ['/category/createcategory', 'post'],
      ['/category/updatecategory', 'put'],
      ['/category/deletecategory', 'post'],
    ];
    for (const [p, method] of paths) expect(doc.paths[`${BASE}${p}`]?.[method], `${method} ${p}`).toBeDefined();
  });
});
