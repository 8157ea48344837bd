import type { ProductDetails, ProductPage, SearchResult, SubcategoryResult } from '../products';

/** Catalog reads for pages: category, search and product pages. */
export interface CatalogPages {
  /**
   * Catalog reads for pages. `params` are the page URL's search params as they came: invalid ones
   * are dropped (a hand-edited URL shows the default view, not an error page).
   */
  products(params: Record<string, string>): Promise<ProductPage>;
  category(productCategoryId: string): Promise<SubcategoryResult | null>;
  product(productId: string): Promise<ProductDetails | null>;
  search(searchText: string, params: Record<string, string>): Promise<SearchResult>;
}
