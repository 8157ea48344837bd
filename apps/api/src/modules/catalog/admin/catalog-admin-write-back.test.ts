import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, type SeededTenant, type TestApp } from '../../../test/harness';
import { auditEntries, ownerCaller, signInOwners } from '../../../test/owners';

/**
 * What the API reads can be written back, for categories and catalogs: a
 * category as `editcategory` answers it, and one catalog as `editproductstorecatalogs` lists it,
 * sent back to their writes, are taken (2xx) and change nothing (no audit entry); the category
 * update is a patch; read-only fields sent different, and unknown fields, are refused naming them;
 * another store's owner gets a 404 whatever the body.
 */
let t: TestApp;
const owners = {} as Record<SeededTenant, BrowserSession>;

beforeAll(async () => {
  t = await createTestApp();
  await signInOwners(t.app, owners, ['lighting', 'garden']);
});
afterAll(() => t?.close());

const call = ownerCaller(() => t.app, owners);

const auditCount = (tenant: string) => auditEntries(t.database.db, tenant);

const C = '/skulocity/api/v1/catalog';
const readCategory = async (id: string) =>
  (await call('lighting', 'GET', `${C}/category/editcategory?productCategoryId=${id}`)).json().data;

async function withUploadedPicture(id: string) {
  // A category whose picture is this store's media (a /media/ path, as an upload leaves it).
  await t.database.db
    .update(schema.categories)
    .set({ linkTwoImageUrl: '/media/t/lighting/m/ab/abcdef.webp' })
    .where(and(eq(schema.categories.tenantId, 'lighting'), eq(schema.categories.productCategoryId, id)));
}

describe('categories: read, then write back', () => {
  it('a category as read, written back, changes nothing', async () => {
    await withUploadedPicture('LGT_PENDANTS');
    const read = await readCategory('LGT_PENDANTS');
    expect(read.linkTwoImageUrl).toBe('/media/t/lighting/m/ab/abcdef.webp');
    const before = await auditCount('lighting');
    const res = await call('lighting', 'PUT', `${C}/category/updatecategory`, read);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual(read);
    expect(await auditCount('lighting')).toBe(before);
  });

  it('an update naming only the name changes only the name', async () => {
    const read = await readCategory('LGT_PENDANTS');
    await call('lighting', 'PUT', `${C}/category/updatecategory`, {
      productCategoryId: 'LGT_PENDANTS',
      description: 'Lights that hang',
      seoTitle: 'Pendant lights',
    });
    const described = await readCategory('LGT_PENDANTS');
    const res = await call('lighting', 'PUT', `${C}/category/updatecategory`, {
      productCategoryId: 'LGT_PENDANTS',
      categoryName: 'Hanging lights',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await readCategory('LGT_PENDANTS')).toEqual({ ...described, categoryName: 'Hanging lights' });
    expect(described.linkTwoImageUrl).toBe(read.linkTwoImageUrl);
  });

  it('a read-only field sent different is refused, naming it', async () => {
    const read = await readCategory('LGT_PENDANTS');
    for (const [field, value] of [
      ['productCount', read.productCount + 1],
      ['childCount', read.childCount + 1],
      ['imageMediaId', 'a'.repeat(32)],
    ] as const) {
      const res = await call('lighting', 'PUT', `${C}/category/updatecategory`, { ...read, [field]: value });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().message).toMatch(new RegExp(field));
    }
  });

  it('an unknown field is refused', async () => {
    const read = await readCategory('LGT_PENDANTS');
    const res = await call('lighting', 'PUT', `${C}/category/updatecategory`, { ...read, categoryNmae: 'Typo' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/categoryNmae/);
  });

  it("another store's owner gets a 404 whatever the body", async () => {
    for (const body of [{ categoryName: 'x' }, { categoryName: 5 }, { linkTwoImageUrl: 'ftp://x' }]) {
      const res = await call('garden', 'PUT', `${C}/category/updatecategory`, {
        productCategoryId: 'LGT_PENDANTS',
        ...body,
      });
      expect(res.statusCode, res.body).toBe(404);
    }
  });
});

describe('catalogs: read, then write back', () => {
  it('one catalog as listed, sent back to its write, changes nothing', async () => {
    const read = (await call('lighting', 'GET', `${C}/stores/editproductstorecatalogs?productStoreId=9000`)).json()
      .data;
    const catalog = read.catalogs[0];
    expect(catalog).toBeTruthy();
    const before = await auditCount('lighting');
    const res = await call('lighting', 'POST', `${C}/stores/createproductstorecatalog`, catalog);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual(read);
    expect(await auditCount('lighting')).toBe(before);
  });

  it('its categoryCount sent different is refused, naming it', async () => {
    const read = (await call('lighting', 'GET', `${C}/stores/editproductstorecatalogs?productStoreId=9000`)).json()
      .data;
    const catalog = read.catalogs[0];
    const res = await call('lighting', 'POST', `${C}/stores/createproductstorecatalog`, {
      ...catalog,
      categoryCount: catalog.categoryCount + 1,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/categoryCount/);
  });
});
