/**
 * Cursor pagination under a list: previous / next links built from the keyset cursors the API
 * returns (`nextCursor`, and `prevCursor` where the API has one; "First page" where it has not).
 * Plain links, so they work without JavaScript; the page's filters stay in the address.
 *
 *   <Pagination summary="50 products on this page"
 *     next={page.nextCursor && cursorHref(search, page.nextCursor)}
 *     first={query.cursor ? cursorHref(search, null) : null} />
 */
import './kit.css';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonClass } from './button';

/** `?q=lamp&cursor=abc`: the current filters with this cursor (none for the first page). */
export function cursorHref(params: URLSearchParams | Record<string, string | undefined | null>, cursor: string | null) {
  const next = new URLSearchParams();
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params);
  for (const [k, v] of entries) if (v && k !== 'cursor') next.set(k, v);
  if (cursor) next.set('cursor', cursor);
  const s = next.toString();
  return s ? `?${s}` : '?';
}

export function Pagination({
  label = 'Pages',
  summary,
  previous,
  next,
  first,
}: {
  label?: string;
  summary?: ReactNode;
  previous?: string | null | undefined | false | '';
  next?: string | null | undefined | false | '';
  /** For lists whose API gives no previous cursor: back to the first page. */
  first?: string | null | undefined | false | '';
}) {
  if (!previous && !next && !first && !summary) return null;
  return (
    <nav aria-label={label} className="kit-pagination">
      <span>{summary}</span>
      <span className="kit-pagination__links">
        {first && !previous && (
          <Link to={first} className={buttonClass('secondary', true)}>
            First page
          </Link>
        )}
        {previous && (
          <Link to={previous} rel="prev" className={buttonClass('secondary', true)}>
            Previous page
          </Link>
        )}
        {next && (
          <Link to={next} rel="next" className={buttonClass('secondary', true)}>
            Next page
          </Link>
        )}
      </span>
    </nav>
  );
}
