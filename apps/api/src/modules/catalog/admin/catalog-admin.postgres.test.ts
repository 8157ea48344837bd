import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, openSecondHandle, signIn, type TestApp } from '../../../test/harness';

// Across app processes: two apps on one PostgreSQL, each with its own read cache.
// The owner re-parents a category and renames another through one; the other's category bar (main
// data) and store frame follow within a second, although both were cached there.

const GARDEN = 'garden.localhost';
const CATEGORIES = '/skulocity/api/v1/public/ecommerce/categories';
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp({ database: await openSecondHandle(a.database) });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

async function livingOfB(): Promise<{ productCategoryId: string; categoryName: string | null }[]> {
  const res = await b.app.inject({ url: CATEGORIES, headers: { host: GARDEN } });
  const living = res.json().data.catalogCol.find((c: { prodCatalogId: string }) => c.prodCatalogId === 'GRD_LIVING');
  return living.categoryList;
}

async function within(ms: number, ok: (list: Awaited<ReturnType<typeof livingOfB>>) => boolean) {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (ok(await livingOfB())) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`app b did not follow within ${ms} ms`);
}

describe('category changes across app processes', () => {
  it("the other process's cached category bar follows a move and a rename within a second", async () => {
    expect((await livingOfB()).map((c) => c.productCategoryId)).toContain('GRD_SOIL');
    await livingOfB(); // cached now
    const owner = await signIn(a.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
    const send = (method: 'POST' | 'PUT', url: string, payload: object) =>
      a.app.inject({
        method,
        url: `/skulocity/api/v1/catalog${url}`,
        headers: { host: GARDEN, origin: `http://${GARDEN}`, ...owner },
        payload,
      });
    const moved = await send('POST', '/category/rollup/move', {
      productCategoryId: 'GRD_SOIL',
      fromProdCatalogId: 'GRD_LIVING',
      toParentProductCategoryId: 'GRD_PLANTERS',
    });
    expect(moved.statusCode).toBe(200);
    expect(await within(1000, (l) => !l.some((c) => c.productCategoryId === 'GRD_SOIL'))).toBeLessThan(1000);

    const renamed = await send('PUT', '/category/updatecategory', {
      productCategoryId: 'GRD_PLANTERS',
      categoryName: 'Pots, Planters & Soil',
    });
    expect(renamed.statusCode).toBe(200);
    expect(
      await within(1000, (l) =>
        l.some((c) => c.productCategoryId === 'GRD_PLANTERS' && c.categoryName === 'Pots, Planters & Soil'),
      ),
    ).toBeLessThan(1000);
  });
});
