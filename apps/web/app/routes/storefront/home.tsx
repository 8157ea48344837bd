import type { Catalog, ProductSummary } from '@app/contracts';
import { categoryImage, categoryLabel } from '@app/contracts/client';
import { ArrowRight } from 'lucide-react';
import type { CSSProperties } from 'react';
import { Link, useRouteLoaderData } from 'react-router';
import { NO_IMAGE } from '../../components/layout/category-bar';
import { ProductGrid } from '../../components/product/product-card';
import { FIRST_PAINT_IMAGE } from '../../lib/first-paint-image';
import { mediaSrcSet } from '../../lib/media';
import type { loader as rootLoader } from '../../root';
import type { Route } from './+types/home';

export async function loader({ context }: Route.LoaderArgs) {
  const [banners, featured, newest] = await Promise.all([
    context.api.banners(),
    context.api.products({ featured: 'true', pageSize: '8' }),
    context.api.products({ sort: 'newest', pageSize: '8' }),
  ]);
  return { banners, featured: featured.products, newest: newest.products };
}

function ProductShelf({ id, title, products }: { id: string; title: string; products: ProductSummary[] }) {
  if (products.length === 0) return null;
  return (
    <section className="mb-16" aria-labelledby={id} data-testid={id}>
      <h2 id={id} className="mb-6 text-xl font-bold tracking-tight text-slate-900 md:text-2xl">
        {title}
      </h2>
      <ProductGrid products={products} />
    </section>
  );
}

/** Tiles a desktop row holds; catalogs are packed into rows of at most this many. */
const ROW_TILES = 6;

/**
 * Packs catalogs into rows of at most ROW_TILES tiles, each into the first row with room (first
 * fit): a store of many small catalogs (power: six of two to four) then fills every row instead of
 * leaving most of each one empty, and no catalog is left alone on a row of two huge tiles.
 */
function packCatalogRows(catalogs: Catalog[]): Catalog[][] {
  const rows: { used: number; items: Catalog[] }[] = [];
  for (const c of catalogs) {
    const n = Math.min(ROW_TILES, c.categoryList.length);
    if (n === 0) continue;
    const row = rows.find((r) => r.used + n <= ROW_TILES);
    if (row) {
      row.items.push(c);
      row.used += n;
    } else rows.push({ used: n, items: [c] });
  }
  return rows.map((r) => r.items);
}

function CategorySections({ catalogs }: { catalogs: Catalog[] }) {
  return (
    <div className="mb-16 space-y-12" data-testid="home-categories">
      {packCatalogRows(catalogs).map((row) => (
        // On a large screen the catalogs of a row share it in proportion to their tiles, so every
        // tile of the row has the same size and the row ends at the right edge.
        <div key={row.map((c) => c.prodCatalogId).join()} className="flex flex-col gap-12 lg:flex-row lg:gap-6">
          {row.map((catalog) => {
            const cats = catalog.categoryList.slice(0, ROW_TILES);
            return (
              <section
                key={catalog.prodCatalogId}
                className="min-w-0"
                style={{ flex: `${cats.length} 1 0` }}
                aria-labelledby={`cat-${catalog.prodCatalogId}`}
                data-testid="home-catalog"
              >
                <h2
                  id={`cat-${catalog.prodCatalogId}`}
                  className="mb-5 text-xl font-bold tracking-tight text-slate-900 md:text-2xl"
                >
                  {catalog.catalogName}
                </h2>
                {/* A phone swipes through the tiles (as Dawn's collection list does); wider screens
                    give each tile an equal share of the row. */}
                <ul
                  className="-mx-4 flex snap-x gap-3 overflow-x-auto px-4 pb-2 sm:mx-0 sm:grid sm:grid-cols-[repeat(var(--tiles),minmax(0,1fr))] sm:gap-4 sm:overflow-visible sm:px-0 sm:pb-0"
                  style={{ '--tiles': cats.length } as CSSProperties}
                >
                  {cats.map((c) => (
                    <li
                      key={c.productCategoryId}
                      className={`shrink-0 snap-start sm:w-auto ${cats.length > 2 ? 'w-[42%]' : 'w-[calc(50%-0.375rem)]'}`}
                      data-testid="home-category-tile"
                    >
                      <Link to={`/categories/${c.productCategoryId}`} className="group block">
                        <div className="aspect-[4/3] overflow-hidden rounded-xl bg-slate-100">
                          <img
                            src={categoryImage(c) ?? NO_IMAGE}
                            srcSet={mediaSrcSet(categoryImage(c), [160, 320, 480])}
                            sizes="(min-width: 1024px) 200px, (min-width: 640px) 33vw, 50vw"
                            alt=""
                            width={300}
                            height={225}
                            loading="lazy"
                            className="h-full w-full object-cover transition-transform duration-300 group-hover:scale-105"
                          />
                        </div>
                        <p className="mt-2 text-sm font-medium text-slate-800 group-hover:text-brand">
                          {categoryLabel(c)}
                        </p>
                      </Link>
                    </li>
                  ))}
                </ul>
              </section>
            );
          })}
        </div>
      ))}
    </div>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const [hero, ...rest] = loaderData.banners;
  const catalogs = root?.shell.main.catalogCol ?? [];
  return (
    <>
      {hero && (
        <section className="relative overflow-hidden bg-dark" aria-label="Featured">
          <img
            src={hero.imageUrl}
            srcSet={mediaSrcSet(hero.imageUrl, [640, 800, 1200, 1600])}
            sizes="100vw"
            alt={hero.altText}
            width={1600}
            height={600}
            {...FIRST_PAINT_IMAGE}
            className="absolute inset-0 h-full w-full object-cover object-right opacity-90"
          />
          {/* On a phone the text covers the picture: a stronger scrim keeps it readable. */}
          <div className="absolute inset-0 bg-gradient-to-r from-black/80 via-black/60 to-black/30 md:from-black/70 md:via-black/40 md:to-transparent" />
          <div className="relative mx-auto flex min-h-[320px] max-w-7xl flex-col justify-center px-4 py-16 md:min-h-[420px]">
            <h1 className="max-w-xl text-3xl font-bold tracking-tight text-white md:text-5xl">{hero.title}</h1>
            {hero.subtitle && <p className="mt-4 max-w-lg text-base text-white/90 md:text-lg">{hero.subtitle}</p>}
            {hero.linkUrl && (
              <Link
                to={hero.linkUrl}
                className="mt-8 inline-flex h-12 w-fit items-center gap-2 rounded-md bg-action px-6 text-sm font-semibold text-white hover:opacity-90"
              >
                {hero.ctaLabel ?? 'Shop now'}
                <ArrowRight aria-hidden className="size-4" />
              </Link>
            )}
          </div>
        </section>
      )}
      <div className="mx-auto max-w-7xl px-4 py-12">
        <ProductShelf id="featured" title="Featured" products={loaderData.featured} />
        <CategorySections catalogs={catalogs} />
        <ProductShelf id="new-arrivals" title="New arrivals" products={loaderData.newest} />
        {rest.length > 0 && (
          <section className="grid gap-4 md:grid-cols-2" aria-label="Promotions">
            {rest.map((b) => (
              <Link
                key={b.bannerId}
                to={b.linkUrl ?? '/'}
                className="group relative block overflow-hidden rounded-2xl bg-dark"
              >
                <img
                  src={b.imageUrl}
                  srcSet={mediaSrcSet(b.imageUrl, [480, 800, 1200])}
                  sizes="(min-width: 768px) 50vw, 100vw"
                  alt={b.altText}
                  width={800}
                  height={300}
                  loading="lazy"
                  className="h-48 w-full object-cover opacity-90 transition-transform duration-300 group-hover:scale-105 md:h-56"
                />
                <div className="absolute inset-0 bg-gradient-to-r from-black/65 to-transparent" />
                <div className="absolute inset-0 flex flex-col justify-center p-6">
                  <h2 className="text-xl font-bold text-white md:text-2xl">{b.title}</h2>
                  {b.subtitle && <p className="mt-1 max-w-xs text-sm text-white/90">{b.subtitle}</p>}
                  {b.ctaLabel && (
                    <span className="mt-4 text-sm font-semibold text-white underline underline-offset-4">
                      {b.ctaLabel}
                    </span>
                  )}
                </div>
              </Link>
            ))}
          </section>
        )}
      </div>
    </>
  );
}
