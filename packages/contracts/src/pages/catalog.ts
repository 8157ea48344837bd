import type { ProductDetails, ProductPage, SearchResult, SubcategoryResult } from '../products';

/** Catalog reads for pages: category, search and product pages. */
export interface CatalogPages {
  /**
   * Catalog reads for pages. `params` are the page URL's search params as they came: invalid ones
   * are dropped (a hand-edited URL shows the default view, not an error page).
   */
  products(params: Record<string, string>): Promise<ProductPage>;
  category(productCategoryId: string): Promise<SubcategoryResult | null>;
  /** `variantId` selects the variant shown; one the product does not offer selects the default. */
  product(productId: string, variantId?: string): Promise<ProductPageDetails | null>;
  search(searchText: string, params: Record<string, string>): Promise<SearchResult>;
}

/**
 * The product page's product: the details, with the description as the page shows it (decision
 * 074): `descriptionHtml` sanitised when rendered, `descriptionText` for structured data.
 */
export type ProductPageDetails = ProductDetails & { descriptionHtml: string | null; descriptionText: string | null };
