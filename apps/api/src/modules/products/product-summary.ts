/** A product row as shoppers see it: the card's summary, the product page's details, the gallery's fallback. */
import {
  categoryLabel,
  isDisplayableImage,
  type ProductDetails,
  type ProductSummary,
  type ProductVariant,
} from '@app/contracts';
import { schema } from '@app/db';
import type { TenantContext } from '../../lib/context';
import { absoluteMediaUrl } from '../../lib/urls';
import type { DetailsCardRow, DetailsRow, DetailsVariantRow } from './product-details';

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
  priceMax: p.priceMax,
  variantCount: p.variantCount,
  sellableStock: p.sellableStock,
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
  const out: { url: string; altText: null; mediaId: null }[] = [];
  for (const u of [s.detailImageUrl, s.mediumImageUrl, s.smallImageUrl]) {
    if (!isDisplayableImage(u)) continue;
    const key = u.replace(/[?#].*$/, '').replace(/[-_](small|medium|detail|large|thumb)(\.\w+)$/i, '$2');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ url: u, altText: null, mediaId: null });
  }
  return out;
}

/**
 * What can be sold of a product. With several variants, the stock of its enabled live variants
 * (decision 112): a product is sold out only when every variant is. With one, its own count, which
 * is that variant's: read as before variants, so tests, benches and tools that stage a count on the
 * product row (without variants, or around the books) see what they always saw.
 */
const sellableOf = (r: Pick<SummaryRow, 'variantCount' | 'sellableStock' | 'stockQuantity'>) =>
  r.variantCount > 1 ? r.sellableStock : r.stockQuantity;

/** A product card as shoppers see it: display prices, "from", stock as "in stock" and "only N left". */
export function summaryOf(
  ctx: TenantContext,
  r: SummaryRow | DetailsCardRow,
  rating: Rating,
  low: number,
): ProductSummary {
  const price = r.effectivePrice ?? r.salePrice ?? r.listPrice;
  const sellable = sellableOf(r);
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
    price,
    currencyUomId: r.currencyUomId,
    inStock: sellable > 0,
    lowStock: sellable > 0 && sellable <= low ? sellable : null,
    productType: r.productType,
    rating,
    // The product's list and sale prices are its cheapest variant's, so `price` is the "from" price.
    priceMax: r.priceMax > price ? r.priceMax : null,
    variantCount: r.variantCount,
  };
}

export const roundRating = (average: number) => Math.round(average * 10) / 10;

/** A variant as the product page offers it. */
function variantOf(v: DetailsVariantRow, options: number, low: number): ProductVariant {
  return {
    variantId: v.variantId,
    title: v.title,
    valueIds: v.valueIds.slice(0, options).map((id) => id ?? ''),
    sku: v.sku,
    barcode: v.barcode ?? null,
    listPrice: v.listPrice,
    salePrice: v.salePrice !== null && v.salePrice < v.listPrice ? v.salePrice : null,
    price: v.effectivePrice,
    available: v.stockQuantity > 0,
    lowStock: v.stockQuantity > 0 && v.stockQuantity <= low ? v.stockQuantity : null,
    imageIds: v.imageIds,
  };
}

/**
 * The variant a page shows: the one asked for when the product offers it; otherwise (none asked, an
 * id unknown, removed, disabled or another product's: an old link must not be a dead end) the first
 * that can be bought, else the first. A product row without variants answers its own id, which is
 * its default variant's.
 */
export function selectVariant(details: Pick<ProductDetails, 'productId' | 'variants'>, variantId?: string): string {
  const vs = details.variants;
  if (variantId && vs.some((v) => v.variantId === variantId)) return variantId;
  return (vs.find((v) => v.available) ?? vs[0])?.variantId ?? details.productId;
}

/** The product page from the one statement's row, the default variant selected. */
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
  const variants = row.variants.map((v) => variantOf(v, row.variantOptions.length, low));
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
          mediaId: i.mediaId,
        }))
      : fallbackImages(summary),
    status: row.status,
    options: row.variantOptions,
    variants,
    selectedVariantId: selectVariant({ productId: row.productId, variants }),
  };
}
