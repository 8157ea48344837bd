import type { CustomerActionResult, CustomerDetail, CustomerListPageData, CustomerRef } from '../customers';

/** The dashboard's customers (decision 045); each function needs the customers permission. */
export interface CustomersPages {
  /** The list page: its query (URL params, bad ones dropped) and a page of customers. */
  customersPage(params: Record<string, string>): Promise<CustomerListPageData>;
  /** A customer's page; null when the store has no such customer. */
  customerPage(ref: CustomerRef): Promise<CustomerDetail | null>;
  /** A form on the customer page: intent note.add (note), note.delete (noteId) or password-reset. */
  customerAction(ref: CustomerRef, fields: Record<string, string>): Promise<CustomerActionResult>;
}
