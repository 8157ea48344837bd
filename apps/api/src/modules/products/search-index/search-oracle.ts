/**
 * What the search index tests share: a generated store full of ties and prefixes, and the SQL search
 * the index replaced, written plainly, as their oracle (an answer of the index must equal it).
 */
import { categoryLabel, type Facets, PRICE_BANDS, priceBandLabel, type SearchQuery } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { type SQL, sql } from 'drizzle-orm';
import type { TenantContext } from '../../../lib/context';
import { optionFacets } from './answer';
import { shownStock } from './read';
import { searchTsQuery } from './tsquery';

export const p = schema.products;
export const pc = schema.productCategories;

/** A generated store with many equal names, brands and words: ties and prefixes everywhere. */
export const GEN = 'gen';
const WORDS = ['Arden', 'Marlow', 'Brass', 'Walnut', 'Glass', 'Lamp', 'Lamps', 'Lampshade', 'Pendant', 'Sconce'];
const BRANDS = ['Halden & Co.', 'Lumen Works', 'Nordlys', 'Atelier Nine', null];
export async function fillGenerated(db: Db, count: number, GEN = 'gen') {
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

export const rowsOf = async <T>(db: Db, q: SQL) => ((await db.execute(q)) as unknown as { rows: T[] }).rows;

export type Query = Omit<SearchQuery, 'page' | 'pageSize'> & { page?: number; pageSize?: number };

/**
 * The SQL search this index replaced, written plainly: the oracle of these tests. Every filter in
 * the WHERE clause, each facet with every filter but its own, order by the name tiers + ts_rank.
 */
export async function oracle(db: Db, tenantId: string, q: Query) {
  const tsq = searchTsQuery(q.searchText);
  const lower = q.searchText.toLowerCase();
  // Option values of enabled live variants (alias v): one row per variant and value, folded by lower().
  const valuesOf = (
    v: SQL,
  ) => sql`JOIN product_option_values x ON x.tenant_id = ${v}.tenant_id AND x.product_id = ${v}.product_id
                   AND x.value_id IN (${v}.option1_value_id, ${v}.option2_value_id, ${v}.option3_value_id)
                 JOIN product_options o ON o.tenant_id = x.tenant_id AND o.product_id = x.product_id AND o.option_id = x.option_id`;
  const chosen = new Map<string, string[]>();
  for (const c of q.option ?? [])
    chosen.set(c.name.toLowerCase(), [...(chosen.get(c.name.toLowerCase()) ?? []), c.value]);
  /** Variant `v` (an alias of product_variants) has every chosen option but `except`'s (a folded name). */
  const hasChosen = (v: SQL, except?: SQL): SQL =>
    sql.join(
      [
        sql`true`,
        ...[...chosen].map(
          ([name, values]) =>
            sql`(${except ? sql`${except} = lower(${name}) OR ` : sql``}EXISTS (SELECT 1 FROM product_option_values ux
                 JOIN product_options uo ON uo.tenant_id = ux.tenant_id AND uo.product_id = ux.product_id AND uo.option_id = ux.option_id
                 WHERE ux.tenant_id = ${v}.tenant_id AND ux.product_id = ${v}.product_id
                   AND ux.value_id IN (${v}.option1_value_id, ${v}.option2_value_id, ${v}.option3_value_id)
                   AND lower(uo.name) = lower(${name}) AND lower(ux.label) IN (${sql.join(
                     values.map((x) => sql`lower(${x})`),
                     sql`, `,
                   )})))`,
        ),
      ],
      sql` AND `,
    );
  /** A variant of the product with every chosen option (in stock, when `stocked`). */
  const variantWithChosen = (stocked: boolean) =>
    sql`${p.productId} IN (SELECT w.product_id FROM product_variants w WHERE w.tenant_id = ${tenantId}
        AND w.enabled AND w.removed_at IS NULL AND w.option1_value_id IS NOT NULL ${stocked ? sql`AND w.stock_quantity > 0` : sql``}
        AND ${hasChosen(sql`w`)})`;
  const stockedNow = () => (chosen.size ? variantWithChosen(true) : sql`${shownStock(sql``)} > 0`);
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
    if (chosen.size && without !== 'option') parts.push(variantWithChosen(false));
    if (q.inStock === 'true' && without !== 'stock' && without !== 'option') parts.push(stockedNow());
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
    sql`SELECT count(*)::int AS n FROM ${p} WHERE ${conds('stock')} AND ${stockedNow()}`,
  );
  // Each value: products passing every other filter with a variant that has it and every other
  // chosen option (in stock, with the in-stock filter). Labels: the smallest spelling and position.
  const valueCounts = await rowsOf<{ ok: string; vk: string; n: number }>(
    db,
    sql`SELECT lower(o.name) AS ok, lower(x.label) AS vk, count(DISTINCT v.product_id)::int AS n
        FROM product_variants v JOIN ${p} ON ${p.tenantId} = v.tenant_id AND ${p.productId} = v.product_id ${valuesOf(sql`v`)}
        WHERE v.tenant_id = ${tenantId} AND v.enabled AND v.removed_at IS NULL AND ${conds('option')}
          ${q.inStock === 'true' ? sql`AND v.stock_quantity > 0` : sql``} AND ${hasChosen(sql`v`, sql`lower(o.name)`)}
        GROUP BY 1, 2`,
  );
  const shown = await rowsOf<{ ok: string; vk: string; oname: string; opos: number; label: string; vpos: number }>(
    db,
    sql`SELECT lower(o.name) AS ok, lower(x.label) AS vk, min(o.name COLLATE "C") AS oname, min(o.position)::int AS opos,
               min(x.label COLLATE "C") AS label, min(x.position)::int AS vpos
        FROM product_variants v JOIN ${p} ON ${p.tenantId} = v.tenant_id AND ${p.productId} = v.product_id AND ${p.status} = 'ACTIVE'
        ${valuesOf(sql`v`)}
        WHERE v.tenant_id = ${tenantId} AND v.enabled AND v.removed_at IS NULL
        GROUP BY 1, 2`,
  );
  const optionKeys = [...new Set(shown.map((r) => r.ok))];
  const options = optionKeys.map((key) => {
    const of = shown.filter((r) => r.ok === key);
    return {
      key,
      name: of.map((r) => r.oname).reduce((a, b) => (b < a ? b : a)),
      position: Math.min(...of.map((r) => Number(r.opos))),
    };
  });
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
    options: optionFacets(
      options,
      shown.map((r) => ({
        option: optionKeys.indexOf(r.ok),
        key: r.vk,
        label: r.label,
        position: Number(r.vpos),
        count: valueCounts.find((c) => c.ok === r.ok && c.vk === r.vk)?.n ?? 0,
      })),
    ),
  };
  return { ids: ids.map((r) => r.id), total: count?.n ?? 0, facets };
}

export const ctxOf = (tenantId: string): TenantContext => ({
  tenantId,
  productStoreId: 'none',
  hostName: `${tenantId}.test`,
  viaDevAlias: false,
  origin: `http://${tenantId}.test`,
});

export function popcount(x: number) {
  let n = 0;
  for (let v = x >>> 0; v; v &= v - 1) n++;
  return n;
}
