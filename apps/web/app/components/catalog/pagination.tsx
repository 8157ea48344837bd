import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { hrefWith, pageWindow } from '../../lib/catalog-params';

const item = 'flex h-10 min-w-10 items-center justify-center rounded-md px-3 text-sm font-medium';

/** Links, not buttons: every page of a list has its own URL and works without JavaScript. */
export function Pagination({
  page,
  pageCount,
  pathname,
  search,
}: {
  page: number;
  pageCount: number;
  pathname: string;
  search: URLSearchParams;
}) {
  if (pageCount <= 1) return null;
  const href = (p: number) => hrefWith(pathname, search, { page: String(p) });
  return (
    <nav aria-label="Pagination" className="mt-12 flex justify-center" data-testid="pagination">
      <ul className="flex flex-wrap items-center gap-1">
        <li>
          {page > 1 ? (
            <Link to={href(page - 1)} rel="prev" className={`${item} gap-1 text-slate-700 hover:bg-slate-100`}>
              <ChevronLeft aria-hidden className="size-4" />
              <span className="sr-only sm:not-sr-only">Previous</span>
            </Link>
          ) : (
            <span aria-hidden className={`${item} gap-1 text-slate-300`}>
              <ChevronLeft className="size-4" />
              <span className="sr-only sm:not-sr-only">Previous</span>
            </span>
          )}
        </li>
        {pageWindow(page, pageCount).map((p, i) =>
          p === null ? (
            <li key={`gap-${i}`} aria-hidden className={`${item} text-slate-400`}>
              …
            </li>
          ) : (
            <li key={p}>
              {p === page ? (
                <span aria-current="page" className={`${item} bg-slate-900 text-white`}>
                  <span className="sr-only">Page </span>
                  {p}
                </span>
              ) : (
                <Link to={href(p)} className={`${item} text-slate-700 hover:bg-slate-100`}>
                  <span className="sr-only">Page </span>
                  {p}
                </Link>
              )}
            </li>
          ),
        )}
        <li>
          {page < pageCount ? (
            <Link to={href(page + 1)} rel="next" className={`${item} gap-1 text-slate-700 hover:bg-slate-100`}>
              <span className="sr-only sm:not-sr-only">Next</span>
              <ChevronRight aria-hidden className="size-4" />
            </Link>
          ) : (
            <span aria-hidden className={`${item} gap-1 text-slate-300`}>
              <span className="sr-only sm:not-sr-only">Next</span>
              <ChevronRight className="size-4" />
            </span>
          )}
        </li>
      </ul>
    </nav>
  );
}
