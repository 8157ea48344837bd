import type { OrderListPageData, OrderViewFormResult } from '../order-list';

/** The dashboard's orders list; each function needs the orders permission. */
export interface OrderListPages {
  /** The list page: its query (URL params, bad ones dropped), a page of rows, the staff member's saved views. */
  orderListPage(params: Record<string, string | string[]>): Promise<OrderListPageData>;
  /** Saves the list's current filters (`fields`: name and the filter keys) as a view of the staff member. */
  orderViewCreate(fields: Record<string, string | string[]>): Promise<OrderViewFormResult>;
  /** Deletes one of the staff member's saved views. */
  orderViewDelete(viewId: string): Promise<OrderViewFormResult>;
}
