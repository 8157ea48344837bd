/**
 * What an index is built and patched from: one tenant's ACTIVE products (what shoppers may see)
 * with their tsvectors and sort keys as PostgreSQL computes them, their categories, and for a patch
 * where each changed product falls among the others.
 */
import { type Db, schema } from '@app/db';
import { eq, type SQL, sql } from 'drizzle-orm';
import { type PatchRow, type ProductRow, rowsOf, type VariantRow } from './rows';
import { TenantIndex } from './tenant-index';
import { parseVectors } from './vectors';

const p = schema.products;

/**
 * The stock the index filters and counts by, as the cards show it (product-summary.ts): with several
 * variants what can be sold (enabled live variants), with one the product's own count.
 */
export const shownStock = (alias: SQL) =>
  sql`(CASE WHEN ${alias}variant_count > 1 THEN ${alias}sellable_stock ELSE ${alias}stock_quantity END)`;

/** The value key (rows.ts) of a variant's option value in slot N, from the joins of variantRowsSql. */
const slot = (n: 1 | 2 | 3) => {
  const [o, x] = [sql.raw(`o${n}`), sql.raw(`x${n}`)];
  return sql`CASE WHEN ${x}.value_id IS NOT NULL THEN lower(${o}.name) || chr(1) || ${o}.name || chr(1) || ${o}.position || chr(1) || lower(${x}.label) || chr(1) || ${x}.label || chr(1) || ${x}.position END`;
};

/**
 * The enabled live variants with option values of a tenant's ACTIVE products (all, or these), in
 * product id order then the owner's order, each with its value keys: what option facets count.
 * Read once per build (no join per search); a product without options has none.
 */
export async function readVariantRows(db: Db, tenantId: string, ids?: string[]): Promise<VariantRow[]> {
  const join = (n: 1 | 2 | 3) => {
    const [o, x, col] = [sql.raw(`o${n}`), sql.raw(`x${n}`), sql.raw(`option${n}_value_id`)];
    return sql`LEFT JOIN product_option_values ${x} ON ${x}.tenant_id = v.tenant_id AND ${x}.product_id = v.product_id AND ${x}.value_id = v.${col}
               LEFT JOIN product_options ${o} ON ${o}.tenant_id = ${x}.tenant_id AND ${o}.product_id = ${x}.product_id AND ${o}.option_id = ${x}.option_id`;
  };
  const only = ids
    ? sql`AND v.product_id IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  const rows = await rowsOf<{ id: string; s: boolean; k1: string | null; k2: string | null; k3: string | null }>(
    db,
    sql`SELECT v.product_id AS id, v.stock_quantity > 0 AS s, ${slot(1)} AS k1, ${slot(2)} AS k2, ${slot(3)} AS k3
        FROM product_variants v
        JOIN ${p} c ON c.tenant_id = v.tenant_id AND c.product_id = v.product_id AND c.status = 'ACTIVE'
        ${join(1)} ${join(2)} ${join(3)}
        WHERE v.tenant_id = ${tenantId} AND v.enabled AND v.removed_at IS NULL AND v.option1_value_id IS NOT NULL ${only}
        ORDER BY v.product_id COLLATE "C", v.position, v.variant_id COLLATE "C"`,
  );
  return rows.map((r) => ({ productId: r.id, inStock: r.s, values: [r.k1, r.k2, r.k3] }));
}

/**
 * Reads a tenant's searchable products (ACTIVE: what shoppers may see) and builds its index. Each
 * product's words come from `search_vector`, a column the database generates from the name and brand
 * (weight A), the category names (B) and the descriptions (C) (products/database-rules.test.ts).
 */
export async function buildTenantIndex(db: Db, tenantId: string): Promise<TenantIndex> {
  const t0 = performance.now();
  const [rows, memberships, categories, variants] = await Promise.all([
    rowsOf<ProductRow>(
      db,
      sql`SELECT product_id AS id, product_name AS name, brand_name AS brand,
                 coalesce(effective_price, list_price) AS price, ${shownStock(sql``)} AS stock, is_featured AS featured,
                 (dense_rank() OVER (ORDER BY introduction_date))::int AS made,
                 (dense_rank() OVER (ORDER BY product_name))::int AS named,
                 search_vector::text AS v
          FROM ${p} WHERE ${p.tenantId} = ${tenantId} AND ${p.status} = 'ACTIVE' ORDER BY product_id COLLATE "C"`,
    ),
    db
      .select({ productId: schema.productCategories.productId, categoryId: schema.productCategories.productCategoryId })
      .from(schema.productCategories)
      .where(eq(schema.productCategories.tenantId, tenantId)),
    db
      .select({
        productCategoryId: schema.categories.productCategoryId,
        categoryName: schema.categories.categoryName,
        description: schema.categories.description,
      })
      .from(schema.categories)
      .where(eq(schema.categories.tenantId, tenantId)),
    readVariantRows(db, tenantId),
  ]);
  const read = performance.now() - t0;
  const buildMs = { read, total: 0 };
  const index = new TenantIndex(rows, await parseVectors(rows), memberships, categories, buildMs, variants);
  buildMs.total = performance.now() - t0;
  return index;
}

/**
 * The fresh state of these products for a patch, in one query: their rows, categories, and their
 * neighbours by name and by introduction date among the other ACTIVE products (index lookups on
 * products_active_name_idx and products_active_new_idx).
 */
export async function readPatchRows(db: Db, tenantId: string, ids: string[]): Promise<PatchRow[]> {
  const list = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  const others = sql`o.tenant_id = c.tenant_id AND o.status = 'ACTIVE' AND o.product_id NOT IN (${list})`;
  const rows = await rowsOf<{
    id: string;
    status: string;
    name: string;
    brand: string | null;
    price: number;
    stock: number;
    featured: boolean;
    v: string | null;
    name_rank: number;
    made_rank: number;
    name_lo: string | null;
    name_lo_eq: boolean | null;
    name_hi: string | null;
    made_lo: string | null;
    made_lo_eq: boolean | null;
    made_hi: string | null;
    cats: string | { id: string; name: string | null; description: string | null }[];
  }>(
    db,
    sql`SELECT c.product_id AS id, c.status, c.product_name AS name, c.brand_name AS brand,
               coalesce(c.effective_price, c.list_price) AS price, ${shownStock(sql`c.`)} AS stock, c.is_featured AS featured,
               c.search_vector::text AS v,
               (dense_rank() OVER (ORDER BY c.product_name))::int AS name_rank,
               (dense_rank() OVER (ORDER BY c.introduction_date))::int AS made_rank,
               nlo.id AS name_lo, nlo.eq AS name_lo_eq, nhi.id AS name_hi,
               mlo.id AS made_lo, mlo.eq AS made_lo_eq, mhi.id AS made_hi,
               coalesce((SELECT json_agg(json_build_object('id', pc.product_category_id, 'name', k.category_name, 'description', k.description))
                         FROM product_categories pc
                         LEFT JOIN categories k ON k.tenant_id = pc.tenant_id AND k.product_category_id = pc.product_category_id
                         WHERE pc.tenant_id = c.tenant_id AND pc.product_id = c.product_id), '[]') AS cats
        FROM ${p} c
        LEFT JOIN LATERAL (SELECT o.product_id AS id, o.product_name = c.product_name AS eq FROM ${p} o
                           WHERE ${others} AND o.product_name <= c.product_name ORDER BY o.product_name DESC LIMIT 1) nlo ON true
        LEFT JOIN LATERAL (SELECT o.product_id AS id FROM ${p} o
                           WHERE ${others} AND o.product_name > c.product_name ORDER BY o.product_name LIMIT 1) nhi ON true
        LEFT JOIN LATERAL (SELECT o.product_id AS id, o.introduction_date = c.introduction_date AS eq FROM ${p} o
                           WHERE ${others} AND o.introduction_date <= c.introduction_date ORDER BY o.introduction_date DESC LIMIT 1) mlo ON true
        LEFT JOIN LATERAL (SELECT o.product_id AS id FROM ${p} o
                           WHERE ${others} AND o.introduction_date > c.introduction_date ORDER BY o.introduction_date LIMIT 1) mhi ON true
        WHERE c.tenant_id = ${tenantId} AND c.product_id IN (${list})`,
  );
  const found = new Map(rows.map((r) => [r.id, r]));
  const variantsOf = new Map<string, VariantRow[]>();
  for (const v of await readVariantRows(db, tenantId, ids)) {
    const list = variantsOf.get(v.productId);
    if (list) list.push(v);
    else variantsOf.set(v.productId, [v]);
  }
  return ids.map((id) => {
    const r = found.get(id);
    const active = r?.status === 'ACTIVE';
    const cats = r ? (typeof r.cats === 'string' ? JSON.parse(r.cats) : r.cats) : [];
    return {
      id,
      row:
        r && active
          ? {
              id,
              name: r.name,
              brand: r.brand,
              price: Number(r.price),
              stock: Number(r.stock),
              featured: r.featured,
              v: r.v,
            }
          : null,
      categories: cats,
      variants: active ? (variantsOf.get(id) ?? []) : [],
      name: { lo: r?.name_lo ?? null, loEq: !!r?.name_lo_eq, hi: r?.name_hi ?? null, rank: r?.name_rank ?? 0 },
      made: { lo: r?.made_lo ?? null, loEq: !!r?.made_lo_eq, hi: r?.made_hi ?? null, rank: r?.made_rank ?? 0 },
    };
  });
}
