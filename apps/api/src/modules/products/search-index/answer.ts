/**
 * Answers from one tenant's index: a page of a search or a category listing with its facets, the
 * best few for autocomplete, the biggest categories. Facets are counted as the SQL they replace
 * counted them: with every filter but their own.
 */
import { type Facets, PRICE_BANDS, priceBandLabel } from '@app/contracts';
import { forEachDoc, Grow, type IndexData } from './index-data';
import { type IndexSort, order } from './order';
import type { RankPlan } from './rank';

export interface IndexFilters {
  featured?: boolean;
  categoryId?: string;
  brands?: string[];
  priceMin?: number;
  priceMax?: number;
  inStock?: boolean;
}

export interface IndexPage {
  ids: string[];
  total: number;
  facets: Facets;
}

const F_CATEGORY = 1;
const F_BRAND = 2;
const F_PRICE = 4;
const F_STOCK = 8;

/**
 * One page of ids, the total and every facet. Each facet counts the documents that pass every
 * filter but its own, so a facet's count is what choosing it will show.
 */
export function query(
  ix: IndexData,
  opts: {
    match: Uint32Array | null;
    filters: IndexFilters;
    sort: IndexSort;
    /** For relevance: the query's rank plan and its lower-cased text (the name tiers). */
    relevance?: { plan: RankPlan; text: string };
    offset: number;
    limit: number;
  },
): IndexPage {
  const { filters } = opts;
  const cat = filters.categoryId === undefined ? -2 : (ix.categoryOf.get(filters.categoryId) ?? -1);
  const brandOk = new Uint8Array(ix.brands.length);
  const brandFilter = !!filters.brands?.length;
  for (const b of filters.brands ?? []) {
    const i = ix.brands.indexOf(b);
    if (i >= 0) brandOk[i] = 1;
  }
  const priceFilter = filters.priceMin !== undefined || filters.priceMax !== undefined;
  const min = filters.priceMin ?? -Infinity;
  const max = filters.priceMax ?? Infinity;
  const catCount = new Int32Array(ix.categories.length);
  const brandCount = new Int32Array(ix.brands.length);
  const bandCount = new Int32Array(PRICE_BANDS.length);
  let inStock = 0;
  const passing = new Grow(new Int32Array(1024), (k) => new Int32Array(k));

  const visit = (d: number) => {
    if (filters.featured && !ix.featured[d]) return;
    let fail = 0;
    const s0 = ix.docCatStart[d] as number;
    const s1 = ix.docCatStart[d + 1] as number;
    if (cat !== -2) {
      let found = false;
      for (let k = s0; k < s1; k++) if (ix.docCats[k] === cat) found = true;
      if (!found) fail |= F_CATEGORY;
    }
    const b = ix.brand[d] as number;
    if (brandFilter && (b < 0 || !brandOk[b])) fail |= F_BRAND;
    const price = ix.price[d] as number;
    if (priceFilter && (price < min || price > max)) fail |= F_PRICE;
    const stocked = (ix.stock[d] as number) > 0;
    if (filters.inStock && !stocked) fail |= F_STOCK;
    if (fail === 0) passing.push(d);
    if ((fail & ~F_STOCK) === 0 && stocked) inStock++;
    if ((fail & ~F_BRAND) === 0 && b >= 0) (brandCount[b] as number)++;
    if ((fail & ~F_PRICE) === 0) {
      const band = ix.band[d] as number;
      if (band < PRICE_BANDS.length) (bandCount[band] as number)++;
    }
    if ((fail & ~F_CATEGORY) === 0) for (let k = s0; k < s1; k++) (catCount[ix.docCats[k] as number] as number)++;
  };
  if (opts.match) forEachDoc(opts.match, visit);
  else for (let d = 0; d < ix.n; d++) visit(d);

  const docs = passing.done();
  const ids = order(ix, docs, opts.sort, opts.relevance, opts.offset + opts.limit)
    .slice(opts.offset, opts.offset + opts.limit)
    .map((d) => ix.ids[d] as string);

  const categories: Facets['categories'] = [];
  catCount.forEach((count, i) => {
    if (count > 0) {
      const c = ix.categories[i] as { id: string; label: string };
      categories.push({ value: c.id, label: c.label, count });
    }
  });
  const brands: Facets['brands'] = [];
  brandCount.forEach((count, i) => {
    if (count > 0) brands.push({ value: ix.brands[i] as string, label: ix.brands[i] as string, count });
  });
  return {
    ids,
    total: docs.length,
    facets: {
      categories: categories.sort((a, b) => b.count - a.count || a.label.localeCompare(b.label)),
      brands: brands.sort((a, b) => a.label.localeCompare(b.label)),
      prices: PRICE_BANDS.map(([lo, hi], i) => ({
        min: lo,
        max: hi,
        label: priceBandLabel(lo, hi),
        count: bandCount[i] as number,
      })).filter((b) => b.count > 0),
      inStock,
    },
  };
}

/**
 * The best `limit` matches by relevance, with no filter and no facet (autocomplete, on every
 * keystroke: the facet pass of `query` would be work nobody reads). Same order as `query`.
 */
export function best(
  ix: IndexData,
  match: Uint32Array,
  relevance: { plan: RankPlan; text: string },
  limit: number,
): string[] {
  // Lean path (decision 014): a name starting with the text outranks every match whose name does
  // not (tier 10 or 100 against ts_rank, which stays under 2), so when at least `limit` matches
  // start with it the answer is among them, and only they are ranked. Two typed letters match
  // most of a large catalog; the names starting with them are a sliver of it.
  const starting = relevance.text ? startingWith(ix, relevance.text, match) : null;
  if (starting && starting.length >= limit) {
    return order(ix, starting, 'relevance', relevance, limit).map((d) => ix.ids[d] as string);
  }
  const docs = new Grow(new Int32Array(1024), (k) => new Int32Array(k));
  forEachDoc(match, (d) => docs.push(d));
  return order(ix, docs.done(), 'relevance', relevance, limit).map((d) => ix.ids[d] as string);
}

/** The matches whose lower-cased name starts with `text`: a contiguous run of `byName`. */
function startingWith(ix: IndexData, text: string, match: Uint32Array): Int32Array {
  const names = ix.lowerNames;
  if (!ix.byName) {
    const order = Int32Array.from({ length: ix.n }, (_, i) => i);
    order.sort((a, b) => {
      const x = names[a] as string;
      const y = names[b] as string;
      return x < y ? -1 : x > y ? 1 : a - b;
    });
    ix.byName = order;
  }
  const byName = ix.byName;
  let lo = 0;
  let hi = byName.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((names[byName[mid] as number] as string) < text) lo = mid + 1;
    else hi = mid;
  }
  const out = new Grow(new Int32Array(16), (k) => new Int32Array(k));
  for (let i = lo; i < byName.length; i++) {
    const d = byName[i] as number;
    if (!(names[d] as string).startsWith(text)) break;
    if (((match[d >> 5] as number) >>> (d & 31)) & 1) out.push(d);
  }
  return out.done();
}

/** The store's biggest categories by products (ties by id), for "nothing matched". */
export function topCategories(ix: IndexData, count: number): string[] {
  const sizes = new Int32Array(ix.categories.length);
  for (const c of ix.docCats) (sizes[c] as number)++;
  return ix.categories
    .map((c, i) => ({ c, n: sizes[i] as number }))
    .filter((x) => x.n > 0)
    .sort((a, b) => b.n - a.n || (a.c.id < b.c.id ? -1 : a.c.id > b.c.id ? 1 : 0))
    .slice(0, count)
    .map((x) => x.c.label);
}
