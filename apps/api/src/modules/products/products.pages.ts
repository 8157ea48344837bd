import { type CatalogPages, type ProductDetails, productListQuerySchema, searchQuerySchema } from '@app/contracts';
import { hasPermission } from '../../lib/context';
import { lenient, nullIfNotFound, type PageModule } from '../../lib/page-request';
import { productDescriptionHtml, productDescriptionText } from '../../lib/sanitize';
import { selectVariant } from './product-summary';
import type { ProductsService } from './products.service';

/** The description is stored as the owner wrote it and made safe here, where the page renders it. */
const forPage = (p: ProductDetails) => ({
  ...p,
  descriptionHtml: productDescriptionHtml(p.description),
  descriptionText: productDescriptionText(p.description),
});

/**
 * The storefront's option values (`option.<name>`, several joined by a line break: the page URL's
 * `?option.finish=brass&option.finish=black`) as the API's repeatable `option=Name:Value`.
 */
function withOptions(params: Record<string, string>): Record<string, string> {
  const out: Record<string, string | string[]> = {};
  const option: string[] = [];
  for (const [k, v] of Object.entries(params)) {
    if (!k.startsWith('option.')) out[k] = v;
    else if (k.length > 'option.'.length) for (const value of v.split('\n')) option.push(`${k.slice(7)}:${value}`);
  }
  if (option.length) out.option = option;
  // lenient takes the params as they came; an invalid option list is dropped as a whole.
  return out as Record<string, string>;
}

/**
 * Catalog reads for pages. A page URL's params are taken leniently: a hand-edited URL shows the
 * default view, not an error page.
 */
export function catalogPages(deps: { products: ProductsService }): PageModule<CatalogPages> {
  return ({ ctx, cached }) => ({
    async products(params) {
      const q = lenient(productListQuerySchema, withOptions(params));
      return cached(`products:${JSON.stringify(q)}`, () => deps.products.list(ctx, q));
    },
    category: (id) => cached(`category:${id}`, () => deps.products.subcategories(ctx, id)).catch(nullIfNotFound),
    // The owner or staff with the catalog permission see drafts and archived products (a preview,
    // never through the shared cache); shoppers see ACTIVE products only.
    // The variant is chosen on the kept page, so a ?variant= of any kind adds nothing to the cache.
    product: (id, variantId) =>
      (hasPermission(ctx, 'catalog')
        ? deps.products.details(ctx, id, { preview: true }).then(forPage)
        : cached(`product:${id}`, () => deps.products.details(ctx, id).then(forPage))
      )
        .then((p) => ({ ...p, selectedVariantId: selectVariant(p, variantId) }))
        .catch(nullIfNotFound),
    async search(searchText, params) {
      const q = lenient(searchQuerySchema, { ...withOptions(params), searchText });
      return cached(`search:${JSON.stringify(q)}`, () => deps.products.search(ctx, q));
    },
  });
}
