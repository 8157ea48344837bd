/** A product row as shoppers see it: the card's summary, the product page's details, the gallery's fallback. */
import { categoryLabel, isDisplayableImage, type ProductDetails, type ProductSummary } from '@app/contracts';
import { schema } from '@app/db';
import type { TenantContext } from '../../lib/context';
import { absoluteMediaUrl } from '../../lib/urls';
import type { DetailsCardRow, DetailsRow } from './product-details';

const p = schema.products;

export type Row = typeof p.$inferSelect;
export const summaryColumns = {
  productId: p.productId,
  productName: p.productName,
  slug: p.slug,
  brandName: p.brandName,
  smallImageUrl: p.smallImageUrl,
  mediumImageUrl: p.mediumImageUrl,
  detailImageUrl: p.detailImageUrl,
  listPrice: p.listPrice,
  salePrice: p.salePrice,
  effectivePrice: p.effectivePrice,
  currencyUomId: p.currencyUomId,
  stockQuantity: p.stockQuantity,
  productType: p.productType,
};
export type SummaryRow = Pick<Row, keyof typeof summaryColumns>;

export type Rating = { average: number | null; count: number };
export const NO_RATING: Rating = { average: null, count: 0 };

/**
 * The gallery of a product without pictures of its own: its detail, medium and small image URLs,
 * largest first, that are displayable (http, or the store's /media/ paths, made absolute before).
 * The three are often one photograph at three sizes ("x-small.webp", "x-detail.webp"): those count
 * once, so the page shows no row of identical thumbnails. Computed here, not in the page, so the
 * storefront's JavaScript does not carry it.
 */
export function fallbackImages(s: Pick<ProductSummary, 'smallImageUrl' | 'mediumImageUrl' | 'detailImageUrl'>) {
  const seen = new Set<string>();
  const out: { url: string; altText: null }[] = [];
  for (const u of [s.detailImageUrl, s.mediumImageUrl, s.smallImageUrl]) {
    if (!isDisplayableImage(u)) continue;
    const key = u.replace(/[?#].*$/, '').replace(/[-_](small|medium|detail|large|thumb)(\.\w+)$/i, '$2');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ url: u, altText: null });
  }
  return out;
}

/** A product card as shoppers see it: display prices, stock as "in stock" and "only N left". */
export function summaryOf(
  ctx: TenantContext,
  r: SummaryRow | DetailsCardRow,
  rating: Rating,
  low: number,
): ProductSummary {
  return {
    productId: r.productId,
    productName: r.productName,
    slug: r.slug,
    brandName: r.brandName,
    smallImageUrl: absoluteMediaUrl(ctx, r.smallImageUrl),
    mediumImageUrl: absoluteMediaUrl(ctx, r.mediumImageUrl),
    detailImageUrl: absoluteMediaUrl(ctx, r.detailImageUrl),
    listPrice: r.listPrice,
    salePrice: r.salePrice !== null && r.salePrice < r.listPrice ? r.salePrice : null,
    price: r.effectivePrice ?? r.salePrice ?? r.listPrice,
    currencyUomId: r.currencyUomId,
    inStock: r.stockQuantity > 0,
    lowStock: r.stockQuantity > 0 && r.stockQuantity <= low ? r.stockQuantity : null,
    productType: r.productType,
    rating,
  };
}

export const roundRating = (average: number) => Math.round(average * 10) / 10;

/** The product page from the one statement's row. */
export function detailsOf(ctx: TenantContext, row: DetailsRow, low: number): ProductDetails {
  const distribution = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  let sum = 0;
  let count = 0;
  for (const d of row.distribution) {
    distribution[d.rating as 1 | 2 | 3 | 4 | 5] = d.n;
    sum += d.rating * d.n;
    count += d.n;
  }
  const average = count ? roundRating(sum / count) : null;
  const summary = summaryOf(ctx, row, count ? { average, count } : NO_RATING, low);
  const cards = (type: 'RELATED' | 'ACCESSORY') =>
    row.related
      .filter((r) => r.type === type)
      .map((r) =>
        summaryOf(
          ctx,
          r,
          r.ratingCount ? { average: roundRating(Number(r.ratingAverage)), count: r.ratingCount } : NO_RATING,
          low,
        ),
      );
  return {
    ...summary,
    sku: row.sku,
    shortDescription: row.shortDescription,
    description: row.description,
    weightGrams: row.weightGrams,
    features: row.features,
    configOptions: row.options,
    contents: row.contents.map((c) => ({
      ...c,
      downloadUrl: `${ctx.origin}/skulocity/api/v1/catalog/product/items/downloadProdContent?productId=${encodeURIComponent(row.productId)}&contentId=${encodeURIComponent(c.contentId)}`,
    })),
    related: cards('RELATED'),
    accessories: cards('ACCESSORY'),
    reviewSummary: {
      average,
      count,
      distribution,
      latest: row.latest.map((r) => ({
        authorName: r.authorName,
        rating: r.rating,
        title: r.title,
        body: r.body,
        createdAt: new Date(r.createdAt).toISOString(),
        reply: r.replyBody && r.repliedAt ? { text: r.replyBody, at: new Date(r.repliedAt).toISOString() } : null,
      })),
    },
    breadcrumb: row.crumbs.map((c) => ({ productCategoryId: c.productCategoryId, label: categoryLabel(c) })),
    images: row.images.length
      ? row.images.map((i) => ({
          url: absoluteMediaUrl(ctx, `/media/${i.storageKey}`) as string,
          altText: i.altText?.trim() || i.mediaAlt?.trim() || null,
        }))
      : fallbackImages(summary),
    status: row.status,
  };
}
