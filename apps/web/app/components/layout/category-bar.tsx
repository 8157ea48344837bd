import type { Catalog, CmsPage } from '@app/contracts';
import { categoryImage, categoryLabel } from '@app/contracts/client';
import { ChevronDown } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { mediaSrcSet } from '../../lib/media';

export const NO_IMAGE = '/no-product-image.svg';
const MORE = '__more__';
/** The first four overlays open to the right, the rest to the left. */
const RIGHT_OPENING = 4;

const overlayId = (i: number) => `category-overlay-${i}`;

/**
 * One tab per catalog. A tab opens an overlay of its categories; the selected tab closes it; another
 * tab switches; Escape or a click outside closes it. Plain HTML does all of that: each overlay is an
 * auto popover (auto popovers close each other) opened by its tab's `popovertarget`, placed under
 * its tab by CSS anchor positioning and styled by app.css (`.category-overlay`: the markup, sent for
 * every overlay, stays light), and the open tab is styled by CSS
 * (`:has(+ :popover-open)`). So the bar works before the app has loaded and without JavaScript.
 * React only follows along: it learns which overlay is open from the popovers' `toggle` events, moves
 * focus into the overlay, and closes it on navigation.
 */
export function CategoryBar({ catalogs, pages }: { catalogs: Catalog[]; pages: CmsPage[] }) {
  const [open, setOpen] = useState<string | null>(null);
  const barRef = useRef<HTMLDivElement>(null);
  const location = useLocation();
  const path = useRef(location.pathname);
  const menuPages = pages.filter((p) => p.pageLinks.includes('MENU'));

  useEffect(() => {
    const bar = barRef.current;
    if (!bar) return;
    // `toggle` does not bubble: listen in the capture phase.
    const onToggle = (e: Event) => {
      const tab = (e.target as HTMLElement).dataset.tab;
      if (!tab) return;
      if ((e as ToggleEvent).newState === 'open') setOpen(tab);
      else setOpen((current) => (current === tab ? null : current));
    };
    bar.addEventListener('toggle', onToggle, true);
    // An overlay opened before the app ran.
    const already = bar.querySelector<HTMLElement>('[data-tab]:popover-open');
    if (already) setOpen(already.dataset.tab ?? null);
    return () => bar.removeEventListener('toggle', onToggle, true);
  }, []);

  useEffect(() => {
    if (path.current === location.pathname) return;
    path.current = location.pathname;
    barRef.current?.querySelector<HTMLElement>('[data-tab]:popover-open')?.hidePopover();
  }, [location.pathname]);

  useEffect(() => {
    if (!open) return;
    barRef.current?.querySelector<HTMLElement>('[data-tab]:popover-open')?.querySelector<HTMLElement>('a')?.focus();
  }, [open]);

  const tabs = [
    ...catalogs.map((c) => ({ id: c.prodCatalogId, label: c.catalogName, catalog: c as Catalog | undefined })),
    ...(menuPages.length ? [{ id: MORE, label: 'More', catalog: undefined }] : []),
  ];

  return (
    <div ref={barRef} className="relative border-b border-slate-200 bg-white" data-testid="category-bar">
      <nav aria-label="Catalogs" className="mx-auto max-w-7xl px-2 md:px-4">
        <ul className="flex gap-1 overflow-x-auto [scrollbar-width:none]">
          {tabs.map(({ id, label, catalog }, i) => {
            const selected = open === id;
            return (
              <li key={id} className="shrink-0">
                <button
                  type="button"
                  popoverTarget={overlayId(i)}
                  aria-expanded={selected || undefined}
                  aria-controls={selected ? overlayId(i) : undefined}
                  style={{ anchorName: `--category-tab-${i}` }}
                  className="category-tab flex items-center gap-1 border-b-2 border-transparent px-3 py-3 text-sm font-medium whitespace-nowrap text-slate-700 transition-colors hover:text-brand"
                >
                  {label}
                  <ChevronDown aria-hidden className="size-4 transition-transform" />
                </button>
                <section
                  id={overlayId(i)}
                  popover="auto"
                  data-tab={id}
                  data-testid={selected ? 'category-overlay' : undefined}
                  data-direction={i < RIGHT_OPENING ? 'right' : 'left'}
                  aria-label={catalog ? `${catalog.catalogName} categories` : 'More pages'}
                  style={{ positionAnchor: `--category-tab-${i}` }}
                  className="category-overlay"
                >
                  {catalog ? (
                    catalog.categoryList.length ? (
                      <ul>
                        {catalog.categoryList.map((c) => (
                          <li key={c.productCategoryId}>
                            <Link
                              to={`/categories/${c.productCategoryId}`}
                              data-testid={selected ? 'overlay-category' : undefined}
                            >
                              <img
                                src={categoryImage(c) ?? NO_IMAGE}
                                srcSet={mediaSrcSet(categoryImage(c), [160])}
                                sizes="56px"
                                alt=""
                                loading="lazy"
                              />
                              <span>{categoryLabel(c)}</span>
                            </Link>
                          </li>
                        ))}
                      </ul>
                    ) : (
                      <p className="p-2 text-slate-600">No categories in this catalog yet.</p>
                    )
                  ) : (
                    <ul>
                      {menuPages.map((p) => (
                        <li key={p.id}>
                          <Link to={`/page/details/${p.pageUrl}`}>{p.pageTitle}</Link>
                        </li>
                      ))}
                    </ul>
                  )}
                </section>
              </li>
            );
          })}
        </ul>
      </nav>
    </div>
  );
}
