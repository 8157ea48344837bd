import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { createProductsService } from './index';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const lighting = {
  tenantId: 'lighting',
  productStoreId: '9000',
  hostName: 'lighting.localhost',
  viaDevAlias: false,
  origin: 'http://lighting.localhost',
};
const names = (r: { products: { productName: string }[] }) => r.products.map((p) => p.productName);

describe('autocomplete with a typo', () => {
  it('suggests what the corrected words find, as the results page does', async () => {
    const service = createProductsService(t.database.db);
    const typed = await service.autocomplete(lighting, 'pendnt');
    const right = await service.autocomplete(lighting, 'pendant');
    expect(names(right).length).toBeGreaterThan(0);
    expect(names(typed)).toEqual(names(right));
    // The categories follow the correction too.
    expect(typed.categories.map((c) => c.label)).toContain('Pendants');
    // The results page finds the same word for the same typo.
    const results = await service.search(lighting, {
      searchText: 'pendnt',
      sort: 'relevance',
      page: 1,
      pageSize: 24,
    } as never);
    expect(results.searchedFor).toBe('pendant');
  });

  it('keeps prefix suggestions as they were when the prefix matches, and suggests nothing for gibberish', async () => {
    const service = createProductsService(t.database.db);
    const pend = await service.autocomplete(lighting, 'pend');
    expect(names(pend).every((n) => /pend/i.test(n))).toBe(true);
    expect((await service.autocomplete(lighting, 'qzxwvk')).products).toEqual([]);
  });

  it('through the API', async () => {
    const res = await t.app.inject({
      url: '/skulocity/api/v1/public/ecommerce/product/autocomplete?q=pendnt',
      headers: { host: 'lighting.localhost' },
    });
    expect(res.statusCode).toBe(200);
    const { products } = res.json().data;
    expect(products.length).toBeGreaterThan(0);
    expect(products.some((p: { productName: string }) => /pendant/i.test(p.productName))).toBe(true);
  });

  it('costs little: the prefix path is untouched, the fallback stays in milliseconds once warm', async () => {
    const service = createProductsService(t.database.db);
    await service.autocomplete(lighting, 'pendnt'); // builds the index and the vocabulary
    const time = async (text: string) => {
      const start = performance.now();
      for (let i = 0; i < 50; i++) await service.autocomplete(lighting, text);
      return (performance.now() - start) / 50;
    };
    const prefixMs = await time('pend');
    const fallbackMs = await time('pendnt');
    console.info(
      `autocomplete on the seeded store: prefix ${prefixMs.toFixed(2)} ms, typo fallback ${fallbackMs.toFixed(2)} ms`,
    );
    expect(fallbackMs).toBeLessThan(50);
  });
});
