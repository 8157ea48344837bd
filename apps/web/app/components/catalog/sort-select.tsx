import { ChevronDown } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { hrefWith } from '../../lib/catalog-params';
import type { SortOption } from './sort-options';

/** Its own GET form (carrying the filters along), so sorting works without JavaScript too. */
export function SortSelect({
  options,
  value,
  pathname,
  search,
}: {
  options: SortOption[];
  value: string;
  pathname: string;
  search: URLSearchParams;
}) {
  const navigate = useNavigate();
  const carried = [...search].filter(([k]) => k !== 'sort' && k !== 'page');
  const selectRef = useRef<HTMLSelectElement>(null);
  // Follows the URL (Back) without re-mounting, so the focus stays on the select after a change.
  useEffect(() => {
    if (selectRef.current) selectRef.current.value = value;
  }, [value]);
  return (
    <form method="get" action={pathname} className="flex items-center gap-2">
      {carried.map(([k, v], i) => (
        <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
      ))}
      <label htmlFor="sort" className="text-sm whitespace-nowrap text-slate-600">
        Sort by
      </label>
      <div className="relative">
        <select
          ref={selectRef}
          id="sort"
          name="sort"
          defaultValue={value}
          onChange={(e) =>
            navigate(hrefWith(pathname, search, { sort: e.currentTarget.value }), { preventScrollReset: true })
          }
          className="h-10 appearance-none rounded-md border border-slate-300 bg-white pr-9 pl-3 text-sm font-medium text-slate-900 hover:border-slate-400"
          data-testid="sort-select"
        >
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <ChevronDown
          aria-hidden
          className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-slate-500"
        />
      </div>
      <noscript>
        <button type="submit" className="h-10 rounded-md border border-slate-300 px-3 text-sm font-medium">
          Sort
        </button>
      </noscript>
    </form>
  );
}
