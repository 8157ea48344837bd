/**
 * Option facets and the option filter (decision 112): the index counts and filters option values as
 * the SQL oracle does, after stock and catalog changes too, on PGlite and PostgreSQL.
 */
import { type SearchQuery, searchQuerySchema } from '@app/contracts';
import { type Database, type Db, insertDefaultVariants, schema } from '@app/db';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/harness';
import { changeStock } from '../inventory/stock';
import { createProductsService, type ProductsService } from '../products.service';
import { givenStorefrontVariants } from '../storefront-variants-test-setup';
import { ctxOf, fillGenerated, oracle, p, type Query } from './search-oracle';

const T = 'gen-opt';
let database: Database;
let db: Db;
let svc: ProductsService;
const id = (i: number) => `G-${String(i).padStart(4, '0')}`;
const FINISHES = ['Brass', 'Black', 'Opal'];
const SIZES = ['Small', 'Large'];

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  await fillGenerated(db, 120, T);
  await insertDefaultVariants(db, T);
  const ctx = ctxOf(T);
  for (let i = 0; i < 60; i += 2) {
    // Spellings differ between products ("Finish"/"finish", "Brass"/"brass"): one facet value each.
    const finish = i % 6 === 0 ? 'finish' : 'Finish';
    const label = (f: string) => (i % 8 === 0 ? f.toLowerCase() : f);
    if (i % 4 === 0) {
      await givenStorefrontVariants(db, ctx, id(i), {
        options: [{ name: finish, values: FINISHES.map((f) => ({ label: label(f) })) }],
        variants: FINISHES.map((f, k) => ({
          values: [label(f)],
          stock: (i + k) % 3 === 0 ? 0 : 4,
          listPrice: 2000 + k * 100,
          enabled: !(i % 10 === 0 && k === 1),
        })),
      });
    } else {
      // Two options, one combination left out: Opal comes in Small only.
      const combos = FINISHES.flatMap((f) => SIZES.map((s) => [f, s] as const)).filter(
        ([f, s]) => !(f === 'Opal' && s === 'Large'),
      );
      await givenStorefrontVariants(db, ctx, id(i), {
        options: [
          { name: finish, values: FINISHES.map((f) => ({ label: f })) },
          { name: 'Size', values: SIZES.map((s) => ({ label: s })) },
        ],
        variants: combos.map(([f, s], k) => ({
          values: [f, s],
          stock: (i + k) % 4 === 0 ? 3 : 0,
          listPrice: 3000 + k * 50,
        })),
      });
    }
  }
  // An archived product's variants are not counted.
  await db
    .update(p)
    .set({ status: 'ARCHIVED' })
    .where(and(eq(p.tenantId, T), eq(p.productId, id(2))));
  // Statistics, as a server's autovacuum would have them: PGlite plans the oracle's EXISTS badly without.
  await db.execute(sql`ANALYZE`);
  svc = createProductsService(db);
}, 300_000);
afterAll(() => database.close());

const opt = (...pairs: string[]) => searchQuerySchema.shape.option.parse(pairs.length === 1 ? pairs[0] : pairs);
const search = (q: Query) => svc.search(ctxOf(T), { page: 1, pageSize: 24, ...q } as SearchQuery);

async function agrees(q: Query) {
  const expected = await oracle(db, T, q);
  const got = await search(q);
  expect(
    { ids: got.products.map((x) => x.productId), total: got.total, facets: got.facets },
    JSON.stringify(q),
  ).toEqual(expected);
  return got;
}

const QUERIES: Query[] = [
  { searchText: 'lamp', sort: 'relevance' },
  { searchText: 'lamp', sort: 'relevance', option: opt('Finish:Brass') },
  { searchText: 'lamp', sort: 'name', option: opt('finish:brass', 'FINISH:Opal') },
  { searchText: 'lamp', sort: 'price_asc', option: opt('Finish:Opal', 'Size:Large') },
  { searchText: 'lamp', sort: 'relevance', option: opt('Finish:Black'), inStock: 'true' },
  { searchText: 'lamp', sort: 'relevance', option: opt('Size:Small', 'Finish:Black'), inStock: 'true', pageSize: 48 },
  { searchText: 'lamp', sort: 'relevance', inStock: 'true' },
  { searchText: 'brass', sort: 'newest', option: opt('Finish:Brass'), brand: ['Nordlys'] },
  { searchText: 'lamp', sort: 'relevance', option: opt('Colour:Brass') },
  { searchText: 'lamp', sort: 'relevance', option: opt('Finish:Gold') },
  { searchText: 'glass', sort: 'relevance', productCategoryId: 'G-GLASS', option: opt('Size:Large') },
];

describe('option facets and the option filter', () => {
  it.each(QUERIES)('agree with SQL: %j', async (q) => {
    await agrees(q);
  });

  it('lists option values as a shopper reads them, counting products, not variants', async () => {
    const got = await agrees({ searchText: 'lamp', sort: 'relevance' });
    const finish = got.facets.options.find((o) => o.value === 'finish');
    // One facet for "Finish" and "finish", values in the owner's order, one spelling shown.
    expect(finish?.name).toBe('Finish');
    expect(finish?.values.map((v) => v.label)).toEqual(['Brass', 'Black', 'Opal']);
    expect(got.facets.options.map((o) => o.name)).toEqual(['Finish', 'Size']);
    // Narrowing to Brass keeps the other Finish values countable (a facet ignores its own filter).
    const brass = await agrees({ searchText: 'lamp', sort: 'relevance', option: opt('Finish:Brass') });
    expect(brass.total).toBe(finish?.values.find((v) => v.value === 'brass')?.count);
    expect(brass.facets.options.find((o) => o.value === 'finish')?.values).toEqual(finish?.values);
  });

  it('lists a product under Opal + Large only when one variant is both', async () => {
    const got = await agrees({ searchText: 'lamp', sort: 'relevance', option: opt('Finish:Opal', 'Size:Large') });
    // Two-option products have no Opal / Large; single-option ones have no size: none is listed.
    expect(got.total).toBe(0);
  });

  it('counts a disabled variant nowhere and follows stock and catalog changes without a rebuild', async () => {
    const before = svc.searchIndexCounters();
    const q: Query = { searchText: 'lamp', sort: 'relevance', option: opt('Finish:Opal'), inStock: 'true' };
    const first = await agrees(q);
    // The Opal variant of a product listed under Opal in stock sells out.
    const listed = first.products[0]?.productId as string;
    const [opal] = await db
      .select({ variantId: schema.productVariants.variantId })
      .from(schema.productVariants)
      .where(
        and(
          eq(schema.productVariants.tenantId, T),
          eq(schema.productVariants.productId, listed),
          eq(schema.productVariants.title, 'Opal'),
        ),
      );
    const moved = await db.transaction((tx) =>
      changeStock(tx, ctxOf(T), [{ variantId: opal?.variantId as string, set: 0, reason: 'CORRECTION', note: 'test' }]),
    );
    expect(moved.ok).toBe(true);
    svc.stockChanged(T, [listed]);
    const after = await agrees(q);
    expect(after.products.map((x) => x.productId)).not.toContain(listed);
    // A variant disabled: its value is gone from that product's facets.
    await db
      .update(schema.productVariants)
      .set({ enabled: false })
      .where(
        and(eq(schema.productVariants.tenantId, T), eq(schema.productVariants.variantId, opal?.variantId as string)),
      );
    svc.catalogChanged(T, { productIds: [listed] });
    await agrees({ searchText: 'lamp', sort: 'relevance', option: opt('Finish:Opal') });
    for (const query of QUERIES) await agrees(query);
    expect(svc.searchIndexCounters().builds).toBe(before.builds);
  });

  it('takes Name:Value, repeated, and refuses anything else', () => {
    expect(opt('Colour temperature: 2700 K')).toEqual([{ name: 'Colour temperature', value: '2700 K' }]);
    expect(opt('Finish:Brass', 'Finish:Black')).toHaveLength(2);
    for (const bad of ['Brass', ':Brass', 'Finish:', ' : ', 'x'.repeat(201)]) {
      expect(searchQuerySchema.shape.option.safeParse(bad).success, bad).toBe(false);
    }
  });
});
