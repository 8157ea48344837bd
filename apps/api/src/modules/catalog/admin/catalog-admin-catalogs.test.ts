import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  audits,
  BASE,
  bar,
  get,
  owner,
  post,
  seen,
  send,
  shopper,
  staffWith,
  staffWithout,
  t,
  useCatalogAdminApp,
} from './catalog-admin-test-setup';

useCatalogAdminApp();

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
