/**
 * Sorts, page sizes and price bands of the catalog, zod-free so the browser can import them
 * (through `@app/contracts/client`) and label its controls exactly as the API does.
 */
import { formatMoney } from './money';

export const PRODUCT_SORTS = ['featured', 'price_asc', 'price_desc', 'newest', 'name'] as const;
export const SEARCH_SORTS = ['relevance', ...PRODUCT_SORTS] as const;
export const SORT_LABELS: Record<(typeof SEARCH_SORTS)[number], string> = {
  relevance: 'Best match',
  featured: 'Featured',
  price_asc: 'Price: low to high',
  price_desc: 'Price: high to low',
  newest: 'Newest',
  name: 'Name: A to Z',
};
export const MAX_PAGE_SIZE = 48;
export const DEFAULT_PAGE_SIZE = 24;

/** Price bands of the price facet, in minor units: [min, max) with max null for "and up". */
export const PRICE_BANDS: readonly (readonly [number, number | null])[] = [
  [0, 2500],
  [2500, 5000],
  [5000, 10000],
  [10000, 20000],
  [20000, 50000],
  [50000, null],
];

/** "Under $25", "$50 – $100", "$500 and up". */
export function priceBandLabel(min: number, max: number | null, currency = 'USD'): string {
  const m = (v: number) => formatMoney(v, currency, { trim: true });
  if (max === null) return `${m(min)} and up`;
  if (min === 0) return `Under ${m(max)}`;
  return `${m(min)} – ${m(max)}`;
}
