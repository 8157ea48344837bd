import type { ProductPage } from '@app/contracts';
import { priceBandLabel } from '@app/contracts/client';
import { SlidersHorizontal, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useLocation, useNavigation } from 'react-router';
import {
  brandsOf,
  clearFiltersHref,
  hrefWith,
  hrefWithoutOption,
  type ListState,
  readListState,
} from '../../lib/catalog-params';
import { ProductGrid } from '../product/product-card';
import { FilterForm } from './filters';
import { Pagination } from './pagination';
import type { SortOption } from './sort-options';
import { SortSelect } from './sort-select';

function activeFilters(
  state: ListState,
  search: URLSearchParams,
  pathname: string,
  result: ProductPage,
  currency: string,
): Array<{ label: string; href: string }> {
  const out: Array<{ label: string; href: string }> = [];
  if (state.category) {
    const label = result.facets.categories.find((c) => c.value === state.category)?.label ?? state.category;
    out.push({ label: `Category: ${label}`, href: hrefWith(pathname, search, { productCategoryId: null }) });
  }
  const brands = brandsOf(search);
  for (const b of brands) {
    const rest = brands.filter((x) => x !== b).join(',');
    out.push({ label: b, href: hrefWith(pathname, search, { brand: rest || null }) });
  }
  if (state.price) {
    const label = priceBandLabel(state.price.min, state.price.max, currency);
    out.push({ label, href: hrefWith(pathname, search, { price: null }) });
  }
  if (search.get('priceMin') || search.get('priceMax')) {
    out.push({ label: 'Price range', href: hrefWith(pathname, search, { priceMin: null, priceMax: null }) });
  }
  for (const o of state.options) {
    const facet = result.facets.options.find((f) => f.value === o.name);
    const value = facet?.values.find((v) => v.value === o.value)?.label ?? o.value;
    out.push({ label: `${facet?.name ?? o.name}: ${value}`, href: hrefWithoutOption(pathname, search, o) });
  }
  if (state.inStock) out.push({ label: 'In stock', href: hrefWith(pathname, search, { inStock: null }) });
  return out;
}

/**
 * A product list with its filters, sort, count and pages: the category page and the search results
 * share it. Everything is driven by the URL (see lib/catalog-params.ts).
 */
export function CatalogView({
  result,
  sorts,
  defaultSort,
  showCategories = false,
  empty,
  noun = 'product',
}: {
  result: ProductPage;
  sorts: SortOption[];
  defaultSort: string;
  showCategories?: boolean;
  /** What to show when nothing matches and no filter is set. */
  empty: ReactNode;
  noun?: string;
}) {
  const location = useLocation();
  const navigation = useNavigation();
  const search = new URLSearchParams(location.search);
  const pathname = location.pathname;
  const state = readListState(search);
  const currency = result.products[0]?.currencyUomId ?? 'USD';
  const chips = activeFilters(state, search, pathname, result, currency);
  const filtered = chips.length > 0;
  const sort = sorts.some((s) => s.value === state.sort) ? (state.sort as string) : defaultSort;
  const pending = navigation.state === 'loading' && navigation.location.pathname === pathname;

  if (result.total === 0 && !filtered) return <>{empty}</>;

  const from = (result.page - 1) * result.pageSize + 1;
  const to = Math.min(result.total, from + result.products.length - 1);
  const plural = (n: number) => `${n} ${n === 1 ? noun : `${noun}s`}`;
  const filterProps = { facets: result.facets, state, pathname, search, currency, showCategories };

  return (
    <div className="md:grid md:grid-cols-[220px_minmax(0,1fr)] md:gap-8 lg:grid-cols-[250px_minmax(0,1fr)] lg:gap-12">
      <aside className="hidden md:block" aria-labelledby="filters-heading">
        <h2 id="filters-heading" className="mb-5 text-xs font-semibold tracking-widest text-slate-500 uppercase">
          Filter by
        </h2>
        <FilterForm {...filterProps} idPrefix="side" />
      </aside>

      <div>
        <details className="group mb-4 rounded-lg border border-slate-300 md:hidden" data-testid="filters-disclosure">
          <summary className="flex h-11 cursor-pointer list-none items-center justify-between gap-2 px-4 text-sm font-semibold text-slate-900 [&::-webkit-details-marker]:hidden">
            <span className="flex items-center gap-2">
              <SlidersHorizontal aria-hidden className="size-4" />
              Filters
              {filtered && (
                <span className="flex h-5 min-w-5 items-center justify-center rounded-full bg-slate-900 px-1.5 text-[11px] text-white">
                  {chips.length}
                </span>
              )}
            </span>
            <span className="text-xs font-medium text-slate-600 group-open:hidden">Show</span>
            <span className="hidden text-xs font-medium text-slate-600 group-open:inline">Hide</span>
          </summary>
          <div className="border-t border-slate-200 px-4 pt-4 pb-2">
            <FilterForm {...filterProps} idPrefix="drawer" />
          </div>
        </details>

        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 pb-4">
          <p className="text-sm text-slate-600" data-testid="result-count" aria-live="polite">
            {result.total === 0
              ? `0 ${noun}s`
              : result.pageCount > 1
                ? `Showing ${from}–${to} of ${plural(result.total)}`
                : plural(result.total)}
          </p>
          <SortSelect options={sorts} value={sort} pathname={pathname} search={search} />
        </div>

        {filtered && (
          <ul className="mt-4 flex flex-wrap items-center gap-2" aria-label="Active filters">
            {chips.map((c) => (
              <li key={c.label}>
                <Link
                  to={c.href}
                  preventScrollReset
                  className="inline-flex h-8 items-center gap-1.5 rounded-full border border-slate-300 bg-white pr-2.5 pl-3 text-sm text-slate-800 hover:border-slate-900"
                >
                  {c.label}
                  <X aria-hidden className="size-3.5" />
                  <span className="sr-only">(remove filter)</span>
                </Link>
              </li>
            ))}
            <li>
              <Link
                to={clearFiltersHref(pathname, search)}
                preventScrollReset
                className="ml-1 text-sm font-medium text-slate-700 underline underline-offset-4 hover:text-slate-900"
              >
                Clear all
              </Link>
            </li>
          </ul>
        )}

        <section aria-labelledby="results-heading" aria-busy={pending} className="mt-6">
          <h2 id="results-heading" className="sr-only">
            Products
          </h2>
          {result.products.length > 0 ? (
            <div className={`transition-opacity ${pending ? 'opacity-50' : ''}`}>
              <ProductGrid products={result.products} columns={3} eagerCount={3} />
            </div>
          ) : (
            <div
              className="flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-slate-50 px-6 py-16 text-center"
              data-testid="no-match"
            >
              {result.total > 0 ? (
                // Only a page past the end (an old link) lands here with matches.
                <>
                  <h3 className="text-lg font-semibold text-slate-900">This page is empty</h3>
                  <p className="mt-2 max-w-md text-slate-600">The list is shorter than this link expected.</p>
                  <Link
                    to={hrefWith(pathname, search, { page: null })}
                    className="mt-6 inline-flex h-11 items-center rounded-md bg-action px-6 text-sm font-semibold text-white hover:opacity-90"
                  >
                    Go to the first page
                  </Link>
                </>
              ) : (
                <>
                  <h3 className="text-lg font-semibold text-slate-900">No products match these filters</h3>
                  <p className="mt-2 max-w-md text-slate-600">Try removing a filter or choosing a wider price range.</p>
                  <Link
                    to={clearFiltersHref(pathname, search)}
                    className="mt-6 inline-flex h-11 items-center rounded-md bg-action px-6 text-sm font-semibold text-white hover:opacity-90"
                  >
                    Clear filters
                  </Link>
                </>
              )}
            </div>
          )}
        </section>

        <Pagination page={result.page} pageCount={result.pageCount} pathname={pathname} search={search} />
      </div>
    </div>
  );
}
