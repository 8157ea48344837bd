import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, okData } from '../../test/api-client';
import { createTestApp, SEEDED_HOSTS, SEEDED_TENANTS, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const B = '/skulocity/api/v1/public/ecommerce';
const get = (url: string, host = 'lighting.localhost', headers: Record<string, string> = {}) =>
  t.app.inject({ url, headers: { host, ...headers } });
const data = async (url: string, host?: string) => {
  const res = await get(url, host);
  expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
  return res.json().data;
};
type Summary = { productId: string; productName: string; price: number; brandName: string; inStock: boolean };
/** The catalog as a client generated from the OpenAPI document calls it (decision 076). */
const api = (host = 'lighting.localhost') => apiClient(t.app, { host });
type ProductQuery = {
  sort?: 'price_asc' | 'price_desc' | 'name' | 'newest';
  pageSize?: number;
  page?: number;
} & Record<string, string | number | undefined>;
const products = async (query: ProductQuery, host?: string) =>
  (await okData(api(host).GET('/skulocity/api/v1/public/ecommerce/product', { params: { query } }))).data;

describe('GET /public/ecommerce/product', () => {
  it.each(SEEDED_TENANTS)('lists the products of a category of %s with facets and a total', async (tenant) => {
    const { host } = SEEDED_HOSTS[tenant];
    const main = (await okData(api(host).GET('/skulocity/api/v1/public/ecommerce/categories'))).data;
    const categoryId = main.catalogCol[0]?.categoryList[0]?.productCategoryId ?? '';
    const page = await products({ productCategoryId: categoryId }, host);
    expect(page.total).toBeGreaterThanOrEqual(5);
    expect(page.products.length).toBe(page.total);
    for (const p of page.products) {
      expect(p.smallImageUrl === null || p.smallImageUrl.startsWith(`http://${host}/media/`)).toBe(true);
      expect(Number.isInteger(p.price)).toBe(true);
    }
    expect(page.facets.categories.find((c) => c.value === categoryId)?.count).toBe(page.total);
  });

  it('sorts by price both ways, by name and by newest', async () => {
    const prices = (await products({ sort: 'price_asc', pageSize: 48 })).products.map((p) => p.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const desc = (await products({ sort: 'price_desc', pageSize: 48 })).products.map((p) => p.price);
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    const names = (await products({ sort: 'name', pageSize: 48 })).products.map((p) => p.productName);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('filters by brand, price range and stock; facet counts equal the filtered totals', async () => {
    const all = await data(`${B}/product?pageSize=48`);
    for (const brand of all.facets.brands.slice(0, 3)) {
      const one = await data(`${B}/product?brand=${encodeURIComponent(brand.value)}&pageSize=48`);
      expect(one.total).toBe(brand.count);
      expect(one.products.every((p: Summary) => p.brandName === brand.value)).toBe(true);
    }
    const band = all.facets.prices[1];
    const ranged = await data(`${B}/product?priceMin=${band.min}&priceMax=${band.max - 1}&pageSize=48`);
    expect(ranged.total).toBe(band.count);
    expect(ranged.products.every((p: Summary) => p.price >= band.min && p.price < band.max)).toBe(true);
    const stocked = await data(`${B}/product?inStock=true&pageSize=48`);
    expect(stocked.total).toBe(all.facets.inStock);
    expect(stocked.total).toBeLessThan(all.total);
    expect(stocked.products.every((p: Summary) => p.inStock)).toBe(true);
  });

  it('pages through results without overlap', async () => {
    const first = await products({ sort: 'name', pageSize: 10, page: 1 });
    const second = await products({ sort: 'name', pageSize: 10, page: 2 });
    expect(first.pageCount).toBe(Math.ceil(first.total / 10));
    const ids = new Set(first.products.map((p) => p.productId));
    expect(second.products.some((p) => ids.has(p.productId))).toBe(false);
  });

  it('gives featured and new products for the home page', async () => {
    const featured = await data(`${B}/product?featured=true`);
    expect(featured.total).toBeGreaterThan(0);
    expect(featured.total).toBeLessThan((await data(`${B}/product`)).total);
  });

  it('rejects unknown sorts, unknown filters and oversized pages by name', async () => {
    for (const [url, field] of [
      [`${B}/product?sort=cheapest`, 'querystring.sort'],
      [`${B}/product?pageSize=500`, 'querystring.pageSize'],
      [`${B}/product?color=red`, 'color'],
      [`${B}/product?priceMin=-5`, 'querystring.priceMin'],
      [`${B}/product?productCategoryId=${encodeURIComponent("x' OR 1=1")}`, 'querystring.productCategoryId'],
    ] as const) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message, url).toContain(field);
    }
  });

  it('answers with cache headers and 304 when unchanged', async () => {
    const first = await get(`${B}/product?sort=newest`);
    expect(first.headers['cache-control']).toMatch(/^public, max-age=\d+/);
    const again = await get(`${B}/product?sort=newest`, 'lighting.localhost', {
      'if-none-match': String(first.headers.etag),
    });
    expect(again.statusCode).toBe(304);
  });

  it("never shows another store's products", async () => {
    const garden = await data(`${B}/product?productCategoryId=LGT_PENDANTS`, 'garden.localhost');
    expect(garden.total).toBe(0);
    const all = await data(`${B}/product?pageSize=48`, 'garden.localhost');
    expect(all.products.every((p: Summary) => p.productId.startsWith('GRD-'))).toBe(true);
  });
});

describe('GET /public/ecommerce/product/subcategory', () => {
  it('gives a category with its children and a breadcrumb through the rollup', async () => {
    const d = await data(`${B}/product/subcategory?productCategoryId=LGT_PENDANTS`);
    expect(d.category.categoryName).toBe('Pendants');
    expect(d.subcategories.map((c: { productCategoryId: string }) => c.productCategoryId)).toEqual([
      'LGT_PENDANTS_GLASS',
      'LGT_PENDANTS_NATURAL',
    ]);
    expect(d.subcategories[0].productCount).toBeGreaterThan(0);
    const child = await data(`${B}/product/subcategory?productCategoryId=LGT_PENDANTS_GLASS`);
    expect(child.breadcrumb.map((b: { productCategoryId: string }) => b.productCategoryId)).toEqual([
      'LGT_PENDANTS',
      'LGT_PENDANTS_GLASS',
    ]);
  });

  it('answers 404 for a category of another store, and 400 without an id', async () => {
    expect((await get(`${B}/product/subcategory?productCategoryId=LGT_PENDANTS`, 'power.localhost')).statusCode).toBe(
      404,
    );
    const bad = await get(`${B}/product/subcategory`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('productCategoryId');
  });
});

describe('GET /public/ecommerce/getproductdetails', () => {
  it('gives everything the product page shows', async () => {
    const { data: d } = await okData(
      api().GET('/skulocity/api/v1/public/ecommerce/getproductdetails', {
        params: { query: { productId: 'LGT-1004' } },
      }),
    );
    expect(d.productName).toBe('Kinsley 3-Light Linear Pendant');
    expect(d.productType).toBe('CONFIGURABLE');
    expect(d.configOptions.map((o) => o.optionName)).toEqual(['Finish', 'Cord length']);
    expect(d.features.length).toBeGreaterThanOrEqual(4);
    expect(d.related.length).toBeGreaterThan(0);
    expect(d.related.some((r) => r.productId === 'LGT-1004')).toBe(false);
    expect(d.reviewSummary.count).toBe(Object.values(d.reviewSummary.distribution).reduce((a, b) => a + b, 0));
    expect(d.breadcrumb[0]?.productCategoryId).toBe('LGT_PENDANTS');
  });

  it('answers 404 for a product of another store', async () => {
    const { error, response } = await api('garden.localhost').GET(
      '/skulocity/api/v1/public/ecommerce/getproductdetails',
      {
        params: { query: { productId: 'LGT-1004' } },
      },
    );
    expect(response.status).toBe(404);
    expect(error?.code).toBe('NOT_FOUND');
    expect(JSON.stringify(error)).not.toContain('Kinsley');
  });
});

describe('GET /public/ecommerce/product/search', () => {
  const search = async (q: string, extra: Record<string, string> = {}) =>
    (
      await okData(
        api().GET('/skulocity/api/v1/public/ecommerce/product/search', {
          params: { query: { searchText: q, ...extra } },
        }),
      )
    ).data;

  it('puts the exact product name first', async () => {
    const r = await search('Arden Brass Dome Pendant');
    expect(r.products[0]?.productName).toBe('Arden Brass Dome Pendant');
    expect(r.searchedFor).toBeNull();
  });

  it('matches the word being typed as a prefix', async () => {
    const r = await search('chandel');
    expect(r.total).toBeGreaterThan(0);
    expect(r.products.every((p) => /chandel/i.test(p.productName))).toBe(true);
  });

  it('finds a product with one letter wrong and says what it searched for', async () => {
    const r = await search('pendnat');
    expect(r.searchedFor).toBe('pendant');
    expect(r.products.some((p) => p.productName === 'Arden Brass Dome Pendant')).toBe(true);
    const other = await search('chandalier');
    expect(other.searchedFor).toBe('chandelier');
    expect(other.products.every((p) => /chandelier/i.test(p.productName))).toBe(true);
    // A brand one letter off: English stemming already brings the two together.
    const brand = await search('Nordlis');
    expect(brand.total).toBeGreaterThan(0);
    expect(brand.products.every((p) => p.brandName === 'Nordlys')).toBe(true);
  });

  it('understands phrases and exclusions', async () => {
    const phrase = await search('"glass globe"');
    expect(phrase.products.map((p) => p.productName)).toContain('Marlow Opal Glass Globe Pendant');
    const without = await search('pendant -glass', { pageSize: '48' });
    const withGlass = await search('pendant', { pageSize: '48' });
    expect(without.total).toBeLessThan(withGlass.total);
    expect(without.products.some((p) => /glass/i.test(p.productName))).toBe(false);
  });

  it('gives facet counts that equal the results of each facet', async () => {
    const r = await search('lamp', { pageSize: '48' });
    expect(r.total).toBeGreaterThan(3);
    for (const brand of r.facets.brands) {
      const narrowed = await search('lamp', { brand: brand.value, pageSize: '48' });
      expect(narrowed.total, brand.value).toBe(brand.count);
    }
    for (const c of r.facets.categories.slice(0, 3)) {
      const narrowed = await search('lamp', { productCategoryId: c.value, pageSize: '48' });
      expect(narrowed.total, c.value).toBe(c.count);
    }
  });

  it('offers categories to browse when nothing matches', async () => {
    const r = await search('qwxzvb');
    expect(r.total).toBe(0);
    expect(r.searchedFor).toBeNull();
    expect(r.suggestions.length).toBeGreaterThan(0);
  });

  it("searches only the host's store", async () => {
    const r = await data(`${B}/product/search?searchText=Kinsley`, 'garden.localhost');
    expect(r.total).toBe(0);
  });

  it('rejects an empty or over-long query by name', async () => {
    expect((await get(`${B}/product/search?searchText=`)).json().message).toContain('searchText');
    expect((await get(`${B}/product/search?searchText=${'a'.repeat(201)}`)).statusCode).toBe(400);
  });
});

describe('autocomplete and search options', () => {
  it('suggests products and categories as the shopper types', async () => {
    const d = await data(`${B}/product/autocomplete?q=pend`);
    expect(d.products.length).toBeGreaterThan(0);
    expect(d.products.every((p: { productName: string }) => /pend/i.test(p.productName))).toBe(true);
    expect(d.categories.map((c: { label: string }) => c.label)).toContain('Pendants');
  });

  it('lists the sorts, facets, price bands and brands of the store', async () => {
    const d = await data(`${B}/product/advanced/searchoptions`, 'power.localhost');
    expect(d.sorts.map((s: { value: string }) => s.value)).toContain('price_asc');
    expect(d.brands).toContain('Torqmax');
    expect(d.brands).not.toContain('Nordlys');
  });
});

describe('POST /crmsfa/orders/getConfigDetailsEvent', () => {
  const price = (payload: unknown, host = 'lighting.localhost') =>
    t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/crmsfa/orders/getConfigDetailsEvent',
      headers: { host },
      payload: payload as object,
    });

  it('adds the price of each chosen option to the product price', async () => {
    const details = await data(`${B}/getproductdetails?productId=LGT-1004`);
    const res = await price({ productId: 'LGT-1004', selections: { OPT1: 'C3', OPT2: 'C2' }, quantity: 2 });
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d.basePrice).toBe(details.price);
    expect(d.unitPrice).toBe(details.price + 2000 + 1500);
    expect(d.totalPrice).toBe(d.unitPrice * 2);
  });

  it('names a missing option, an unknown choice and an unknown option', async () => {
    const missing = await price({ productId: 'LGT-1004', selections: { OPT1: 'C1' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('selections.OPT2');
    const bad = await price({ productId: 'LGT-1004', selections: { OPT1: 'C9', OPT2: 'C1' } });
    expect(bad.json().message).toContain('C9');
    const unknown = await price({ productId: 'LGT-1004', selections: { OPT1: 'C1', OPT2: 'C1', OPT7: 'C1' } });
    expect(unknown.json().errors.join(' ')).toContain('selections.OPT7');
    const plain = await price({ productId: 'LGT-1001', selections: {} });
    expect(plain.statusCode).toBe(400);
  });

  it("does not price another store's product", async () => {
    expect(
      (await price({ productId: 'LGT-1004', selections: { OPT1: 'C1', OPT2: 'C1' } }, 'garden.localhost')).statusCode,
    ).toBe(404);
  });
});

describe('GET /catalog/product/items/downloadProdContent', () => {
  it('downloads a spec sheet as a PDF attachment', async () => {
    const d = await data(`${B}/getproductdetails?productId=LGT-1002`);
    expect(d.contents).toHaveLength(1);
    const res = await get(new URL(d.contents[0].downloadUrl).pathname + new URL(d.contents[0].downloadUrl).search);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('attachment; filename="lgt-1002-spec-sheet.pdf"');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(res.body).toContain('Marlow Opal Glass Globe Pendant');
  });

  it('answers 404 for content of another store or of a product without it', async () => {
    const url = '/skulocity/api/v1/catalog/product/items/downloadProdContent?productId=LGT-1002&contentId=SPEC_SHEET';
    expect((await get(url, 'garden.localhost')).statusCode).toBe(404);
    expect(
      (await get('/skulocity/api/v1/catalog/product/items/downloadProdContent?productId=LGT-1001&contentId=SPEC_SHEET'))
        .statusCode,
    ).toBe(404);
  });
});

describe('FAQs and countries', () => {
  it.each(SEEDED_TENANTS)('gives the FAQs of %s', async (tenant) => {
    const d = await data(`${B}/surveyDetails?productStoreSurveyId=HELP_AND_FAQS`, SEEDED_HOSTS[tenant].host);
    expect(d.questions.length).toBeGreaterThanOrEqual(6);
    expect(d.questions[0].question).toMatch(/\?$/);
  });

  it('keeps FAQs apart and rejects another survey', async () => {
    const lighting = await data(`${B}/surveyDetails?productStoreSurveyId=HELP_AND_FAQS`);
    const garden = await data(`${B}/surveyDetails?productStoreSurveyId=HELP_AND_FAQS`, 'garden.localhost');
    expect(lighting.questions[0].question).not.toBe(garden.questions[0].question);
    const bad = await get(`${B}/surveyDetails?productStoreSurveyId=OTHER`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('productStoreSurveyId');
  });

  it('lists countries with their regions', async () => {
    const d = await data(`${B}/countries`);
    const us = d.find((c: { geoId: string }) => c.geoId === 'USA');
    expect(us.regions.find((r: { geoId: string }) => r.geoId === 'US_CA').name).toBe('California');
    expect(d.find((c: { geoId: string }) => c.geoId === 'GBR').regions).toEqual([]);
  });
});
