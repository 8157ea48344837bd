import { categoryLabel, type Facets, PRICE_BANDS, priceBandLabel, type SearchQuery } from '@app/contracts';
import { type Database, type Db, schema } from '@app/db';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TenantContext } from '../../lib/context';
import { openTestDatabase } from '../../test/harness';
import { createProductsService, type ProductsService } from './products.service';
import { buildTenantIndex, compareLexemes, decodeTsQuery, pgQsort, searchTsQuery, tsQueryOf } from './search-index';
import { prefixTsQuery, queryWords } from './search-text';

const p = schema.products;
const pc = schema.productCategories;

/** A generated store with many equal names, brands and words: ties and prefixes everywhere. */
const GEN = 'gen';
const WORDS = ['Arden', 'Marlow', 'Brass', 'Walnut', 'Glass', 'Lamp', 'Lamps', 'Lampshade', 'Pendant', 'Sconce'];
const BRANDS = ['Halden & Co.', 'Lumen Works', 'Nordlys', 'Atelier Nine', null];
async function fillGenerated(db: Db, count: number, GEN = 'gen') {
  await db.insert(schema.tenants).values({ tenantId: GEN, name: 'Generated' });
  await db.insert(schema.categories).values([
    { tenantId: GEN, productCategoryId: 'G-LAMPS', categoryName: 'Lamps' },
    { tenantId: GEN, productCategoryId: 'G-BRASS', categoryName: 'Brass' },
    { tenantId: GEN, productCategoryId: 'G-GLASS', categoryName: null, description: 'Glass things' },
  ]);
  const w = (i: number) => WORDS[i % WORDS.length] as string;
  const rows = [];
  const memberships = [];
  for (let i = 0; i < count; i++) {
    // Names repeat (ties on the tiers and the rank), some equal the query words exactly.
    const name = i % 17 === 0 ? w(i) : `${w(i)} ${w(Math.floor(i / 3))} ${w(Math.floor(i / 7))}`;
    rows.push({
      tenantId: GEN,
      productId: `G-${String(i).padStart(4, '0')}`,
      sku: `G-${i}`,
      productName: name,
      slug: `g-${i}`,
      brandName: BRANDS[(i * 7) % BRANDS.length] ?? null,
      shortDescription: i % 3 ? `A ${w(i + 1).toLowerCase()} for every room.` : null,
      description: `Made of ${w(i * 5).toLowerCase()} by hand. ${i % 4 ? 'Lamp lamp lamp.' : ''} Far words: ${'x '.repeat(i % 120)} brass.`,
      listPrice: 1000 + ((i * 7919) % 60000),
      salePrice: i % 5 === 0 ? 900 + ((i * 7919) % 50000) : null,
      stockQuantity: i % 11 === 0 ? 0 : (i * 31) % 20,
      isFeatured: i % 9 === 0,
      introductionDate: new Date(Date.UTC(2026, 0, 1 + (i % 40))),
      categoryNames: i % 2 ? 'Lamps Brass' : 'Glass',
    });
    if (i % 2)
      memberships.push({ tenantId: GEN, productId: `G-${String(i).padStart(4, '0')}`, productCategoryId: 'G-LAMPS' });
    if (i % 2)
      memberships.push({ tenantId: GEN, productId: `G-${String(i).padStart(4, '0')}`, productCategoryId: 'G-BRASS' });
    else
      memberships.push({ tenantId: GEN, productId: `G-${String(i).padStart(4, '0')}`, productCategoryId: 'G-GLASS' });
  }
  await db.insert(p).values(rows);
  await db.insert(pc).values(memberships);
}

const rowsOf = async <T>(db: Db, q: SQL) => ((await db.execute(q)) as unknown as { rows: T[] }).rows;

type Query = Omit<SearchQuery, 'page' | 'pageSize'> & { page?: number; pageSize?: number };

/**
 * The SQL search this index replaced, written plainly: the oracle of these tests. Every filter in
 * the WHERE clause, each facet with every filter but its own, order by the name tiers + ts_rank.
 */
async function oracle(db: Db, tenantId: string, q: Query) {
  const tsq = searchTsQuery(q.searchText);
  const lower = q.searchText.toLowerCase();
  const conds = (without?: string): SQL => {
    // Shoppers see ACTIVE products only (drafts and archived ones are not searched).
    const parts: SQL[] = [
      sql`${p.tenantId} = ${tenantId}`,
      sql`${p.status} = 'ACTIVE'`,
      sql`${p.searchVector} @@ ${tsq}`,
    ];
    if (q.productCategoryId && without !== 'category')
      parts.push(
        sql`EXISTS (SELECT 1 FROM ${pc} WHERE ${pc.tenantId} = ${tenantId} AND ${pc.productId} = ${p.productId} AND ${pc.productCategoryId} = ${q.productCategoryId})`,
      );
    if (q.brand?.length && without !== 'brand')
      parts.push(
        sql`${p.brandName} IN (${sql.join(
          q.brand.map((b) => sql`${b}`),
          sql`, `,
        )})`,
      );
    if (q.priceMin !== undefined && without !== 'price') parts.push(sql`${p.effectivePrice} >= ${q.priceMin}`);
    if (q.priceMax !== undefined && without !== 'price') parts.push(sql`${p.effectivePrice} <= ${q.priceMax}`);
    if (q.inStock === 'true' && without !== 'stock') parts.push(sql`${p.stockQuantity} > 0`);
    return sql.join(parts, sql` AND `);
  };
  const order = {
    relevance: sql`(CASE WHEN lower(left(${p.productName}, char_length(${lower}))) <> ${lower} THEN 0 WHEN lower(${p.productName}) = ${lower} THEN 100 ELSE 10 END + ts_rank(${p.searchVector}, ${tsq})) DESC, ${p.isFeatured} DESC, ${p.productId}`,
    featured: sql`${p.isFeatured} DESC, ${p.introductionDate} DESC, ${p.productId}`,
    price_asc: sql`${p.effectivePrice}, ${p.productId}`,
    price_desc: sql`${p.effectivePrice} DESC, ${p.productId}`,
    newest: sql`${p.introductionDate} DESC, ${p.productId}`,
    name: sql`${p.productName}, ${p.productId}`,
  }[q.sort];
  const pageSize = q.pageSize ?? 24;
  const ids = await rowsOf<{ id: string }>(
    db,
    sql`SELECT ${p.productId} AS id FROM ${p} WHERE ${conds()} ORDER BY ${order} LIMIT ${pageSize} OFFSET ${((q.page ?? 1) - 1) * pageSize}`,
  );
  const [count] = await rowsOf<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${p} WHERE ${conds()}`);
  const [stocked] = await rowsOf<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM ${p} WHERE ${conds('stock')} AND ${p.stockQuantity} > 0`,
  );
  const brands = await rowsOf<{ v: string; n: number }>(
    db,
    sql`SELECT ${p.brandName} AS v, count(*)::int AS n FROM ${p} WHERE ${conds('brand')} AND ${p.brandName} IS NOT NULL GROUP BY 1`,
  );
  const bands = await rowsOf<{ v: number; n: number }>(
    db,
    sql`SELECT CASE ${sql.join(
      PRICE_BANDS.map(([min, max], i) =>
        max === null
          ? sql`WHEN ${p.effectivePrice} >= ${min} THEN ${i}::int`
          : sql`WHEN ${p.effectivePrice} >= ${min} AND ${p.effectivePrice} < ${max} THEN ${i}::int`,
      ),
      sql` `,
    )} END AS v, count(*)::int AS n FROM ${p} WHERE ${conds('price')} GROUP BY 1`,
  );
  const cats = await rowsOf<{ v: string; n: number; name: string | null; description: string | null }>(
    db,
    sql`SELECT ${pc.productCategoryId} AS v, count(*)::int AS n, min(c.category_name) AS name, min(c.description) AS description
        FROM ${pc} JOIN ${p} ON ${p.tenantId} = ${pc.tenantId} AND ${p.productId} = ${pc.productId}
        LEFT JOIN categories c ON c.tenant_id = ${pc.tenantId} AND c.product_category_id = ${pc.productCategoryId}
        WHERE ${conds('category')} GROUP BY 1`,
  );
  const facets: Facets = {
    categories: cats
      .map((c) => ({
        value: c.v,
        label: categoryLabel({ productCategoryId: c.v, categoryName: c.name, description: c.description }),
        count: c.n,
      }))
      .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label)),
    brands: brands.map((b) => ({ value: b.v, label: b.v, count: b.n })).sort((a, b) => a.label.localeCompare(b.label)),
    prices: PRICE_BANDS.map(([min, max], i) => ({
      min,
      max,
      label: priceBandLabel(min, max),
      count: bands.find((b) => Number(b.v) === i)?.n ?? 0,
    })).filter((b) => b.count > 0),
    inStock: stocked?.n ?? 0,
  };
  return { ids: ids.map((r) => r.id), total: count?.n ?? 0, facets };
}

const ctxOf = (tenantId: string): TenantContext => ({
  tenantId,
  productStoreId: 'none',
  hostName: `${tenantId}.test`,
  viaDevAlias: false,
  origin: `http://${tenantId}.test`,
});

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

function popcount(x: number) {
  let n = 0;
  for (let v = x >>> 0; v; v &= v - 1) n++;
  return n;
}

describe('freshness', () => {
  it('sees a renamed product, a new price, stock gone and a category change in the next search', async () => {
    const ctx = ctxOf(GEN);
    const id = 'G-0003';
    await search(GEN, { searchText: 'lamp', sort: 'relevance' }); // the index is loaded
    await db
      .update(p)
      .set({ productName: 'Zyzzyva Lantern' })
      .where(and(eq(p.tenantId, GEN), eq(p.productId, id)));
    service.catalogChanged(GEN);
    const renamed = await search(GEN, { searchText: 'zyzzyva', sort: 'relevance' });
    expect(renamed.products.map((x) => x.productId)).toEqual([id]);

    await db
      .update(p)
      .set({ listPrice: 123_456, salePrice: null })
      .where(and(eq(p.tenantId, GEN), eq(p.productId, id)));
    service.catalogChanged(GEN);
    const priced = await search(GEN, { searchText: 'zyzzyva', sort: 'relevance', priceMin: 100_000 });
    expect(priced.total).toBe(1);
    expect(priced.facets.prices).toEqual([expect.objectContaining({ min: 50000, count: 1 })]);

    expect((await search(GEN, { searchText: 'zyzzyva', sort: 'relevance', inStock: 'true' })).total).toBe(1);
    await db
      .update(p)
      .set({ stockQuantity: 0 })
      .where(and(eq(p.tenantId, GEN), eq(p.productId, id)));
    service.stockChanged(GEN, [id]);
    const gone = await search(GEN, { searchText: 'zyzzyva', sort: 'relevance', inStock: 'true' });
    expect(gone.total).toBe(0);
    expect(gone.facets.inStock).toBe(0);

    await db.delete(pc).where(and(eq(pc.tenantId, GEN), eq(pc.productId, id)));
    await db.insert(pc).values({ tenantId: GEN, productId: id, productCategoryId: 'G-GLASS' });
    service.catalogChanged(GEN);
    const moved = await search(GEN, { searchText: 'zyzzyva', sort: 'relevance' });
    expect(moved.facets.categories.map((c) => c.value)).toEqual(['G-GLASS']);
    expect((await search(GEN, { searchText: 'zyzzyva', sort: 'relevance', productCategoryId: 'G-LAMPS' })).total).toBe(
      0,
    );
    expect(await service.list(ctx, { productCategoryId: 'G-GLASS', sort: 'name', page: 1, pageSize: 48 })).toEqual(
      expect.objectContaining({ total: 751 }),
    );
  });

  it('rebuilds after its time to live without being told (writes of another process)', async () => {
    const other = createProductsService(db, { searchIndex: { ttlMs: 1 } });
    const ctx = ctxOf(GEN);
    const q = { searchText: 'quokka', sort: 'relevance', page: 1, pageSize: 24 } as SearchQuery;
    expect((await other.search(ctx, q)).total).toBe(0);
    await db
      .update(p)
      .set({ productName: 'Quokka Lamp' })
      .where(and(eq(p.tenantId, GEN), eq(p.productId, 'G-0004')));
    let total = 0;
    for (let i = 0; i < 50 && total === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      total = (await other.search(ctx, q)).total;
    }
    expect(total).toBe(1);
  });

  it('tells checkout stock changes apart from catalog changes: stock alone needs no rebuild', async () => {
    const id = 'G-0005';
    await search(GEN, { searchText: 'lamp', sort: 'relevance' });
    const before = (await service.searchIndexStats()).find((s) => s.tenantId === GEN);
    await db
      .update(p)
      .set({ stockQuantity: 0 })
      .where(and(eq(p.tenantId, GEN), eq(p.productId, id)));
    service.stockChanged(GEN, [id]);
    const all = await service.list(ctxOf(GEN), { sort: 'featured', inStock: 'true', page: 1, pageSize: 48 });
    const [n] = await rowsOf<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM ${p} WHERE ${p.tenantId} = ${GEN} AND ${p.stockQuantity} > 0`,
    );
    expect(all.total).toBe(n?.n);
    const after = (await service.searchIndexStats()).find((s) => s.tenantId === GEN);
    expect(after?.buildMs).toBe(before?.buildMs); // the same index, patched
  });

  it('answers a page it has answered before without reading the database: the parsed text and the cards are kept', async () => {
    const calls: string[] = [];
    const counted = new Proxy(db, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (prop === 'select' || prop === 'execute') calls.push(String(prop));
          return value.apply(target, args);
        };
      },
    }) as Db;
    const fresh = createProductsService(counted);
    const ctx = ctxOf(GEN);
    const q = { searchText: 'walnut glass', sort: 'relevance', page: 1, pageSize: 24 } as SearchQuery;
    const first = await fresh.search(ctx, q);
    expect(first.total).toBeGreaterThan(24);
    calls.length = 0;
    // The same text with a filter that keeps the same first page (every price is under the cap).
    const again = await fresh.search(ctx, { ...q, priceMax: 10_000_000 });
    expect(calls).toEqual([]);
    expect(again.products).toEqual(first.products);
    // Another page of the same text: only the new page's cards are read (rows and ratings).
    await fresh.search(ctx, { ...q, page: 2 });
    expect(calls).toEqual(['select', 'select']);
  });

  it.each(['lam', 'brass l', 'walnut gl', 'arden'])(
    'suggests for %j what the prefix query matches, names starting with the text first',
    async (text) => {
      const suggested = await service.autocomplete(ctxOf(GEN), text);
      const words = text.split(' ');
      const prefix = words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' & ');
      const matches = await rowsOf<{ id: string; name: string }>(
        db,
        sql`SELECT ${p.productId} AS id, ${p.productName} AS name FROM ${p}
          WHERE ${p.tenantId} = ${GEN} AND ${p.searchVector} @@ to_tsquery('simple', ${prefix})`,
      );
      const names = new Map(matches.map((m) => [m.id, m.name]));
      expect(suggested.products.length).toBe(Math.min(6, matches.length));
      for (const s of suggested.products) expect(names.get(s.productId)).toBe(s.productName);
      // As many names starting with the text as there are, and those first.
      const starts = (name: string) => name.toLowerCase().startsWith(text);
      const leading = suggested.products.findIndex((s) => !starts(s.productName));
      const startingInAll = matches.filter((m) => starts(m.name)).length;
      expect(leading === -1 ? suggested.products.length : leading).toBe(Math.min(6, startingInAll));
    },
  );

  it('suggests categories by name or description from memory, and follows a category change at once', async () => {
    const fresh = createProductsService(db);
    const ctx = ctxOf(GEN);
    const ids = async (text: string) =>
      (await fresh.autocomplete(ctx, text)).categories.map((c) => c.productCategoryId);
    expect(await ids('glass th')).toEqual(['G-GLASS']); // its description
    expect(await ids('lamp')).toEqual(['G-LAMPS']);
    const c = schema.categories;
    const rename = (name: string | null) =>
      db
        .update(c)
        .set({ categoryName: name })
        .where(and(eq(c.tenantId, GEN), eq(c.productCategoryId, 'G-BRASS')));
    try {
      await rename('Brass lamps');
      // Kept in memory: unseen until the catalog tools' event, which names the category.
      expect(await ids('lamp')).toEqual(['G-LAMPS']);
      fresh.catalogChanged(GEN, { categoryIds: ['G-BRASS'] });
      expect(await ids('lamp')).toEqual(['G-BRASS', 'G-LAMPS']);
    } finally {
      await rename('Brass');
    }
  });

  it("shows a product's new stock and rating on its card at once: stock and review changes drop the card", async () => {
    const ctx = ctxOf(GEN);
    const id = 'G-0008';
    const [row] = await db
      .select()
      .from(p)
      .where(and(eq(p.tenantId, GEN), eq(p.productId, id)));
    const card = async () => {
      const found = await service.search(ctx, {
        searchText: row?.productName ?? '',
        sort: 'relevance',
        page: 1,
        pageSize: 48,
      } as SearchQuery);
      return found.products.find((x) => x.productId === id);
    };
    await db
      .update(p)
      .set({ stockQuantity: 40 })
      .where(and(eq(p.tenantId, GEN), eq(p.productId, id)));
    service.stockChanged(GEN, [id]);
    expect(await card()).toMatchObject({ inStock: true, lowStock: null, rating: { average: null, count: 0 } });
    await db
      .update(p)
      .set({ stockQuantity: 3 })
      .where(and(eq(p.tenantId, GEN), eq(p.productId, id)));
    service.stockChanged(GEN, [id]);
    expect(await card()).toMatchObject({ inStock: true, lowStock: 3 });
    await db.insert(schema.productReviews).values([
      { tenantId: GEN, reviewId: 'RV-G8-1', productId: id, authorName: 'Ann B.', rating: 5 },
      { tenantId: GEN, reviewId: 'RV-G8-2', productId: id, authorName: 'Bo C.', rating: 4 },
    ]);
    service.reviewsChanged(GEN, id);
    expect(await card()).toMatchObject({ rating: { average: 4.5, count: 2 } });
  });

  it('keeps a stock change made while a background rebuild was reading', async () => {
    // A database whose build read can be held after it has read (old stock in hand).
    let hold: Promise<void> | null = null;
    let release = () => {};
    const gated = new Proxy(db, {
      get(target, prop) {
        if (prop === 'execute') {
          return async (q: SQL) => {
            const result = await target.execute(q);
            const text = (q as unknown as { queryChunks: { value?: unknown }[] }).queryChunks
              .map((c) => String(c?.value ?? ''))
              .join(' ');
            if (hold && text.includes('dense_rank')) await hold;
            return result;
          };
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as Db;
    const racing = createProductsService(gated, { searchIndex: { ttlMs: 1 } });
    const ctx = ctxOf(GEN);
    const id = 'G-0006';
    await db
      .update(p)
      .set({ stockQuantity: 7 })
      .where(and(eq(p.tenantId, GEN), eq(p.productId, id)));
    const q = { searchText: 'lamp', sort: 'relevance', inStock: 'true', page: 1, pageSize: 48 } as SearchQuery;
    const inStock = async () => (await racing.search(ctx, q)).facets.inStock;
    const before = await inStock();
    const first = (await racing.searchIndexStats()).find((s) => s.tenantId === GEN)?.buildMs;

    hold = new Promise((resolve) => {
      release = resolve;
    });
    await new Promise((r) => setTimeout(r, 5)); // past the TTL: the next search starts a rebuild
    await inStock(); // answered by the old index; the rebuild reads stock 7 and is held
    await new Promise((r) => setTimeout(r, 50));
    await db
      .update(p)
      .set({ stockQuantity: 0 })
      .where(and(eq(p.tenantId, GEN), eq(p.productId, id)));
    racing.stockChanged(GEN, [id]);
    expect(await inStock()).toBe(before - 1); // the old index, patched
    hold = null;
    release();
    for (let i = 0; i < 100; i++) {
      const now = (await racing.searchIndexStats()).find((s) => s.tenantId === GEN)?.buildMs;
      if (now !== first) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect((await racing.searchIndexStats()).find((s) => s.tenantId === GEN)?.buildMs).not.toBe(first);
    expect(await inStock()).toBe(before - 1); // the new index, read before the change, patched again
  });

  it('keeps answering from the old index when a refresh fails, and tries again only after another TTL', async () => {
    let failing = false;
    let builds = 0;
    const flaky = new Proxy(db, {
      get(target, prop) {
        if (prop === 'execute') {
          return async (q: SQL) => {
            const text = (q as unknown as { queryChunks: { value?: unknown }[] }).queryChunks
              .map((c) => String(c?.value ?? ''))
              .join(' ');
            if (text.includes('dense_rank')) {
              builds++;
              if (failing) throw new Error('database gone');
            }
            return target.execute(q);
          };
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as Db;
    const svc = createProductsService(flaky, { searchIndex: { ttlMs: 200 } });
    const q = { searchText: 'lamp', sort: 'relevance', page: 1, pageSize: 24 } as SearchQuery;
    const total = (await svc.search(ctxOf(GEN), q)).total;
    expect(builds).toBe(1);
    failing = true;
    await new Promise((r) => setTimeout(r, 250));
    for (let i = 0; i < 5; i++) expect((await svc.search(ctxOf(GEN), q)).total).toBe(total);
    await new Promise((r) => setTimeout(r, 20));
    expect(builds).toBe(2); // one failed refresh, not one per search
    failing = false;
    await new Promise((r) => setTimeout(r, 250));
    await svc.search(ctxOf(GEN), q);
    expect(builds).toBe(3);
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
