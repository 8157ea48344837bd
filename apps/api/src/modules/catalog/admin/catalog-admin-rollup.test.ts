import { schema } from '@app/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { signIn } from '../../../test/harness';
import {
  audits,
  bar,
  GARDEN,
  get,
  LIGHTING,
  newCategory,
  post,
  put,
  seen,
  send,
  t,
  useCatalogAdminApp,
} from './catalog-admin-test-setup';

useCatalogAdminApp();

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
