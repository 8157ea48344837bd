import { formatMoney } from '@app/contracts/client';
import { Search, Tag } from 'lucide-react';
import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { Form, useLocation, useNavigate } from 'react-router';
import { mediaSrcSet } from '../../lib/media';
import { useValueChangedBeforeHydration } from '../../lib/use-value-before-hydration';
import { NO_IMAGE } from './category-bar';

const SEARCH_PREFIX = '/product/search/';
const AUTOCOMPLETE_URL = '/skulocity/api/v1/public/ecommerce/product/autocomplete';
/** Long enough to skip the keystrokes of a fast typist, short enough to feel immediate. */
const DEBOUNCE_MS = 150;
const MIN_CHARS = 2;
const MAX_QUERY = 100;
const MAX_PRODUCTS = 6;
const MAX_CATEGORIES = 4;

/** The search text of a results URL, if the page is one. */
export function searchTextOf(pathname: string): string | null {
  if (!pathname.startsWith(SEARCH_PREFIX)) return null;
  try {
    return decodeURIComponent(pathname.slice(SEARCH_PREFIX.length));
  } catch {
    return null;
  }
}

interface AutocompleteAnswer {
  data: {
    products: Array<{
      productId: string;
      productName: string;
      slug: string;
      imageUrl: string | null;
      price: number;
      currencyUomId: string;
    }>;
    categories: Array<{ productCategoryId: string; label: string }>;
  };
}

interface Suggestion {
  kind: 'product' | 'category';
  key: string;
  href: string;
  label: string;
  imageUrl?: string | null;
  price?: string;
}

function suggestionsOf({ data }: AutocompleteAnswer): Suggestion[] {
  return [
    ...data.products.slice(0, MAX_PRODUCTS).map(
      (p): Suggestion => ({
        kind: 'product',
        key: `p-${p.productId}`,
        href: `/${p.slug}/${encodeURIComponent(p.productId)}`,
        label: p.productName,
        imageUrl: p.imageUrl,
        price: formatMoney(p.price, p.currencyUomId),
      }),
    ),
    ...data.categories.slice(0, MAX_CATEGORIES).map(
      (c): Suggestion => ({
        kind: 'category',
        key: `c-${c.productCategoryId}`,
        href: `/categories/${encodeURIComponent(c.productCategoryId)}`,
        label: c.label,
      }),
    ),
  ];
}

/**
 * Enter opens /product/search/{text}; an empty value does nothing; the box empties when the shopper
 * leaves the results page. Without JavaScript the form still works: /product/search
 * redirects ?q= to the same URL.
 *
 * With JavaScript it is also a combobox (WAI-ARIA 1.2, list autocomplete): suggestions appear as the
 * shopper types; arrows move through them, Enter opens the highlighted one, Escape closes the list.
 * Focus stays in the input throughout; the highlighted option is announced via aria-activedescendant.
 */
export function SearchBox({ variant }: { variant: 'desktop' | 'mobile' }) {
  const location = useLocation();
  const navigate = useNavigate();
  const current = searchTextOf(location.pathname);
  const [value, setValue] = useState(current ?? '');
  const [items, setItems] = useState<Suggestion[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inflight = useRef<AbortController | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  // What the shopper sees highlighted, for an answer that lands after the arrows moved (below).
  const shownList = useRef({ items, active });
  shownList.current = { items, active };

  const cancel = useCallback(() => {
    clearTimeout(timer.current);
    inflight.current?.abort();
    inflight.current = null;
  }, []);

  const close = useCallback(() => {
    setOpen(false);
    setActive(-1);
  }, []);

  // Another search page (or none): the box shows its text. Not at hydration, where the field may
  // hold what the shopper typed before the app ran (adopted below).
  const shown = useRef(current);
  useEffect(() => {
    if (shown.current === current) return;
    shown.current = current;
    setValue(current ?? '');
  }, [current]);

  // A new page closes the list and forgets answers still on their way (not the first page: its
  // text typed before hydration is being looked up).
  const path = useRef(location.pathname);
  useEffect(() => {
    if (path.current === location.pathname) return;
    path.current = location.pathname;
    cancel();
    close();
  }, [location.pathname, cancel, close]);

  useEffect(() => cancel, [cancel]);

  useValueChangedBeforeHydration(inputRef, value, (typed) => {
    setValue(typed);
    lookup(typed);
  });

  function lookup(text: string) {
    cancel();
    const q = text.trim().slice(0, MAX_QUERY);
    if (q.length < MIN_CHARS) {
      setItems([]);
      close();
      return;
    }
    timer.current = setTimeout(async () => {
      const controller = new AbortController();
      inflight.current = controller;
      try {
        const res = await fetch(`${AUTOCOMPLETE_URL}?q=${encodeURIComponent(q)}`, {
          signal: controller.signal,
          headers: { accept: 'application/json' },
        });
        if (!res.ok) throw new Error(`autocomplete ${res.status}`);
        const next = suggestionsOf((await res.json()) as AutocompleteAnswer);
        if (controller.signal.aborted) return;
        // An answer can land after the shopper arrowed into the list an earlier answer drew (typing
        // "pen", then "d" on a slow network): the suggestion they picked stays picked if it is
        // still offered, so Enter opens what they see highlighted, not a search they did not ask for.
        const picked = shownList.current.items[shownList.current.active]?.key;
        setItems(next);
        setActive(picked ? next.findIndex((x) => x.key === picked) : -1);
        setOpen(next.length > 0);
      } catch {
        // Suggestions are a convenience: on failure the box simply behaves as a plain search box.
        if (controller.signal.aborted) return;
        setItems([]);
        close();
      } finally {
        if (inflight.current === controller) inflight.current = null;
      }
    }, DEBOUNCE_MS);
  }

  function go(item: Suggestion) {
    cancel();
    close();
    setItems([]);
    setValue('');
    navigate(item.href);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    const n = items.length;
    if (e.key === 'ArrowDown' && n > 0) {
      e.preventDefault();
      setOpen(true);
      setActive((a) => (open ? (a + 1) % n : 0));
    } else if (e.key === 'ArrowUp' && n > 0) {
      e.preventDefault();
      setOpen(true);
      setActive((a) => (open && a > 0 ? a - 1 : n - 1));
    } else if (e.key === 'Enter' && open && active >= 0 && items[active]) {
      e.preventDefault();
      go(items[active]);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      close();
    }
  }

  const id = `search-${variant}`;
  const listId = `${id}-listbox`;
  const optionId = (i: number) => `${id}-option-${i}`;
  const products = items.filter((x) => x.kind === 'product');
  const categories = items.filter((x) => x.kind === 'category');

  const option = (item: Suggestion, i: number) => (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard works through the combobox input (aria-activedescendant)
    <div
      key={item.key}
      id={optionId(i)}
      role="option"
      aria-selected={i === active}
      tabIndex={-1}
      // Keeps focus in the input, so the click lands before the list closes on blur.
      onMouseDown={(e) => e.preventDefault()}
      onMouseMove={() => i !== active && setActive(i)}
      onClick={() => go(item)}
      className={`flex cursor-pointer items-center gap-3 px-3 py-2 text-sm ${i === active ? 'bg-slate-100' : ''}`}
      data-testid="search-suggestion"
    >
      {item.kind === 'product' ? (
        <>
          <img
            src={item.imageUrl ?? NO_IMAGE}
            srcSet={mediaSrcSet(item.imageUrl, [160])}
            sizes="40px"
            alt=""
            width={40}
            height={40}
            className="size-10 shrink-0 rounded bg-slate-100 object-cover"
          />
          <span className="min-w-0 flex-1 truncate text-slate-900">{item.label}</span>
          <span className="shrink-0 font-medium text-slate-700">{item.price}</span>
        </>
      ) : (
        <>
          <Tag aria-hidden className="size-4 shrink-0 text-slate-500" />
          <span className="min-w-0 flex-1 truncate text-slate-900">{item.label}</span>
        </>
      )}
    </div>
  );

  return (
    <Form
      method="get"
      action="/product/search"
      role="search"
      className={variant === 'desktop' ? 'relative hidden w-full max-w-xl md:block' : 'relative block w-full md:hidden'}
      onSubmit={(e) => {
        e.preventDefault();
        // The field, not the state: a submit that comes while the app hydrates may come before
        // the field's text typed earlier has been adopted.
        // A pasted tab is white space to the shopper, but a control character the server refuses.
        const text = (inputRef.current?.value ?? value).replace(/\s+/g, ' ').trim();
        if (!text) return;
        cancel();
        close();
        navigate(`${SEARCH_PREFIX}${encodeURIComponent(text)}`);
      }}
    >
      <label htmlFor={id} className="sr-only">
        Search products
      </label>
      <input
        ref={inputRef}
        id={id}
        name="q"
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? optionId(active) : undefined}
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          lookup(e.target.value);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => items.length > 0 && value.trim() && setOpen(true)}
        onBlur={close}
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
      <div
        id={listId}
        role="listbox"
        aria-label="Search suggestions"
        hidden={!open}
        className="absolute inset-x-0 top-full z-50 mt-2 max-h-[70vh] overflow-y-auto rounded-xl border border-slate-200 bg-white py-2 shadow-xl"
        data-testid={`search-listbox-${variant}`}
      >
        {open && products.length > 0 && (
          // biome-ignore lint/a11y/useSemanticElements: a listbox's groups are role=group (a fieldset is a form part)
          <div role="group" aria-label="Products">
            <div aria-hidden className="px-3 pt-1 pb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">
              Products
            </div>
            {products.map((p, i) => option(p, i))}
          </div>
        )}
        {open && categories.length > 0 && (
          // biome-ignore lint/a11y/useSemanticElements: as above
          <div
            role="group"
            aria-label="Categories"
            className={products.length ? 'mt-1 border-t border-slate-100 pt-2' : ''}
          >
            <div aria-hidden className="px-3 pt-1 pb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">
              Categories
            </div>
            {categories.map((c, i) => option(c, products.length + i))}
          </div>
        )}
      </div>
    </Form>
  );
}
