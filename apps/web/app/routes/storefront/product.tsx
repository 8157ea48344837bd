import type { FormOutcome, ProductDetails, ReviewField, ShellData } from '@app/contracts';
import { decimalAmount, productDisplayImage } from '@app/contracts/client';
import { CircleCheck, CircleX, Download, TriangleAlert } from 'lucide-react';
import { useEffect, useState } from 'react';
import { data, redirect, useRouteLoaderData } from 'react-router';
import { ProductGrid, productHref } from '../../components/product/product-card';
import { ProductGallery } from '../../components/product/product-gallery';
import { PurchaseForm } from '../../components/product/purchase-form';
import { RatingStars } from '../../components/product/rating-stars';
import { Reviews } from '../../components/product/reviews';
import { optionField, VariantPicker, VariantShowForm, variantFor } from '../../components/product/variant-picker';
import { WishlistHeart } from '../../components/product/wishlist-heart';
import { Breadcrumbs, PageContainer } from '../../components/ui/page';
import { jsonLdHtml } from '../../lib/json-ld';
import { withRootMeta } from '../../lib/meta';
import { useNonce } from '../../lib/nonce';
import { useActionToast } from '../../lib/use-action-toast';
import type { loader as rootLoader } from '../../root';
import type { Route } from './+types/product';

const ID = /^[A-Za-z0-9_.-]{1,64}$/;

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // ?variant= selects the variant shown; one the product does not offer shows the default (no 404).
  const asked = url.searchParams.get('variant') ?? url.searchParams.get('variantId') ?? '';
  const product = ID.test(params.productId)
    ? await context.api.product(params.productId, ID.test(asked) ? asked : undefined)
    : null;
  if (!product) throw data(null, { status: 404 });
  if (product.slug !== params.slug) {
    // An old or mistyped slug: one address per product, the query string kept (campaign tags).
    throw redirect(`${productHref(product)}${url.search}`, 301);
  }
  if (product.options.some((o) => url.searchParams.has(optionField(o.optionId)))) {
    // The picker's "Show" without JavaScript: the chosen values (and the variant shown before, to
    // tell which value changed) become the variant's own address, so the page, a reload and a
    // shared link show it. The purchase form's other fields are not carried over.
    const before = product.variants.find((v) => v.variantId === product.selectedVariantId);
    const values = product.options.map((o) => url.searchParams.get(optionField(o.optionId)));
    const changed = values.findIndex((id, i) => id !== before?.valueIds[i]);
    const chosen = variantFor(product, values, changed < 0 ? undefined : changed);
    throw redirect(variantHref(product, chosen?.variantId ?? product.selectedVariantId), 303);
  }
  // Per shopper, so never part of the cached product answer.
  const review = await context.api.reviewEligibility(product.productId);
  return { product, review };
}

/** The product page's own form: a review (intent 'review'). Cart and wishlist forms post elsewhere. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData();
  const text = (name: string, max: number) => String(form.get(name) ?? '').slice(0, max);
  if (text('intent', 20) !== 'review') {
    const unknown: FormOutcome<ReviewField> = { ok: false, status: 400, message: 'Unknown action.', fieldErrors: {} };
    return data({ result: unknown }, { status: 400 });
  }
  // A little over the limits, so that a too-long text is refused by name rather than cut.
  const result = await context.api.writeReview({
    productId: params.productId.slice(0, 64),
    rating: text('rating', 4),
    title: text('title', 200),
    text: text('text', 4100),
  });
  return data({ result }, result.ok ? undefined : { status: result.status });
}

type RootData = Awaited<ReturnType<typeof rootLoader>>;

/** A variant's address: the product page with ?variant=, or the product page for its only variant. */
function variantHref(p: Pick<ProductDetails, 'slug' | 'productId' | 'variants'>, variantId: string): string {
  return p.variants.length > 1 ? `${productHref(p)}?variant=${encodeURIComponent(variantId)}` : productHref(p);
}

function siteUrl(shell: ShellData | undefined): string {
  return `https://${shell?.tenant.hostName ?? ''}`;
}

export function meta({ data: d, matches }: Route.MetaArgs) {
  const root = matches.find((m) => m?.id === 'root')?.data as RootData | undefined;
  const storeName = root?.shell.store.storeName ?? '';
  if (!d) return withRootMeta(matches, [{ title: `Product not found | ${storeName}` }]);
  const p = d.product;
  const title = `${p.productName} | ${storeName}`;
  const description = p.shortDescription ?? '';
  const url = `${siteUrl(root?.shell)}${productHref(p)}`;
  const image = productDisplayImage(p);
  return withRootMeta(matches, [
    { title },
    { name: 'description', content: description },
    // A draft or archived product reaches only its owner (a preview): never indexed.
    ...(p.status === 'ACTIVE' ? [] : [{ name: 'robots', content: 'noindex' }]),
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:type', content: 'product' },
    { property: 'og:title', content: title },
    { property: 'og:description', content: description },
    { property: 'og:url', content: url },
    ...(image ? [{ property: 'og:image', content: image }] : []),
  ]);
}

const SCHEMA = 'https://schema.org';

/** An Offer: the price shown, the availability, where to buy it. */
const offerOf = (price: number, currency: string, inStock: boolean, url: string) => ({
  '@type': 'Offer',
  price: decimalAmount(price, currency),
  priceCurrency: currency,
  availability: `${SCHEMA}/${inStock ? 'InStock' : 'OutOfStock'}`,
  url,
});

/** A barcode as schema.org's `gtin` (8 to 14 digits, as the variant's input takes it). */
const gtinOf = (barcode: string | null | undefined) => (barcode ? { gtin: barcode } : {});

/** Options named as schema.org names what products of a group vary by; others are not listed. */
const VARIES_BY: Record<string, string> = {
  colour: 'color',
  color: 'color',
  size: 'size',
  material: 'material',
  pattern: 'pattern',
};

function structuredData(p: ProductDetails & { descriptionText: string | null }, base: string) {
  const url = `${base}${productHref(p)}`;
  const image = productDisplayImage(p);
  // Several variants: a ProductGroup whose variants are Products, each with its own Offer and address
  // (decision 112); one: a Product, as before variants.
  const group = p.variants.length > 1;
  const labels = new Map(p.options.flatMap((o) => o.values.map((v) => [v.valueId, v.label] as const)));
  const imageUrls = new Map(p.images.map((i) => [i.mediaId, i.url] as const));
  const product = {
    '@context': SCHEMA,
    '@type': group ? 'ProductGroup' : 'Product',
    name: p.productName,
    ...(group ? { productGroupID: p.productId } : { sku: p.sku, ...gtinOf(p.variants[0]?.barcode) }),
    ...(p.brandName ? { brand: { '@type': 'Brand', name: p.brandName } } : {}),
    ...(image ? { image: [image] } : {}),
    // Text: the description is HTML, and structured data shows an entity as it is written.
    description: p.shortDescription ?? p.descriptionText ?? undefined,
    ...(group
      ? {
          variesBy: [
            ...new Set(
              p.options
                .map((o) => VARIES_BY[o.name.trim().toLowerCase()])
                .filter((x): x is string => !!x)
                .map((x) => `${SCHEMA}/${x}`),
            ),
          ],
          hasVariant: p.variants.map((v) => {
            const href = `${url}?variant=${encodeURIComponent(v.variantId)}`;
            const picture = v.imageIds.map((id) => imageUrls.get(id)).find(Boolean);
            const named: Record<string, string> = {};
            for (const [i, o] of p.options.entries()) {
              const prop = VARIES_BY[o.name.trim().toLowerCase()];
              const label = labels.get(v.valueIds[i] ?? '');
              if (prop && label && !named[prop]) named[prop] = label;
            }
            return {
              '@type': 'Product',
              name: v.title ? `${p.productName}, ${v.title}` : p.productName,
              sku: v.sku,
              ...gtinOf(v.barcode),
              ...named,
              ...(picture ? { image: [picture] } : {}),
              offers: offerOf(v.price, p.currencyUomId, v.available, href),
            };
          }),
        }
      : { offers: offerOf(p.price, p.currencyUomId, p.inStock, url) }),
    ...(p.reviewSummary.count > 0 && p.reviewSummary.average !== null
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: p.reviewSummary.average,
            reviewCount: p.reviewSummary.count,
          },
          // Shoppers' own words: jsonLdHtml escapes `<`, so a review cannot close the script element.
          review: p.reviewSummary.latest.map((r) => ({
            '@type': 'Review',
            author: { '@type': 'Person', name: r.authorName },
            datePublished: r.createdAt.slice(0, 10),
            reviewRating: { '@type': 'Rating', ratingValue: r.rating, bestRating: 5 },
            ...(r.title ? { name: r.title } : {}),
            ...(r.body ? { reviewBody: r.body } : {}),
          })),
        }
      : {}),
  };
  const crumbs = [
    { name: 'Home', item: `${base}/` },
    ...p.breadcrumb.map((b) => ({ name: b.label, item: `${base}/categories/${b.productCategoryId}` })),
    { name: p.productName, item: url },
  ];
  const breadcrumbList = {
    '@context': SCHEMA,
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((c, i) => ({ '@type': 'ListItem', position: i + 1, ...c })),
  };
  return [product, breadcrumbList];
}

/**
 * Only the owner or staff with the catalog permission ever get a draft or archived product's page
 * (the API answers 404 to everyone else): this bar says plainly that shoppers do not see it.
 */
function PreviewBar({ status }: { status: ProductDetails['status'] }) {
  return (
    <p
      role="status"
      className="mb-4 flex items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900"
      data-testid="product-preview-bar"
    >
      <TriangleAlert aria-hidden className="size-4 shrink-0" />
      {status === 'DRAFT' ? 'Draft: not visible to shoppers' : 'Archived: not visible to shoppers'}
    </p>
  );
}

/** The stock message of the product, or of the variant chosen (`inStock`, `lowStock` are its own). */
function StockStatus({ product }: { product: Pick<ProductDetails, 'inStock' | 'lowStock'> }) {
  if (!product.inStock)
    return (
      <p className="flex items-center gap-2 text-sm font-medium text-slate-700" data-testid="stock-status">
        <CircleX aria-hidden className="size-4 text-slate-500" /> Sold out
      </p>
    );
  if (product.lowStock != null)
    return (
      <p className="flex items-center gap-2 text-sm font-medium text-amber-800" data-testid="stock-status">
        <TriangleAlert aria-hidden className="size-4" /> Only {product.lowStock} left in stock
      </p>
    );
  return (
    <p className="flex items-center gap-2 text-sm font-medium text-emerald-800" data-testid="stock-status">
      <CircleCheck aria-hidden className="size-4" /> In stock, ready to ship
    </p>
  );
}

function fileKind(fileName: string): string {
  const ext = /\.(\w{2,5})$/.exec(fileName)?.[1];
  return ext ? ext.toUpperCase() : 'File';
}

export default function ProductPage({ loaderData, actionData }: Route.ComponentProps) {
  const { product: p, review } = loaderData;
  const reviewResult = actionData?.result;
  useActionToast(reviewResult);
  const nonce = useNonce();
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const hasDetails = Boolean(p.descriptionHtml) || p.features.length > 0 || p.contents.length > 0;
  // The variant chosen: the page's (?variant=), then the shopper's choices with JavaScript, which
  // follow in the price, stock, SKU, pictures and address with no request (decision 112).
  const [chosenId, setChosenId] = useState(p.selectedVariantId);
  useEffect(() => setChosenId(p.selectedVariantId), [p.selectedVariantId]);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const variant = p.variants.find((v) => v.variantId === chosenId) ?? p.variants[0];
  const picking = p.options.length > 0 && p.variants.length > 0;
  const selectVariant = (variantId: string) => {
    setChosenId(variantId);
    window.history.replaceState(window.history.state, '', variantHref(p, variantId));
  };
  const shown = picking && variant ? variant : null;
  const images = shown?.imageIds.length
    ? [
        ...shown.imageIds.flatMap((id) => p.images.filter((i) => i.mediaId === id)),
        ...p.images.filter((i) => !i.mediaId || !shown.imageIds.includes(i.mediaId)),
      ]
    : p.images;

  return (
    <PageContainer>
      {structuredData(p, siteUrl(root?.shell)).map((d) => (
        <script
          key={d['@type']}
          type="application/ld+json"
          nonce={nonce}
          dangerouslySetInnerHTML={{ __html: jsonLdHtml(d) }}
        />
      ))}
      {p.status !== 'ACTIVE' && <PreviewBar status={p.status} />}
      <Breadcrumbs
        items={[
          { label: 'Home', to: '/' },
          ...p.breadcrumb.map((b) => ({ label: b.label, to: `/categories/${b.productCategoryId}` })),
          { label: p.productName },
        ]}
      />

      <div className="grid gap-8 md:grid-cols-2 lg:gap-14">
        {/* A new choice shows its own first picture: the gallery starts over. */}
        <ProductGallery key={shown?.variantId ?? ''} images={images} name={p.productName} />

        <div className="min-w-0">
          {p.brandName && (
            <p className="text-xs font-semibold tracking-widest text-slate-500 uppercase" data-testid="product-brand">
              {p.brandName}
            </p>
          )}
          <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900 md:text-4xl">{p.productName}</h1>
          <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-slate-600">
            {p.reviewSummary.count > 0 && (
              <a href="#reviews-heading" className="hover:underline">
                <RatingStars average={p.reviewSummary.average} count={p.reviewSummary.count} />
              </a>
            )}
            <span data-testid="product-sku">SKU {shown?.sku ?? p.sku}</span>
          </div>
          {p.shortDescription && <p className="mt-5 leading-7 text-slate-700">{p.shortDescription}</p>}
          <div className="mt-4">
            <StockStatus product={shown ? { inStock: shown.available, lowStock: shown.lowStock } : p} />
          </div>
          <div className="mt-6 border-t border-slate-200 pt-6">
            <PurchaseForm
              product={p}
              variant={variant}
              picker={
                shown && (
                  <VariantPicker
                    product={p}
                    selected={shown}
                    onSelect={selectVariant}
                    showHref={productHref(p)}
                    interactive={hydrated}
                  />
                )
              }
            />
            {shown && <VariantShowForm productId={p.productId} action={productHref(p)} variantId={shown.variantId} />}
            {/* Its own form: forms cannot nest, and the heart posts elsewhere (the wishlist). */}
            <div className="mt-3">
              <WishlistHeart productId={p.productId} productName={p.productName} variant="button" />
            </div>
          </div>
        </div>
      </div>

      {hasDetails && (
        <section aria-labelledby="details-heading" className="mt-16 border-t border-slate-200 py-12">
          <h2 id="details-heading" className="text-2xl font-bold tracking-tight text-slate-900">
            Product details
          </h2>
          <div className="mt-6 grid gap-10 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:gap-16">
            {/* The owner's HTML, sanitised by the server when the page is made (decision 074). */}
            <div
              className="prose-cms"
              data-testid="description"
              dangerouslySetInnerHTML={{ __html: p.descriptionHtml ?? '' }}
            />
            <div className="space-y-10">
              {p.features.length > 0 && (
                <div>
                  <h3 className="mb-3 text-sm font-semibold tracking-widest text-slate-500 uppercase">
                    Specifications
                  </h3>
                  <table className="w-full text-sm" data-testid="features">
                    <tbody className="divide-y divide-slate-200 border-y border-slate-200">
                      {p.features.map((f) => (
                        <tr key={f.label}>
                          <th scope="row" className="w-2/5 py-3 pr-4 text-left font-medium text-slate-900">
                            {f.label}
                          </th>
                          <td className="py-3 text-slate-700">{f.value}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              {p.contents.length > 0 && (
                <div>
                  <h3 className="mb-3 text-sm font-semibold tracking-widest text-slate-500 uppercase">Downloads</h3>
                  <ul className="space-y-2" data-testid="downloads">
                    {p.contents.map((c) => (
                      <li key={c.contentId}>
                        <a
                          href={c.downloadUrl}
                          download={c.fileName}
                          className="flex items-center gap-3 rounded-md border border-slate-200 px-4 py-3 text-sm hover:border-slate-900"
                        >
                          <Download aria-hidden className="size-5 shrink-0 text-slate-700" />
                          <span className="flex-1 font-medium text-slate-900">{c.title}</span>
                          <span className="rounded bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700">
                            {fileKind(c.fileName)}
                          </span>
                        </a>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </div>
          </div>
        </section>
      )}

      <Reviews
        summary={p.reviewSummary}
        write={{
          productId: p.productId,
          eligibility: review,
          loginHref: `/auth/login?redirectUrl=${encodeURIComponent(`${productHref(p)}#reviews-heading`)}`,
          failure: reviewResult && !reviewResult.ok ? reviewResult : null,
        }}
      />

      {p.accessories.length > 0 && (
        <section aria-labelledby="accessories-heading" className="border-t border-slate-200 py-12">
          <h2 id="accessories-heading" className="mb-6 text-2xl font-bold tracking-tight text-slate-900">
            Accessories
          </h2>
          <ProductGrid products={p.accessories} />
        </section>
      )}
      {p.related.length > 0 && (
        <section aria-labelledby="related-heading" className="border-t border-slate-200 py-12">
          <h2 id="related-heading" className="mb-6 text-2xl font-bold tracking-tight text-slate-900">
            You may also like
          </h2>
          <ProductGrid products={p.related} />
        </section>
      )}
    </PageContainer>
  );
}

export { ErrorBoundary } from './not-found';
