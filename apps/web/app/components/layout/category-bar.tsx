import type { Catalog, CmsPage } from '@app/contracts';
import { categoryImage, categoryLabel } from '@app/contracts/client';
import { ChevronDown } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { mediaSrcSet } from '../../lib/media';

export const NO_IMAGE = '/no-product-image.svg';
const MORE = '__more__';
/** SPEC.md section 9: the first four overlays open to the right, the rest to the left. */
const RIGHT_OPENING = 4;

interface Anchor {
  left: number;
  right: number;
}

/**
 * One tab per catalog. A tab opens an overlay of its categories; the selected tab closes it; another
 * tab switches. Focus moves into the overlay; Escape, a click outside or navigation closes it.
 */
export function CategoryBar({ catalogs, pages }: { catalogs: Catalog[]; pages: CmsPage[] }) {
  const [open, setOpen] = useState<string | null>(null);
  const [anchor, setAnchor] = useState<Anchor>({ left: 0, right: 0 });
  const barRef = useRef<HTMLDivElement>(null);
  const overlayRef = useRef<HTMLDivElement>(null);
  const openerRef = useRef<HTMLButtonElement | null>(null);
  const location = useLocation();
  const menuPages = pages.filter((p) => p.pageLinks.includes('MENU'));

  const close = useCallback((restoreFocus: boolean) => {
    setOpen(null);
    if (restoreFocus) openerRef.current?.focus();
  }, []);

  useEffect(() => setOpen(null), [location.pathname]);

  useEffect(() => {
    if (!open) return;
    overlayRef.current?.querySelector<HTMLElement>('a, button')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close(true);
    };
    const onDown = (e: MouseEvent) => {
      if (!barRef.current?.contains(e.target as Node)) close(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onDown);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onDown);
    };
  }, [open, close]);

  const toggle = (id: string, button: HTMLButtonElement) => {
    if (open === id) return close(false);
    const bar = barRef.current?.getBoundingClientRect();
    const tab = button.getBoundingClientRect();
    if (bar) setAnchor({ left: tab.left - bar.left, right: bar.right - tab.right });
    openerRef.current = button;
    setOpen(id);
  };

  const tabs = [
    ...catalogs.map((c) => ({ id: c.prodCatalogId, label: c.catalogName })),
    ...(menuPages.length ? [{ id: MORE, label: 'More' }] : []),
  ];
  const index = tabs.findIndex((t) => t.id === open);
  const direction = index >= 0 && index < RIGHT_OPENING ? 'right' : 'left';
  const catalog = catalogs.find((c) => c.prodCatalogId === open);

  return (
    <div ref={barRef} className="relative border-b border-slate-200 bg-white" data-testid="category-bar">
      <nav aria-label="Catalogs" className="mx-auto max-w-7xl px-2 md:px-4">
        <ul className="flex gap-1 overflow-x-auto [scrollbar-width:none]">
          {tabs.map((t) => {
            const selected = open === t.id;
            return (
              <li key={t.id} className="shrink-0">
                <button
                  type="button"
                  aria-expanded={selected}
                  aria-controls={selected ? 'category-overlay' : undefined}
                  onClick={(e) => toggle(t.id, e.currentTarget)}
                  className={`flex items-center gap-1 border-b-2 px-3 py-3 text-sm font-medium whitespace-nowrap transition-colors ${
                    selected ? 'border-brand text-brand' : 'border-transparent text-slate-700 hover:text-brand'
                  }`}
                >
                  {t.label}
                  <ChevronDown aria-hidden className={`size-4 transition-transform ${selected ? 'rotate-180' : ''}`} />
                </button>
              </li>
            );
          })}
        </ul>
      </nav>
      {open && (
        <section
          id="category-overlay"
          ref={overlayRef}
          data-testid="category-overlay"
          data-direction={direction}
          aria-label={catalog ? `${catalog.catalogName} categories` : 'More pages'}
          style={direction === 'right' ? { left: anchor.left } : { right: anchor.right }}
          className="absolute top-full z-40 mt-px max-md:!right-2 max-md:!left-2 w-auto md:w-[36rem] md:max-w-[calc(100vw-2rem)] rounded-b-xl border border-slate-200 bg-white p-4 shadow-xl"
        >
          {catalog ? (
            catalog.categoryList.length ? (
              <ul className="grid grid-cols-1 gap-1 sm:grid-cols-2">
                {catalog.categoryList.map((c) => (
                  <li key={c.productCategoryId}>
                    <Link
                      to={`/categories/${c.productCategoryId}`}
                      className="flex items-center gap-3 rounded-lg p-2 hover:bg-brand-xlight"
                      data-testid="overlay-category"
                    >
                      <img
                        src={categoryImage(c) ?? NO_IMAGE}
                        srcSet={mediaSrcSet(categoryImage(c), [160])}
                        sizes="56px"
                        alt=""
                        width={56}
                        height={56}
                        loading="lazy"
                        className="size-14 shrink-0 rounded-md bg-slate-100 object-cover"
                      />
                      <span className="text-sm font-medium text-slate-800">{categoryLabel(c)}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="p-2 text-sm text-slate-600">No categories in this catalog yet.</p>
            )
          ) : (
            <ul className="grid grid-cols-1 gap-1 sm:grid-cols-2">
              {menuPages.map((p) => (
                <li key={p.id}>
                  <Link
                    to={`/page/details/${p.pageUrl}`}
                    className="block rounded-lg p-3 text-sm font-medium text-slate-800 hover:bg-brand-xlight"
                  >
                    {p.pageTitle}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
