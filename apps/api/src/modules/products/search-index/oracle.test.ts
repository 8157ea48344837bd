/**
 * The contract of the search index: it answers as the SQL search it replaced (the oracle in
 * search-oracle.ts), pages, totals, facets and ranks to the bit, on PGlite and on PostgreSQL.
 */
import type { SearchQuery } from '@app/contracts';
import type { Database, Db } from '@app/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/harness';
import { createProductsService, type ProductsService } from '../products.service';
import { prefixTsQuery, queryWords } from '../search-text';
import { buildTenantIndex, compareLexemes, decodeTsQuery, pgQsort, searchTsQuery, tsQueryOf } from '.';
import { ctxOf, fillGenerated, GEN, oracle, p, pc, popcount, type Query, rowsOf } from './search-oracle';

let database: Database;
let db: Db;
let service: ProductsService;
beforeAll(async () => {
  database = await openTestDatabase({ seeded: true });
  db = database.db;
  await fillGenerated(db, 1500);
  service = createProductsService(db);
});
afterAll(() => database.close());

const search = (tenantId: string, q: Query) =>
  service.search(ctxOf(tenantId), { page: 1, pageSize: 24, ...q } as SearchQuery);

describe('tsquery and sort helpers', () => {
  it('decodes PostgreSQL binary tsquery in item order (operator, right, left)', async () => {
    const [row] = await rowsOf<{ q: string }>(
      db,
      sql`SELECT encode(tsquerysend(to_tsquery('simple', 'a:*B & !b <2> c')), 'hex') AS q`,
    );
    const q = decodeTsQuery(Buffer.from(row?.q ?? '', 'hex'));
    expect(q.root).toEqual({
      op: 'and',
      left: { op: 'val', lexeme: 'a', prefix: true, weight: 4 },
      right: {
        op: 'phrase',
        distance: 2,
        left: { op: 'not', arg: { op: 'val', lexeme: 'b', prefix: false, weight: 0 } },
        right: { op: 'val', lexeme: 'c', prefix: false, weight: 0 },
      },
    });
    expect(q.operands.map((o) => o.lexeme)).toEqual(['c', 'b', 'a']);
  });

  it("orders lexemes as PostgreSQL does and sorts like PostgreSQL's qsort", () => {
    expect(['b', 'ab', 'a', 'é', 'z', '😀', '\uffee'].sort(compareLexemes)).toEqual([
      'a',
      'ab',
      'b',
      'z',
      'é',
      '\uffee',
      '😀',
    ]);
    for (const n of [3, 8, 41, 200]) {
      const list = Array.from({ length: n }, (_, i) => (i * 7919) % 13);
      pgQsort(list, (a, b) => a - b);
      expect(list).toEqual([...list].sort((a, b) => a - b));
    }
  });
});

describe('the index answers as the SQL search did', () => {
  const lighting: Query[] = [
    { searchText: 'lamp', sort: 'relevance' },
    { searchText: 'pendant', sort: 'relevance', pageSize: 48 },
    { searchText: 'Arden Brass Dome Pendant', sort: 'relevance' },
    { searchText: 'arden', sort: 'relevance' },
    { searchText: 'chandel', sort: 'relevance' },
    { searchText: '"glass globe"', sort: 'relevance' },
    { searchText: 'pendant -glass', sort: 'relevance', pageSize: 48 },
    { searchText: 'brass or glass', sort: 'relevance' },
    { searchText: 'lamp -"floor lamp"', sort: 'relevance' },
    { searchText: 'table lamps', sort: 'relevance' },
    { searchText: 'l', sort: 'relevance', pageSize: 10, page: 2 },
    { searchText: 'lamp', sort: 'price_asc' },
    { searchText: 'lamp', sort: 'price_desc', page: 2, pageSize: 5 },
    { searchText: 'lamp', sort: 'newest' },
    { searchText: 'lamp', sort: 'name' },
    { searchText: 'lamp', sort: 'featured' },
    { searchText: 'lamp', sort: 'relevance', inStock: 'true' },
    { searchText: 'lamp', sort: 'relevance', priceMin: 5000, priceMax: 20000 },
    { searchText: 'lamp', sort: 'relevance', priceMin: 10000 },
    { searchText: 'the', sort: 'relevance' },
  ];
  const generated: Query[] = [
    { searchText: 'lamp', sort: 'relevance' },
    { searchText: 'Lamp', sort: 'relevance', page: 3 },
    { searchText: 'lamps', sort: 'relevance' },
    { searchText: 'lam', sort: 'relevance' },
    { searchText: 'brass lamp', sort: 'relevance' },
    { searchText: 'arden brass walnut glass', sort: 'relevance' },
    { searchText: 'brass lamp pendant sconce glass walnut marlow arden', sort: 'relevance' },
    { searchText: '"brass lamp"', sort: 'relevance' },
    { searchText: '"lamp the brass"', sort: 'relevance' },
    { searchText: '"x x brass"', sort: 'relevance' },
    { searchText: 'lamp -brass', sort: 'relevance' },
    { searchText: '-lamp', sort: 'relevance' },
    { searchText: 'walnut or sconce -"brass lamp"', sort: 'relevance', page: 2 },
    { searchText: 'Halden', sort: 'relevance' },
    { searchText: 'lumen works', sort: 'relevance' },
    { searchText: 'lamp', sort: 'relevance', brand: ['Nordlys'] },
    { searchText: 'lamp', sort: 'relevance', brand: ['Nordlys', 'Halden & Co.'], inStock: 'true' },
    { searchText: 'lamp', sort: 'relevance', brand: ['Nobody'] },
    { searchText: 'lamp', sort: 'relevance', productCategoryId: 'G-BRASS' },
    { searchText: 'glass', sort: 'relevance', productCategoryId: 'G-GLASS', priceMax: 30000 },
    { searchText: 'glass', sort: 'relevance', productCategoryId: 'G-NONE' },
    {
      searchText: 'lamp',
      sort: 'price_asc',
      productCategoryId: 'G-LAMPS',
      brand: ['Lumen Works'],
      priceMin: 2000,
      priceMax: 40000,
      inStock: 'true',
      page: 2,
      pageSize: 10,
    },
    { searchText: 'brass', sort: 'price_desc' },
    { searchText: 'brass', sort: 'newest', page: 4 },
    { searchText: 'brass', sort: 'name', page: 2 },
    { searchText: 'brass', sort: 'featured', pageSize: 48 },
  ];

  it.each([...lighting.map((q) => ['lighting', q] as const), ...generated.map((q) => [GEN, q] as const)])(
    '%s: %j',
    async (tenantId, q) => {
      const expected = await oracle(db, tenantId, q);
      const got = await search(tenantId, q);
      expect(got.searchedFor).toBeNull();
      expect({ ids: got.products.map((x) => x.productId), total: got.total, facets: got.facets }).toEqual(expected);
    },
  );

  it("autocomplete's lean path (names starting with the text, ranked alone) picks what ranking every match picks", async () => {
    const index = await buildTenantIndex(db, GEN);
    const names = await rowsOf<{ name: string }>(
      db,
      sql`SELECT DISTINCT lower(${p.productName}) AS name FROM ${p} WHERE ${p.tenantId} = ${GEN} ORDER BY 1 LIMIT 12`,
    );
    const typed = new Set<string>();
    for (const text of ['brass lamp', 'walnut glass', 'lamp', 'marlow brass', ...names.map((r) => r.name)]) {
      for (let i = 1; i <= text.length; i++) typed.add(text.slice(0, i).trimEnd());
    }
    let lean = 0;
    let few = 0;
    for (const text of typed) {
      const prefix = prefixTsQuery(queryWords(text)) ?? '';
      const q = await tsQueryOf(db, sql`to_tsquery('simple', ${prefix})`);
      const match = index.match(q);
      const relevance = { plan: index.rankPlan(q), text };
      const [row] = await rowsOf<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM ${p} WHERE ${p.tenantId} = ${GEN}
            AND lower(${p.productName}) LIKE ${`${text}%`} AND ${p.searchVector} @@ to_tsquery('simple', ${prefix})`,
      );
      const starting = row?.n ?? 0;
      // Six, as autocomplete asks, and more than a full name's few products: both paths, and the edge.
      for (const limit of [6, 12]) {
        const all = index.query({ match, filters: {}, sort: 'relevance', relevance, offset: 0, limit });
        expect(index.best(match, relevance, limit), `${text} (${limit})`).toEqual(all.ids);
        if (starting >= limit) lean++;
        else if (starting > 0) few++;
      }
    }
    // Compared: texts where enough names start with the text, and texts where some but too few do.
    expect(lean).toBeGreaterThan(10);
    expect(few).toBeGreaterThan(5);
  });

  it('computes ts_rank to the bit for every match', async () => {
    const index = await buildTenantIndex(db, GEN);
    const ids = index.ids;
    for (const text of ['lamp', 'lam', 'brass lamp', '"brass lamp"', 'marlow brass glass', 'lamp or x', 'x']) {
      const tsq = searchTsQuery(text);
      const q = await tsQueryOf(db, tsq);
      const plan = index.rankPlan(q);
      const rows = await rowsOf<{ id: string; r: number }>(
        db,
        sql`SELECT ${p.productId} AS id, ts_rank(${p.searchVector}, ${tsq})::float8 AS r FROM ${p}
            WHERE ${p.tenantId} = ${GEN} AND ${p.searchVector} @@ ${tsq}`,
      );
      expect(rows.length, text).toBeGreaterThan(0);
      const match = index.match(q);
      let matched = 0;
      for (const w of match) matched += popcount(w);
      expect(matched, text).toBe(rows.length);
      const docs = Int32Array.from(rows, (r) => ids.indexOf(r.id));
      const all = index.rankAll(plan, docs);
      rows.forEach((r, i) => {
        expect(index.rank(plan, docs[i] as number), `${text} ${r.id}`).toBe(r.r);
        expect(all[docs[i] as number], `${text} ${r.id}, all at once`).toBe(r.r);
      });
    }
    // An AND at the top (only one configuration yields lexemes): ts_rank's other formula. With
    // prefixes (autocomplete's queries), an operand spans many lexemes of one document.
    for (const text of ['brass & lamp & x', 'brass & l:*', 'walnut & g:*', 'x & m:*', 'lamp & lamp:* & a:*']) {
      const tsq = sql`to_tsquery('simple', ${text})`;
      const q = await tsQueryOf(db, tsq);
      const plan = index.rankPlan(q);
      expect(plan.and, text).toBe(true);
      const rows = await rowsOf<{ id: string; r: number }>(
        db,
        sql`SELECT ${p.productId} AS id, ts_rank(${p.searchVector}, ${tsq})::float8 AS r FROM ${p}
            WHERE ${p.tenantId} = ${GEN} AND ${p.searchVector} @@ ${tsq}`,
      );
      expect(rows.length, text).toBeGreaterThan(10);
      for (const r of rows) expect(index.rank(plan, ids.indexOf(r.id)), `${text} ${r.id}`).toBe(r.r);
    }
  });

  it('matches phrases however they nest, with prefixes, alternatives and weights, as @@ does', async () => {
    const index = await buildTenantIndex(db, GEN);
    for (const text of [
      'x <-> (x <-> brass)',
      '(x <2> x) <-> brass',
      'x <3> brass',
      'lamp <-> lamp:*',
      '(brass | glass) <-> lamp',
      '(made <-> of) <-> (brass | glass)',
      'lamp:A & !brass:C',
      'brass:B',
      '!lamp <-> lamp',
    ]) {
      const tsq = sql`to_tsquery('simple', ${text})`;
      const rows = await rowsOf<{ id: string }>(
        db,
        sql`SELECT ${p.productId} AS id FROM ${p} WHERE ${p.tenantId} = ${GEN} AND ${p.searchVector} @@ ${tsq} ORDER BY 1`,
      );
      let got: string[];
      try {
        const match = index.match(await tsQueryOf(db, tsq));
        got = index.ids.filter((_, d) => ((match[d >>> 5] as number) >>> (d & 31)) & 1);
      } catch (err) {
        // A negation inside a phrase: websearch_to_tsquery never writes one; the index refuses it.
        expect(text).toContain('!lamp <->');
        expect(String(err)).toContain('negation inside a phrase');
        continue;
      }
      expect(got, text).toEqual(rows.map((r) => r.id));
    }
  });

  it('lists a category with the same pages and facets as the search path', async () => {
    const list = await service.list(ctxOf(GEN), {
      productCategoryId: 'G-LAMPS',
      sort: 'featured',
      featured: 'true',
      page: 1,
      pageSize: 24,
    });
    const [n] = await rowsOf<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM ${p} JOIN ${pc} ON ${pc.tenantId} = ${p.tenantId} AND ${pc.productId} = ${p.productId}
          WHERE ${p.tenantId} = ${GEN} AND ${p.isFeatured} AND ${pc.productCategoryId} = 'G-LAMPS'`,
    );
    expect(list.total).toBe(n?.n);
    expect(list.facets.categories.find((c) => c.value === 'G-LAMPS')?.count).toBe(n?.n);
  });
});

describe('tenants', () => {
  it("never answers with another tenant's products, with both indexes loaded", async () => {
    const own = async (tenantId: string) =>
      new Set(
        (
          await rowsOf<{ id: string }>(db, sql`SELECT ${p.productId} AS id FROM ${p} WHERE ${p.tenantId} = ${tenantId}`)
        ).map((r) => r.id),
      );
    const ids = { lighting: await own('lighting'), garden: await own('garden'), [GEN]: await own(GEN) };
    for (const text of ['a', 'lamp', 'brass', 'garden', 'Kinsley']) {
      for (const tenantId of ['lighting', 'garden', GEN] as const) {
        const r = await search(tenantId, { searchText: text, sort: 'relevance', pageSize: 48 });
        for (const x of r.products) expect(ids[tenantId].has(x.productId), `${tenantId} ${text}`).toBe(true);
      }
    }
    expect((await search('garden', { searchText: 'Kinsley', sort: 'relevance' })).total).toBe(0);
    const loaded = (await service.searchIndexStats()).map((s) => s.tenantId);
    expect(loaded).toEqual(expect.arrayContaining(['lighting', 'garden', GEN]));
  });

  it('keeps the indexes of all tenants under the memory budget, least recently used out first', async () => {
    const small = createProductsService(db, { searchIndex: { budgetBytes: 1 } });
    await small.search(ctxOf('lighting'), { searchText: 'lamp', sort: 'relevance', page: 1, pageSize: 24 });
    await small.search(ctxOf('garden'), { searchText: 'rake', sort: 'relevance', page: 1, pageSize: 24 });
    expect((await small.searchIndexStats()).map((s) => s.tenantId)).toEqual(['garden']);
    // Evicted is only forgotten: the next search builds it again.
    const again = await small.search(ctxOf('lighting'), {
      searchText: 'lamp',
      sort: 'relevance',
      page: 1,
      pageSize: 24,
    });
    expect(again.total).toBeGreaterThan(0);
  });
});
