import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  audits,
  bar,
  GARDEN,
  get,
  newCategory,
  post,
  put,
  seen,
  t,
  useCatalogAdminApp,
} from './catalog-admin-test-setup';

useCatalogAdminApp();

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
