import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, multipart, SEEDED_HOSTS, SEEDED_TENANTS, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const MAIN = '/skulocity/api/v1/public/ecommerce/main';

describe('POST /public/ecommerce/main', () => {
  it.each(SEEDED_TENANTS)(
    'returns the catalogs and categories of %s from a multipart productStoreId',
    async (tenant) => {
      const { host, storeId } = SEEDED_HOSTS[tenant];
      const form = multipart({ productStoreId: storeId });
      const res = await t.app.inject({
        method: 'POST',
        url: MAIN,
        headers: { host, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode).toBe(200);
      const { data } = res.json();
      expect(data.productStoreId).toBe(storeId);
      expect(data.catalogCol.length).toBeGreaterThanOrEqual(tenant === 'power' ? 6 : 2);
      const categories = data.catalogCol.flatMap((c: { categoryList: unknown[] }) => c.categoryList);
      expect(
        new Set(categories.map((c: { productCategoryId: string }) => c.productCategoryId)).size,
      ).toBeGreaterThanOrEqual(12);
      for (const c of data.catalogCol) {
        expect(Object.keys(c).sort()).toEqual(['catalogName', 'categoryList', 'prodCatalogId', 'productStoreId']);
        expect(c.productStoreId).toBe(storeId);
        for (const cat of c.categoryList) {
          expect(Object.keys(cat).sort()).toEqual([
            'categoryName',
            'description',
            'linkTwoImageUrl',
            'linkTwoImageUrlS3',
            'productCategoryId',
          ]);
          // Hosted images are absolute http URLs on the host that asked.
          if (cat.linkTwoImageUrl)
            expect(cat.linkTwoImageUrl.startsWith(`http://${host}/media/seed/${tenant}/`)).toBe(true);
        }
      }
      // The seed exercises both image sources: an http image, and an S3 key only. Every category has a
      // picture (no demo tile shows the placeholder); the placeholder rule is the bar's.
      expect(categories.some((c: { linkTwoImageUrl: string | null }) => c.linkTwoImageUrl?.startsWith('http'))).toBe(
        true,
      );
      expect(
        categories.some(
          (c: { linkTwoImageUrl: string | null; linkTwoImageUrlS3: string | null }) =>
            !c.linkTwoImageUrl && c.linkTwoImageUrlS3,
        ),
      ).toBe(true);
      expect(
        categories.every(
          (c: { linkTwoImageUrl: string | null; linkTwoImageUrlS3: string | null }) =>
            c.linkTwoImageUrl || c.linkTwoImageUrlS3,
        ),
      ).toBe(true);
    },
  );

  it("uses the host's store when productStoreId is absent, and accepts JSON", async () => {
    const empty = await t.app.inject({ method: 'POST', url: MAIN, headers: { host: 'garden.localhost' } });
    expect(empty.json().data.productStoreId).toBe('9001');
    const json = await t.app.inject({
      method: 'POST',
      url: MAIN,
      headers: { host: 'garden.localhost' },
      payload: { productStoreId: '9001' },
    });
    expect(json.json().data.productStoreId).toBe('9001');
  });

  it("refuses another tenant's productStoreId and reads nothing of it", async () => {
    const form = multipart({ productStoreId: '9001' });
    const res = await t.app.inject({
      method: 'POST',
      url: MAIN,
      headers: { host: 'lighting.localhost', ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toContain('9001');
    expect(res.body).not.toContain('catalogCol');
  });

  it('rejects unknown form fields by name', async () => {
    const form = multipart({ productStoreId: '9000', role: 'admin' });
    const res = await t.app.inject({
      method: 'POST',
      url: MAIN,
      headers: { host: 'lighting.localhost', ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.join(' ')).toContain('role');
  });

  it('refuses file uploads', async () => {
    const boundary = '----x';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`;
    const res = await t.app.inject({
      method: 'POST',
      url: MAIN,
      headers: { host: 'lighting.localhost', 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.statusCode).toBe(413);
  });
});

describe('GET categories fetch', () => {
  it.each(SEEDED_TENANTS)('returns productStoreId and catalogCol for %s with no parameters', async (tenant) => {
    const { host, storeId } = SEEDED_HOSTS[tenant];
    const res = await t.app.inject({ url: '/skulocity/api/v1/public/ecommerce/categories', headers: { host } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.productStoreId).toBe(storeId);
    expect(res.json().data.catalogCol.length).toBeGreaterThanOrEqual(2);
  });

  it('sends cache validators and answers 304 when unchanged', async () => {
    const first = await t.app.inject({
      url: '/skulocity/api/v1/public/ecommerce/categories',
      headers: { host: 'power.localhost' },
    });
    expect(first.headers['cache-control']).toMatch(/public, max-age=\d+/);
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await t.app.inject({
      url: '/skulocity/api/v1/public/ecommerce/categories',
      headers: { host: 'power.localhost', 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // Another store's validator never matches.
    const other = await t.app.inject({
      url: '/skulocity/api/v1/public/ecommerce/categories',
      headers: { host: 'garden.localhost', 'if-none-match': etag },
    });
    expect(other.statusCode).toBe(200);
  });
});
