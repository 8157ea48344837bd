import type { ProductBulkFormResult, ProductBulkJob, ProductListPageData } from '../product-list';

/** The dashboard's product list; each function needs the catalog permission. */
export interface ProductListPages {
  /** The list page: its query (URL params, bad ones dropped), a page of rows, the filter choices. */
  productListPage(params: Record<string, string>): Promise<ProductListPageData>;
  /**
   * A bulk action from the page's form: `fields` names the action and its values (prices as decimals,
   * percent with up to two decimals), `productIds` the ticked rows; with `scope` = all, the list's
   * filters (in `fields`) choose the products instead.
   */
  productBulkAction(fields: Record<string, string>, productIds: string[]): Promise<ProductBulkFormResult>;
  /** A bulk job's progress (null: not this store's). */
  productBulkJob(jobId: string): Promise<ProductBulkJob | null>;
}
