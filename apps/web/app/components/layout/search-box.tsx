import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Form, useLocation, useNavigate } from 'react-router';

const SEARCH_PREFIX = '/product/search/';

/** The search text of a results URL, if the page is one. */
export function searchTextOf(pathname: string): string | null {
  if (!pathname.startsWith(SEARCH_PREFIX)) return null;
  try {
    return decodeURIComponent(pathname.slice(SEARCH_PREFIX.length));
  } catch {
    return null;
  }
}

/**
 * Enter opens /product/search/{text}; an empty value does nothing; the box empties when the shopper
 * leaves the results page (SPEC.md section 2). Without JavaScript the form still works: /product/search
 * redirects ?q= to the same URL.
 */
export function SearchBox({ variant }: { variant: 'desktop' | 'mobile' }) {
  const location = useLocation();
  const navigate = useNavigate();
  const current = searchTextOf(location.pathname);
  const [value, setValue] = useState(current ?? '');

  useEffect(() => {
    setValue(current ?? '');
  }, [current]);

  const id = `search-${variant}`;
  return (
    <Form
      method="get"
      action="/product/search"
      role="search"
      className={variant === 'desktop' ? 'relative hidden w-full max-w-xl md:block' : 'relative block w-full md:hidden'}
      onSubmit={(e) => {
        e.preventDefault();
        const text = value.trim();
        if (!text) return;
        navigate(`${SEARCH_PREFIX}${encodeURIComponent(text)}`);
      }}
    >
      <label htmlFor={id} className="sr-only">
        Search products
      </label>
      <input
        id={id}
        name="q"
        type="search"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        placeholder="Search products"
        autoComplete="off"
        enterKeyHint="search"
        data-testid={`search-${variant}`}
        className="h-11 w-full rounded-full border border-slate-300 bg-white pr-12 pl-4 text-[15px] text-slate-900 placeholder:text-slate-500 focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand-light"
      />
      <button
        type="submit"
        className="absolute top-1 right-1 flex size-9 items-center justify-center rounded-full bg-action text-white hover:opacity-90"
        aria-label="Search"
      >
        <Search aria-hidden className="size-4" />
      </button>
    </Form>
  );
}
