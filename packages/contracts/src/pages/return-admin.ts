import type { ReturnTab } from '../return-reasons';
import type { ReturnDetail, ReturnList } from '../returns';
import type { FormOutcome } from '../storefront';

export type ReturnActionResult<F extends string> = { ok: true; message: string } | FormOutcome<F>;

/** The dashboard's returns (permission `orders`): the list, one request, and its four actions. */
export interface ReturnAdminPages {
  /** The list; a hand-edited address (unknown tab, stale cursor) shows the list without it. */
  returnsPage(raw: {
    status?: string;
    q?: string;
    cursor?: string;
  }): Promise<ReturnList & { query: { status?: ReturnTab; q?: string } }>;
  /** One request; null when the store has no such return (the page's 404). */
  returnPage(returnId: string): Promise<ReturnDetail | null>;
  approveReturn(returnId: string, fields: { instructions?: string }): Promise<ReturnActionResult<'instructions'>>;
  rejectReturn(returnId: string, fields: { reason?: string }): Promise<ReturnActionResult<'reason'>>;
  /** `restock`: per line number, the units typed in its box. */
  receiveReturn(returnId: string, fields: { restock: Record<string, string> }): Promise<ReturnActionResult<'lines'>>;
  /** `amount`: as typed, in the currency's units ("12.50"). */
  refundReturn(
    returnId: string,
    fields: { amount?: string; reason?: string },
  ): Promise<ReturnActionResult<'amount' | 'reason'>>;
}
