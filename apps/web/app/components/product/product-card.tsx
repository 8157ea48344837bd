import type { ProductSummary } from '@app/contracts';
import { productDisplayImage } from '@app/contracts/client';
import { Link } from 'react-router';
import { FIRST_PAINT_IMAGE } from '../../lib/first-paint-image';
import { mediaSrcSet } from '../../lib/media';
import { Price } from './price';
import { RatingStars } from './rating-stars';
import { WishlistHeart } from './wishlist-heart';

export const NO_PRODUCT_IMAGE = '/no-product-image.svg';
const CARD_WIDTHS = [160, 320, 480, 640] as const;

export function productHref(p: Pick<ProductSummary, 'slug' | 'productId'>): string {
  return `/${p.slug}/${encodeURIComponent(p.productId)}`;
}

export function isOnSale(p: Pick<ProductSummary, 'salePrice' | 'listPrice'>): boolean {
  return p.salePrice != null && p.salePrice < p.listPrice;
}

function Badge({ tone, children }: { tone: 'dark' | 'warn' | 'sale'; children: string }) {
  const cls = {
    dark: 'bg-slate-900 text-white',
    warn: 'bg-amber-100 text-amber-900',
    sale: 'bg-red-700 text-white',
  }[tone];
  return (
    <span className={`rounded-full px-2.5 py-1 text-xs font-semibold whitespace-nowrap ${cls}`} data-testid="badge">
      {children}
    </span>
  );
}

/** The stock and sale badges of a product, most important first. */
export function StockBadges({ product }: { product: ProductSummary }) {
  if (!product.inStock) return <Badge tone="dark">Sold out</Badge>;
  return (
    <>
      {isOnSale(product) && <Badge tone="sale">Sale</Badge>}
      {product.lowStock != null && <Badge tone="warn">{`Only ${product.lowStock} left`}</Badge>}
    </>
  );
}

/**
 * Dawn's card: a square picture (fixed ratio, so nothing moves as pictures arrive), brand, name,
 * rating and price. The whole card is one link, drawn by the name's link stretched over it.
 */
export function ProductCard({
  product,
  sizes = '(min-width: 1024px) 25vw, (min-width: 768px) 33vw, 50vw',
  eager = false,
}: {
  product: ProductSummary;
  sizes?: string;
  eager?: boolean;
}) {
  const image = productDisplayImage(product);
  return (
    <article
      className="group relative flex h-full flex-col rounded-lg has-[a:focus-visible]:ring-2 has-[a:focus-visible]:ring-action has-[a:focus-visible]:ring-offset-4"
      data-testid="product-card"
      data-product-id={product.productId}
    >
      <div className="relative aspect-square overflow-hidden rounded-lg bg-slate-100">
        <img
          src={image ?? NO_PRODUCT_IMAGE}
          srcSet={mediaSrcSet(image, CARD_WIDTHS)}
          sizes={sizes}
          alt=""
          width={480}
          height={480}
          loading={eager ? 'eager' : 'lazy'}
          {...(eager ? FIRST_PAINT_IMAGE : {})}
          decoding="async"
          className={`h-full w-full object-cover transition-transform duration-500 group-hover:scale-[1.04] ${product.inStock ? '' : 'opacity-70'}`}
        />
        {/* Stops short of the wishlist heart (top right): on a narrow card a second badge wraps
            below the first instead of sliding under the heart. */}
        <div className="absolute top-2 right-12 left-2 flex flex-wrap items-start gap-1.5">
          <StockBadges product={product} />
        </div>
      </div>
      <div className="mt-3 flex flex-1 flex-col gap-1">
        {product.brandName && (
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{product.brandName}</p>
        )}
        <h3 className="text-[15px] leading-snug font-medium text-slate-900">
          <Link
            to={productHref(product)}
            prefetch="intent"
            className="underline-offset-4 after:absolute after:inset-0 group-hover:underline focus-visible:outline-none"
            data-testid="product-card-link"
          >
            {product.productName}
          </Link>
        </h3>
        {product.rating.count > 0 && <RatingStars average={product.rating.average} count={product.rating.count} />}
        <div className="mt-auto pt-1">
          <Price
            price={product.price}
            compareAt={isOnSale(product) ? product.listPrice : null}
            currency={product.currencyUomId}
            from={product.priceMax != null}
          />
        </div>
      </div>
      {/* Last in the markup (the card's own link comes first), drawn over the picture's corner and
          above the link stretched across the card. */}
      <div className="absolute top-2 right-2 z-10">
        <WishlistHeart productId={product.productId} productName={product.productName} variant="icon" />
      </div>
    </article>
  );
}

export function ProductGrid({
  products,
  columns = 4,
  eagerCount = 0,
}: {
  products: ProductSummary[];
  /** Columns on a wide screen: 3 next to a filter sidebar, 4 on a full-width page. */
  columns?: 3 | 4;
  /**
   * Cards above the fold load at once and first: they are the page's largest paint, and the app
   * starts only once those on screen have been presented (paint-first.ts).
   */
  eagerCount?: number;
}) {
  const grid = columns === 3 ? 'lg:grid-cols-3' : 'md:grid-cols-3 lg:grid-cols-4';
  const sizes =
    columns === 3
      ? '(min-width: 1280px) 300px, (min-width: 1024px) 25vw, 50vw'
      : '(min-width: 1280px) 300px, (min-width: 1024px) 25vw, (min-width: 768px) 33vw, 50vw';
  return (
    <ul className={`grid grid-cols-2 gap-x-4 gap-y-8 md:gap-x-6 ${grid}`} data-testid="product-grid">
      {products.map((p, i) => (
        <li key={p.productId}>
          <ProductCard product={p} sizes={sizes} eager={i < eagerCount} />
        </li>
      ))}
    </ul>
  );
}
