import type { FormOutcome, ReturnField, ReturnFormInput } from '../storefront';

/** Return requests from the order page. */
export interface ReturnsPages {
  /** Asks for a return of chosen lines of an order, from the order page's form (`key`: a guest's link). */
  requestReturn(
    input: ReturnFormInput,
  ): Promise<{ ok: true; message: string; returnId: string } | FormOutcome<ReturnField>>;
}
