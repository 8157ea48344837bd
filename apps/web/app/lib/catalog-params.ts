/**
 * The catalog list's view lives in the URL (sort, filters, page), so a link reproduces it and the
 * filter form works as a plain GET without JavaScript. The URL speaks the shopper's terms (price=
 * one band, brand= repeated or comma-joined); `apiParams` turns it into what the API takes.
 */

/** Params that change which products match: what "Clear filters" removes. */
export const FILTER_KEYS = ['brand', 'price', 'priceMin', 'priceMax', 'inStock', 'productCategoryId'] as const;

/**
 * Option values are `option.<option>=<value>` (`?option.finish=brass&option.finish=black`), an
 * option's name and value as the facets give them, repeated for more than one value.
 */
export const OPTION_PREFIX = 'option.';
const isOptionKey = (k: string) => k.startsWith(OPTION_PREFIX) && k.length > OPTION_PREFIX.length;

/** The API's option filter takes at most this many values (contracts products.ts). */
export const MAX_OPTION_VALUES = 20;

/**
 * The option values of the URL, in order, each once, the first MAX_OPTION_VALUES of them: past the
 * API's bound the page function drops the option list as a whole (its params are read leniently), so
 * a twenty-first value clicked would have cleared every option filter.
 */
export function optionsOf(search: URLSearchParams): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  for (const [k, v] of search) {
    const name = k.slice(OPTION_PREFIX.length);
    const value = v.trim();
    if (isOptionKey(k) && value && !out.some((o) => o.name === name && o.value === value)) out.push({ name, value });
    if (out.length === MAX_OPTION_VALUES) break;
  }
  return out;
}

/** The view without one option value (its chip's link). */
export function hrefWithoutOption(
  pathname: string,
  search: URLSearchParams,
  option: { name: string; value: string },
): string {
  const next = new URLSearchParams();
  for (const [k, v] of search) {
    if (k === 'page' || (k === `${OPTION_PREFIX}${option.name}` && v.trim() === option.value)) continue;
    next.append(k, v);
  }
  return withQuery(pathname, tidy(next));
}

export interface PriceBand {
  min: number;
  /** Exclusive; null = and up. */
  max: number | null;
}

export function bandValue(b: PriceBand): string {
  return `${b.min}-${b.max ?? ''}`;
}

export function parseBand(value: string | null): PriceBand | null {
  const m = value ? /^(\d{1,9})-(\d{0,9})$/.exec(value) : null;
  if (!m) return null;
  const min = Number(m[1]);
  const max = m[2] ? Number(m[2]) : null;
  if (max !== null && max <= min) return null;
  return { min, max };
}

/** Brands of the URL, whether the form repeated `brand=` (no JavaScript) or a link joined them. */
export function brandsOf(search: URLSearchParams): string[] {
  const out: string[] = [];
  for (const v of search.getAll('brand')) {
    for (const b of v.split(',')) {
      const t = b.trim();
      if (t && !out.includes(t)) out.push(t);
    }
  }
  return out;
}

export interface ListState {
  sort: string | null;
  brands: string[];
  price: PriceBand | null;
  inStock: boolean;
  category: string | null;
  options: { name: string; value: string }[];
  page: number;
}

export function readListState(search: URLSearchParams): ListState {
  const page = Number(search.get('page'));
  return {
    sort: search.get('sort') || null,
    brands: brandsOf(search),
    price: parseBand(search.get('price')),
    inStock: search.get('inStock') === 'true',
    category: search.get('productCategoryId') || null,
    options: optionsOf(search),
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** The API's params for a page URL (the API drops what it does not accept). */
export function apiParams(search: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of search) if (v !== '') out[k] = v;
  const brands = brandsOf(search);
  if (brands.length) out.brand = brands.join(',');
  else delete out.brand;
  const band = parseBand(search.get('price'));
  delete out.price;
  if (band) {
    out.priceMin = String(band.min);
    // The band's end is exclusive; the API's priceMax is inclusive.
    if (band.max !== null) out.priceMax = String(band.max - 1);
    else delete out.priceMax;
  }
  // A record holds one value per key: an option's values travel joined by a line break (the page
  // functions split them; no value holds one).
  for (const k of Object.keys(out)) if (isOptionKey(k)) delete out[k];
  for (const o of optionsOf(search)) {
    const k = `${OPTION_PREFIX}${o.name}`;
    out[k] = out[k] ? `${out[k]}\n${o.value}` : o.value;
  }
  return out;
}

/** A tidy query string: brands joined, empty values dropped, page 1 implied. */
function tidy(params: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  const brands = brandsOf(params);
  let brandDone = false;
  for (const [k, v] of params) {
    if (k === 'brand') {
      if (!brandDone && brands.length) out.set('brand', brands.join(','));
      brandDone = true;
    } else if (isOptionKey(k)) {
      if (v.trim() !== '' && !out.getAll(k).includes(v.trim())) out.append(k, v.trim());
    } else if (v !== '' && !(k === 'page' && v === '1') && !out.has(k)) {
      out.set(k, v);
    }
  }
  return out;
}

function withQuery(pathname: string, params: URLSearchParams): string {
  const qs = params.toString();
  return qs ? `${pathname}?${qs}` : pathname;
}

/**
 * The URL of the view with some params changed (null removes one). Any change but the page itself
 * goes back to page 1: page 3 of another filter is a different list.
 */
export function hrefWith(pathname: string, search: URLSearchParams, changes: Record<string, string | null>): string {
  const next = new URLSearchParams(search);
  if (!('page' in changes)) next.delete('page');
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === '') next.delete(k);
    else next.set(k, v);
  }
  return withQuery(pathname, tidy(next));
}

/** The view without any filter; the sort stays, as the shopper chose it. */
export function clearFiltersHref(pathname: string, search: URLSearchParams): string {
  const next = new URLSearchParams(search);
  for (const k of [...FILTER_KEYS, 'page']) next.delete(k);
  for (const k of [...next.keys()]) if (isOptionKey(k)) next.delete(k);
  return withQuery(pathname, tidy(next));
}

/** What a GET form submits, tidied the same way links are, so both give one URL per view. */
export function queryFromForm(form: HTMLFormElement): string {
  const params = new URLSearchParams();
  for (const [k, v] of new FormData(form)) if (typeof v === 'string') params.append(k, v);
  const qs = tidy(params).toString();
  return qs ? `?${qs}` : '';
}

/** Page numbers to link, with null for a gap: 1 … 4 5 6 … 12. */
export function pageWindow(page: number, pageCount: number): Array<number | null> {
  if (pageCount <= 7) return Array.from({ length: pageCount }, (_, i) => i + 1);
  const pages = new Set([1, pageCount, page - 1, page, page + 1]);
  const sorted = [...pages].filter((p) => p >= 1 && p <= pageCount).sort((a, b) => a - b);
  const out: Array<number | null> = [];
  for (const [i, p] of sorted.entries()) {
    const prev = sorted[i - 1];
    if (prev !== undefined && p - prev > 1) out.push(p - prev === 2 ? prev + 1 : null);
    out.push(p);
  }
  return out;
}
