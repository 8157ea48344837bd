/** Incremental patches: a loaded index patched with a few changed products answers as a rebuild (and SQL) would. */
import type { SearchQuery } from '@app/contracts';
import type { Database, Db } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/harness';
import { createProductsService, type ProductsService } from '../products.service';
import { ctxOf, fillGenerated, oracle, p, pc, type Query } from './search-oracle';

let database: Database;
let db: Db;
beforeAll(async () => {
  database = await openTestDatabase({ seeded: true });
  db = database.db;
});
afterAll(() => database.close());

describe('incremental patches (catalog.changed with product ids)', () => {
  const T = 'gen-patch';
  let svc: ProductsService;
  const q = (searchText: string, extra: Partial<Query> = {}): Query => ({ searchText, sort: 'relevance', ...extra });
  const find = (text: string) => svc.search(ctxOf(T), { page: 1, pageSize: 24, ...q(text) } as SearchQuery);
  const ids = async (text: string) => (await find(text)).products.map((x) => x.productId);
  /** The index against the SQL oracle over many queries, sorts and filters. */
  async function agreesWithOracle() {
    for (const query of [
      q('lamp'),
      q('lamp', { sort: 'name', pageSize: 48 }),
      q('lamp', { sort: 'name', page: 5, pageSize: 48 }),
      q('brass', { sort: 'newest', pageSize: 48 }),
      q('brass', { sort: 'newest', page: 3, pageSize: 48 }),
      q('brass', { sort: 'featured', pageSize: 48 }),
      q('glass', { sort: 'price_asc', productCategoryId: 'G-GLASS' }),
      q('lamp', { brand: ['Nordlys'], inStock: 'true' }),
      q('zephyrine'),
      q('quokka', { sort: 'name' }),
    ]) {
      const expected = await oracle(db, T, query);
      const got = await svc.search(ctxOf(T), { page: 1, pageSize: 24, ...query } as SearchQuery);
      expect(
        { ids: got.products.map((x) => x.productId), total: got.total, facets: got.facets },
        JSON.stringify(query),
      ).toEqual(expected);
    }
  }

  beforeAll(async () => {
    await fillGenerated(db, 700, T);
    svc = createProductsService(db);
    await find('lamp'); // loaded
  });

  it('patches an edit, a new product, an archived and a drafted one into the loaded index: no rebuild, answers as SQL', async () => {
    const before = svc.searchIndexCounters();
    // An edited name: found by its new words, no longer by its old ones.
    await db
      .update(p)
      .set({ productName: 'Quixotic Walnut Lamp' })
      .where(and(eq(p.tenantId, T), eq(p.productId, 'G-0005')));
    svc.catalogChanged(T, { productIds: ['G-0005'] });
    expect(await ids('quixotic')).toEqual(['G-0005']);
    await db
      .update(p)
      .set({ productName: 'Zephyrine Walnut Lamp' })
      .where(and(eq(p.tenantId, T), eq(p.productId, 'G-0005')));
    svc.catalogChanged(T, { productIds: ['G-0005'] });
    expect(await ids('zephyrine')).toEqual(['G-0005']);
    expect((await find('quixotic')).total).toBe(0);
    // A new ACTIVE product (between existing ids, in a category), and one added as a draft.
    await db.insert(p).values([
      {
        tenantId: T,
        productId: 'G-0005a',
        sku: 'NEW-1',
        productName: 'Quokka Brass Lamp',
        slug: 'quokka',
        listPrice: 4200,
        stockQuantity: 3,
        introductionDate: new Date(Date.UTC(2026, 0, 15)),
        categoryNames: 'Lamps',
      },
      {
        tenantId: T,
        productId: 'G-9999',
        sku: 'NEW-2',
        productName: 'Quokka Draft Lamp',
        slug: 'quokka-draft',
        listPrice: 4300,
        status: 'DRAFT',
      },
    ]);
    await db.insert(pc).values({ tenantId: T, productId: 'G-0005a', productCategoryId: 'G-LAMPS' });
    svc.catalogChanged(T, { productIds: ['G-0005a', 'G-9999'] });
    expect(await ids('quokka')).toEqual(['G-0005a']);
    // Archived and drafted: gone from search, facets and counts.
    const gone = ['G-0010', 'G-0011'];
    await db
      .update(p)
      .set({ status: 'ARCHIVED' })
      .where(and(eq(p.tenantId, T), eq(p.productId, 'G-0010')));
    await db
      .update(p)
      .set({ status: 'DRAFT' })
      .where(and(eq(p.tenantId, T), eq(p.productId, 'G-0011')));
    svc.catalogChanged(T, { productIds: gone });
    const lamp = await svc.search(ctxOf(T), {
      page: 1,
      pageSize: 100,
      searchText: 'lamp brass glass walnut',
      sort: 'relevance',
    } as SearchQuery);
    expect(lamp.products.map((x) => x.productId)).not.toContain('G-0010');
    // Renamed to sort elsewhere by name, and given a new introduction date.
    await db
      .update(p)
      .set({
        productName: 'Aaa Brass Lamp',
        introductionDate: new Date(Date.UTC(2027, 0, 1)),
        listPrice: 99,
        salePrice: null,
        brandName: 'Nordlys',
        stockQuantity: 9,
      })
      .where(and(eq(p.tenantId, T), eq(p.productId, 'G-0300')));
    await db.delete(pc).where(and(eq(pc.tenantId, T), eq(pc.productId, 'G-0300')));
    await db.insert(pc).values({ tenantId: T, productId: 'G-0300', productCategoryId: 'G-GLASS' });
    svc.catalogChanged(T, { productIds: ['G-0300'] });
    await agreesWithOracle();
    // And back to ACTIVE: it returns.
    await db
      .update(p)
      .set({ status: 'ACTIVE' })
      .where(and(eq(p.tenantId, T), eq(p.productId, 'G-0010')));
    svc.catalogChanged(T, { productIds: ['G-0010'] });
    await agreesWithOracle();
    const after = svc.searchIndexCounters();
    expect(after.builds - before.builds).toBe(0);
    expect(after.patches - before.patches).toBeGreaterThanOrEqual(6);
  });

  it('keeps the cards of unchanged products and reads the changed ones afresh', async () => {
    await find('lamp');
    await db
      .update(p)
      .set({ productName: 'Marlow Brass Lamp Renamed' })
      .where(and(eq(p.tenantId, T), eq(p.productId, 'G-0001')));
    svc.catalogChanged(T, { productIds: ['G-0001'] });
    const got = await svc.search(ctxOf(T), {
      page: 1,
      pageSize: 24,
      searchText: 'renamed',
      sort: 'relevance',
    } as SearchQuery);
    expect(got.products.map((x) => [x.productId, x.productName])).toEqual([['G-0001', 'Marlow Brass Lamp Renamed']]);
  });

  it('rebuilds for a category change, for an event without ids and for very many ids', async () => {
    const before = svc.searchIndexCounters();
    svc.catalogChanged(T, { categoryIds: ['G-LAMPS'] });
    await find('lamp');
    svc.catalogChanged(T);
    await find('lamp');
    const many = Array.from({ length: 600 }, (_, i) => `G-${String(i).padStart(4, '0')}`);
    svc.catalogChanged(T, { productIds: many });
    await find('lamp');
    expect(svc.searchIndexCounters().builds - before.builds).toBe(3);
    await agreesWithOracle();
  });
});
