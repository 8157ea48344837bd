import {
  type AdminProductQuery,
  adminProductDefaultDir,
  type ProductListFilter,
  type ProductListSort,
} from '@app/contracts';
import type { Db } from '@app/db';
import { type SQL, sql } from 'drizzle-orm';
import { decodeKeysetCursor, encodeKeysetCursor, type KeyType } from '../../../lib/keyset-cursor';

/**
 * The SQL of the product list, shared by the page, the export and the bulk actions' "whole filtered
 * list", so the three always select the same products (decision 036).
 */

/** Each sort's column and the type its cursor value is cast back to. */
const SORTS: Record<ProductListSort, { col: SQL; type: KeyType }> = {
  updated: { col: sql`p.updated_at`, type: 'timestamptz' },
  name: { col: sql`p.product_name`, type: 'text' },
  // A generated column: the sale price when there is one, else the list price (products/database-rules.test.ts).
  price: { col: sql`p.effective_price`, type: 'integer' },
  stock: { col: sql`p.stock_quantity`, type: 'integer' },
  created: { col: sql`p.introduction_date`, type: 'timestamptz' },
};

/**
 * Words of a search as a prefix query: "bras lam" -> 'bras':* & 'lam':* (letters and digits only).
 * A one-letter word is left out beside longer ones: as a prefix it matches almost every product
 * ("S-4242" would read the posting lists of every word that starts with an s), and the longer
 * words find what the owner means. Alone it stays: the owner typed one letter.
 */
export function prefixTsQuery(q: string): string | null {
  const all = q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const longer = all.filter((w) => w.length > 1);
  const words = longer.length ? longer : all;
  if (!words.length) return null;
  return words
    .slice(0, 8)
    .map((w) => `'${w}':*`)
    .join(' & ');
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Up to this many products found by a variant's SKU are named in the list's query (an IN list the
 * planner reads through the primary key, so a search stays a BitmapOr of indexes); above, it reads
 * them itself.
 */
export const SKU_HITS_LIMIT = 5000;

/** A filter's WHERE in two parts: the store and the filters (`scope`), and the search's (`search`). */
export interface FilterParts {
  scope: SQL;
  search: SQL | null;
  /** Whether every arm of the search has an index of its own, so the planner can OR them (a BitmapOr). */
  indexed: boolean;
}

/**
 * The WHERE of a filter, for the table alias `p` (products), its search read first: see `filterParts`.
 * The products whose live variant's SKU, whole or its start, is the search are one range read of
 * product_variants_sku_prefix_idx, made before the list's query and named in it as a list the planner
 * can size. As a subquery the variants' arm made the planner scan them all for every search (a hashed
 * subplan, about 120 ms at 500,000 variants), and with an array computed in the query it walked
 * every product testing each against it (5 s for a SKU prefix matching thousands): decision 112.
 */
export async function filterPartsFor(
  db: Db,
  tenantId: string,
  f: ProductListFilter,
  lowStockThreshold: number,
): Promise<FilterParts> {
  const q = f.q?.trim();
  if (!q) return filterParts(tenantId, f, lowStockThreshold, []);
  const found = (await db.execute(sql`
    SELECT DISTINCT v.product_id FROM product_variants v
     WHERE v.tenant_id = ${tenantId} AND v.removed_at IS NULL AND lower(v.sku) LIKE ${`${likeEscape(q.toLowerCase())}%`}
     LIMIT ${SKU_HITS_LIMIT + 1}`)) as unknown as { rows: { product_id: string }[] };
  const ids = found.rows.map((r) => r.product_id);
  return filterParts(tenantId, f, lowStockThreshold, ids.length > SKU_HITS_LIMIT ? null : ids);
}

/** `filterPartsFor` as one WHERE: the export and the bulk actions' "whole filtered list". */
export async function filterWhereFor(db: Db, tenantId: string, f: ProductListFilter, lowStockThreshold: number) {
  return whereOf(await filterPartsFor(db, tenantId, f, lowStockThreshold));
}

export const whereOf = (parts: FilterParts): SQL =>
  parts.search ? sql`${parts.scope} AND ${parts.search}` : parts.scope;

/**
 * The WHERE of a filter, for the table alias `p` (products). Search: full-text words with prefixes
 * (name, brand, categories, descriptions: the GIN search vector), part of a name (the trigram index,
 * from three characters), or a live variant's SKU, whole or its start (a product's own SKU is its
 * first variant's): the products `skuHits` names (read by `filterPartsFor`), or, when it is null (too
 * many to name), a subquery of the variants. DRAFT and ARCHIVED products included.
 */
export function filterParts(
  tenantId: string,
  f: ProductListFilter,
  lowStockThreshold: number,
  skuHits: string[] | null,
): FilterParts {
  const parts: SQL[] = [sql`p.tenant_id = ${tenantId}`];
  if (f.status) parts.push(sql`p.status = ${f.status}`);
  if (f.brand) parts.push(sql`p.brand_name = ${f.brand}`);
  if (f.category) {
    parts.push(sql`EXISTS (SELECT 1 FROM product_categories pc
      WHERE pc.tenant_id = p.tenant_id AND pc.product_category_id = ${f.category} AND pc.product_id = p.product_id)`);
  }
  if (f.stock === 'out') parts.push(sql`p.stock_quantity = 0`);
  else if (f.stock === 'in') parts.push(sql`p.stock_quantity > 0`);
  else if (f.stock === 'low') parts.push(sql`p.stock_quantity > 0 AND p.stock_quantity <= ${lowStockThreshold}`);
  const scope = sql.join(parts, sql` AND `);
  const q = f.q?.trim();
  if (!q) return { scope, search: null, indexed: true };
  // No arm for the product's own SKU: it is always its first live variant's (variant-rollup.ts), which
  // the variants' arm finds. An arm without an index would keep the planner from a BitmapOr of the
  // others (decision 112).
  const arms: SQL[] = [];
  if (skuHits === null) {
    arms.push(sql`EXISTS (SELECT 1 FROM product_variants v WHERE v.tenant_id = p.tenant_id AND v.product_id = p.product_id
      AND v.removed_at IS NULL AND lower(v.sku) LIKE ${`${likeEscape(q.toLowerCase())}%`})`);
  } else if (skuHits.length) {
    arms.push(
      sql`p.product_id IN (${sql.join(
        skuHits.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  }
  const ts = prefixTsQuery(q);
  if (ts) arms.push(sql`p.search_vector @@ to_tsquery('simple', ${ts})`);
  if (q.length >= 3) arms.push(sql`lower(p.product_name) LIKE ${`%${likeEscape(q.toLowerCase())}%`}`);
  return {
    scope,
    search: arms.length ? sql`(${sql.join(arms, sql` OR `)})` : sql`false`,
    indexed: skuHits !== null,
  };
}

export interface Cursor {
  sort: ProductListSort;
  dir: 'asc' | 'desc';
  key: string;
  id: string;
}

export function encodeCursor(c: Cursor): string {
  return encodeKeysetCursor([c.sort, c.dir], c.key, c.id);
}

export function decodeCursor(text: string, sort: ProductListSort, dir: 'asc' | 'desc'): Cursor {
  const c = decodeKeysetCursor(text, [sort, dir], SORTS[sort].type);
  return { sort, dir, key: c.key, id: c.id };
}

/** ORDER BY, the keyset condition after a cursor, and the sort key as text (for the next cursor). */
export function keyset(query: Pick<AdminProductQuery, 'sort' | 'dir' | 'cursor'>): {
  dir: 'asc' | 'desc';
  orderBy: SQL;
  after: SQL | null;
  keyText: SQL;
} {
  const sort = query.sort;
  const dir = query.dir ?? adminProductDefaultDir(sort);
  const { col, type } = SORTS[sort];
  const d = dir === 'asc' ? sql`ASC` : sql`DESC`;
  // Ties on the sort value are broken by product_id in the same direction: no row twice, none skipped.
  const orderBy = sql`${col} ${d}, p.product_id ${d}`;
  let after: SQL | null = null;
  if (query.cursor) {
    const c = decodeCursor(query.cursor, sort, dir);
    after =
      dir === 'asc'
        ? sql`(${col}, p.product_id) > (${c.key}::${sql.raw(type)}, ${c.id})`
        : sql`(${col}, p.product_id) < (${c.key}::${sql.raw(type)}, ${c.id})`;
  }
  return { dir, orderBy, after, keyText: sql`${col}::text` };
}
