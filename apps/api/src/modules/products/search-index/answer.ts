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
  /** Option values (Colour: Brass), matched without regard to case (decision 112). */
  options?: { name: string; value: string }[];
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
const F_OPTION = 16;

/**
 * The option filter as the index reads it: the filtered options (index into ix.options; past the
 * last for a name no product has) and, per value, whether it is chosen.
 */
function optionFilter(ix: IndexData, chosen: { name: string; value: string }[]) {
  const fold = (s: string) => s.toLowerCase();
  const filtered: number[] = [];
  const picked = new Uint8Array(ix.values.length);
  for (const c of chosen) {
    // An option no product has: past the last option, which no variant can have (nothing passes).
    const known = ix.options.findIndex((x) => fold(x.key) === fold(c.name));
    const o = known < 0 ? ix.options.length : known;
    if (!filtered.includes(o)) filtered.push(o);
    if (known < 0) continue;
    ix.values.forEach((v, i) => {
      if (v.option === o && fold(v.key) === fold(c.value)) picked[i] = 1;
    });
  }
  return { filtered, picked };
}

/** The option facets from per-value counts: options and values by position, then name. */
export function optionFacets(
  options: { key: string; name: string; position: number }[],
  values: { option: number; key: string; label: string; position: number; count: number }[],
): Facets['options'] {
  const byKey = (a: { position: number; key: string }, b: { position: number; key: string }) =>
    a.position - b.position || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  return options
    .map((o, i) => ({
      o,
      values: values
        .filter((v) => v.option === i && v.count > 0)
        .sort(byKey)
        .map((v) => ({ value: v.key, label: v.label, count: v.count })),
    }))
    .filter((x) => x.values.length > 0)
    .sort((a, b) => byKey(a.o, b.o))
    .map((x) => ({ name: x.o.name, value: x.o.key, values: x.values }));
}

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
  const opt = filters.options?.length ? optionFilter(ix, filters.options) : null;
  const valueCount = new Int32Array(ix.values.length);
  const valueSeen = new Int32Array(ix.values.length).fill(-1);
  /** The value (index into ix.values) in slot k of variant v, or -1. */
  const valueAt = (v: number, k: number) => {
    const r = ix.varRaw[3 * v + k] as number;
    return r < 0 ? -1 : (ix.rawValue[r] as number);
  };
  /** -1: the variant has every chosen option; else the one filtered option it misses; -2: more. */
  const missed = (v: number): number => {
    if (!opt) return -1;
    let miss = -1;
    for (const o of opt.filtered) {
      let ok = false;
      for (let k = 0; k < 3; k++) {
        const val = valueAt(v, k);
        if (val >= 0 && (ix.values[val] as { option: number }).option === o && opt.picked[val]) ok = true;
      }
      if (!ok) {
        if (miss !== -1) return -2;
        miss = o;
      }
    }
    return miss;
  };
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
    let stocked = (ix.stock[d] as number) > 0;
    const v0 = ix.docVarStart[d] as number;
    const v1 = ix.docVarStart[d + 1] as number;
    if (opt) {
      // With options chosen, one variant must have them all (and be in stock, for the in-stock filter).
      let any = false;
      stocked = false;
      for (let v = v0; v < v1; v++) {
        if (missed(v) !== -1) continue;
        any = true;
        if (ix.varStock[v]) stocked = true;
      }
      if (!any) fail |= F_OPTION;
    }
    if (filters.inStock && !stocked) fail |= F_STOCK;
    if ((fail & ~(F_OPTION | F_STOCK)) === 0) {
      // A value counts the product once when a variant has it and every other chosen option.
      for (let v = v0; v < v1; v++) {
        if (filters.inStock && !ix.varStock[v]) continue;
        const m = missed(v);
        if (m === -2) continue;
        for (let k = 0; k < 3; k++) {
          const val = valueAt(v, k);
          if (val < 0 || valueSeen[val] === d) continue;
          if (m !== -1 && (ix.values[val] as { option: number }).option !== m) continue;
          valueSeen[val] = d;
          (valueCount[val] as number)++;
        }
      }
    }
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
      options: optionFacets(
        ix.options,
        ix.values.map((v, i) => ({ ...v, count: valueCount[i] as number })),
      ),
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
