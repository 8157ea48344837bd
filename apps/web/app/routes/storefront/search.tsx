import type { Category } from '@app/contracts';
import { categoryLabel } from '@app/contracts/client';
import { SearchX } from 'lucide-react';
import { Link, useRouteLoaderData } from 'react-router';
import { CatalogView } from '../../components/catalog/catalog-view';
import { SEARCH_SORT_OPTIONS } from '../../components/catalog/sort-options';
import { PageContainer } from '../../components/ui/page';
import { apiParams } from '../../lib/catalog-params';
import { withRootMeta } from '../../lib/meta';
import type { loader as rootLoader } from '../../root';
import type { Route } from './+types/search';

/** The API's limit on search text: longer text is cut rather than refused. */
const MAX_SEARCH = 200;

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const searchText = params.searchText.trim().slice(0, MAX_SEARCH);
  if (!searchText) return { searchText: '', result: null };
  const url = new URL(request.url);
  const result = await context.api.search(searchText, apiParams(url.searchParams));
  return { searchText, result };
}

export function meta({ data: d, params, matches }: Route.MetaArgs) {
  const root = matches.find((m) => m?.id === 'root')?.data as Awaited<ReturnType<typeof rootLoader>> | undefined;
  const text = d?.searchText || params.searchText;
  return withRootMeta(matches, [
    { title: `Search: ${text} | ${root?.shell.store.storeName ?? ''}` },
    // Result pages are endless and thin: kept out of search engines.
    { name: 'robots', content: 'noindex' },
  ]);
}

const searchHref = (text: string) => `/product/search/${encodeURIComponent(text)}`;

/** The store's own first categories: the tips name what this shop sells, not another's goods. */
function useTopCategories(count: number): Category[] {
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const seen = new Set<string>();
  const out: Category[] = [];
  for (const c of (root?.shell.main.catalogCol ?? []).flatMap((x) => x.categoryList)) {
    if (seen.has(c.productCategoryId)) continue;
    seen.add(c.productCategoryId);
    out.push(c);
    if (out.length === count) break;
  }
  return out;
}

function NoResults({ searchText, suggestions }: { searchText: string; suggestions: string[] }) {
  const top = useTopCategories(4);
  const general = top[0] ? categoryLabel(top[0]).toLowerCase() : null;
  return (
    <div
      className="rounded-2xl border border-dashed border-slate-300 bg-slate-50 px-6 py-14 md:px-12"
      data-testid="no-results"
    >
      <div className="mx-auto max-w-xl text-center">
        <SearchX aria-hidden className="mx-auto size-10 text-slate-400" />
        <h2 className="mt-4 text-lg font-semibold text-slate-900">No products found for “{searchText}”</h2>
        <p className="mt-2 text-slate-600">Check the spelling, or try one of these instead.</p>
        {suggestions.length > 0 && (
          <ul className="mt-6 flex flex-wrap justify-center gap-2" aria-label="Suggested searches">
            {suggestions.map((s) => (
              <li key={s}>
                <Link
                  to={searchHref(s)}
                  className="inline-flex h-10 items-center rounded-full border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 hover:border-slate-900"
                  data-testid="suggestion"
                >
                  {s}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="mx-auto mt-10 max-w-xl border-t border-slate-200 pt-6">
        <h3 className="text-sm font-semibold text-slate-900">Search tips</h3>
        <ul className="mt-3 list-disc space-y-1.5 pl-5 text-sm text-slate-600">
          <li>
            {general
              ? `Use fewer or more general words, such as “${general}” instead of a long description.`
              : 'Use fewer or more general words instead of a long description.'}
          </li>
          <li>Search by brand or product code.</li>
          <li>Put words in quotes to find an exact phrase, and a minus sign before a word to leave it out.</li>
        </ul>
        {top.length > 0 && (
          <nav aria-label="Popular categories" className="mt-5" data-testid="no-results-categories">
            <h3 className="text-sm font-semibold text-slate-900">Or browse a category</h3>
            <ul className="mt-3 flex flex-wrap gap-x-5 gap-y-2 text-sm">
              {top.map((c) => (
                <li key={c.productCategoryId}>
                  <Link
                    to={`/categories/${c.productCategoryId}`}
                    className="font-medium text-brand underline underline-offset-2"
                  >
                    {categoryLabel(c)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <p className="mt-5 text-sm text-slate-600">
          Still stuck?{' '}
          <Link to="/contact" className="font-semibold text-brand underline underline-offset-2">
            Ask us
          </Link>{' '}
          and we will help you find it.
        </p>
      </div>
    </div>
  );
}

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { searchText, result } = loaderData;
  return (
    <PageContainer>
      <header className="mb-8">
        <p className="text-xs font-semibold tracking-widest text-slate-500 uppercase">Search</p>
        <h1 className="mt-2 text-2xl font-bold tracking-tight break-words text-slate-900 md:text-3xl">
          Results for “{searchText}”
        </h1>
        {result?.searchedFor && (
          <p className="mt-3 text-slate-700" data-testid="searched-for">
            Showing results for “
            <Link
              to={searchHref(result.searchedFor)}
              className="font-semibold text-slate-900 underline underline-offset-2"
            >
              {result.searchedFor}
            </Link>
            ”. No results for “{searchText}”.
          </p>
        )}
      </header>
      {result ? (
        <CatalogView
          result={result}
          sorts={SEARCH_SORT_OPTIONS}
          defaultSort="relevance"
          showCategories
          noun="result"
          empty={<NoResults searchText={searchText} suggestions={result.suggestions} />}
        />
      ) : (
        <NoResults searchText={searchText} suggestions={[]} />
      )}
    </PageContainer>
  );
}
