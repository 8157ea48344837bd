import type { FormOutcome, Order, ReturnField, ReturnRequest, ReturnStatus } from '@app/contracts';
import {
  formatDate,
  formatMoney,
  orderLineVariantText,
  RETURN_NOTE_MAX,
  RETURN_REASON_LABELS,
  RETURN_REASONS,
} from '@app/contracts/client';
import { PackageOpen, Undo2 } from 'lucide-react';
import { useNavigation } from 'react-router';
import { FormAlert } from '../ui/form-field';
import { PostForm } from '../ui/post-form';

const BADGE: Record<ReturnStatus, string> = {
  requested: 'bg-amber-100 text-amber-900',
  approved: 'bg-sky-100 text-sky-900',
  received: 'bg-indigo-100 text-indigo-900',
  refunded: 'bg-green-100 text-green-900',
  rejected: 'bg-red-100 text-red-900',
  cancelled: 'bg-slate-200 text-slate-800',
};

const control =
  'h-11 rounded-md border border-slate-300 bg-white px-3 text-[15px] focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand-light';

/** What each step of a return means for the shopper, as one line. */
const STEP_TITLE: Record<ReturnStatus, string> = {
  requested: 'You asked to return this',
  approved: 'Approved: please send it back',
  received: 'Your parcel has arrived',
  refunded: 'Refunded',
  rejected: 'The store could not accept the return',
  cancelled: 'You withdrew the request',
};

/**
 * The steps of one return, oldest first: the store's instructions with the approval, the reason
 * with a rejection, the amount with the refund. Text from the store is shown as written (escaped).
 */
function ReturnSteps({ ret, currency }: { ret: ReturnRequest; currency: string }) {
  return (
    <ol className="mt-3 space-y-2 border-l-2 border-slate-200 pl-4" aria-label={`Steps of return ${ret.returnId}`}>
      {ret.history.map((h, i) => (
        <li key={`${h.status}-${i}`} className="relative text-sm" data-testid={`return-step-${h.status}`}>
          <span aria-hidden className="absolute top-1.5 -left-[1.3rem] size-2.5 rounded-full bg-slate-400" />
          <p className="font-medium text-slate-900">
            {STEP_TITLE[h.status]}
            {h.status === 'refunded' && h.amount != null && `: ${formatMoney(h.amount, currency)}`}
          </p>
          <p className="text-xs text-slate-500">
            <time dateTime={h.at}>{formatDate(h.at)}</time>
          </p>
          {h.note && h.status !== 'requested' && (
            <p className="mt-1 rounded-md bg-slate-50 px-3 py-2 whitespace-pre-line break-words text-slate-700">
              {h.status === 'rejected' ? 'Reason: ' : ''}
              {h.note}
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}

/** The order's return requests, newest first, each with its status and its steps. */
function ReturnList({ order }: { order: Order }) {
  const byLine = new Map(order.lines.map((l) => [l.lineNo, l]));
  return (
    <ul className="space-y-3" data-testid="return-list">
      {[...order.returns].reverse().map((r) => (
        <li key={r.returnId} className="rounded-xl border border-slate-200 p-4 sm:p-5" data-testid="return-request">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="font-semibold text-slate-900">Return {r.returnId}</p>
            <span
              className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${BADGE[r.status]}`}
              data-testid="return-status"
            >
              {r.statusLabel}
            </span>
          </div>
          <p className="mt-1 text-sm text-slate-600">
            Requested <time dateTime={r.createdAt}>{formatDate(r.createdAt)}</time> · {r.reasonLabel}
          </p>
          <ul className="mt-3 space-y-1 text-sm text-slate-800">
            {r.lines.map((l) => {
              const variant = orderLineVariantText(l.variantTitle ? l : (byLine.get(l.lineNo) ?? l));
              return (
                <li key={l.lineNo}>
                  {l.quantity} × {l.productName || byLine.get(l.lineNo)?.productName}
                  {variant && <span className="block text-slate-600">{variant}</span>}
                </li>
              );
            })}
          </ul>
          {r.note && <p className="mt-2 text-sm break-words text-slate-600">“{r.note}”</p>}
          <ReturnSteps ret={r} currency={order.currency} />
        </li>
      ))}
    </ul>
  );
}

/**
 * "Request a return": a quantity per line that can still go back (0 keeps it), a reason and an
 * optional note. A plain form: it works without JavaScript.
 */
function ReturnForm({
  order,
  accessKey,
  failure,
}: {
  order: Order;
  accessKey: string | null;
  failure: FormOutcome<ReturnField> | null;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'return';
  const e = failure?.fieldErrors ?? {};
  const byLine = new Map(order.lines.map((l) => [l.lineNo, l]));
  return (
    <PostForm className="space-y-5 rounded-xl border border-slate-200 p-4 sm:p-6" data-testid="return-form">
      <input type="hidden" name="intent" value="return" />
      <input type="hidden" name="orderId" value={order.orderId} />
      {accessKey && <input type="hidden" name="key" value={accessKey} />}
      <FormAlert message={failure?.message} />
      <fieldset aria-describedby={e.lines ? 'lines-error' : undefined}>
        <legend className="mb-3 text-sm font-medium text-slate-800">What would you like to send back?</legend>
        <ul className="divide-y divide-slate-200 border-y border-slate-200">
          {order.returnable.map((r) => {
            const line = byLine.get(r.lineNo);
            const id = `qty-${r.lineNo}`;
            return (
              <li key={r.lineNo} className="flex items-center justify-between gap-4 py-3">
                <label htmlFor={id} className="min-w-0 flex-1 text-sm">
                  <span className="block font-medium text-slate-900">{line?.productName}</span>
                  {line?.variantTitle && <span className="block text-slate-600">{orderLineVariantText(line)}</span>}
                  {line?.optionsText && <span className="block text-slate-600">{line.optionsText}</span>}
                  <span className="block text-slate-600">
                    {r.quantity === line?.quantity
                      ? `Bought ${r.quantity}`
                      : `${r.quantity} of ${line?.quantity} left to return`}
                  </span>
                  <span className="sr-only">: quantity to return</span>
                </label>
                <select id={id} name={id} defaultValue="0" className={`${control} w-20 shrink-0`}>
                  {Array.from({ length: r.quantity + 1 }, (_, n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </li>
            );
          })}
        </ul>
        {e.lines && (
          <p id="lines-error" className="mt-1.5 text-sm font-medium text-red-700" data-testid="error-lines">
            {e.lines}
          </p>
        )}
      </fieldset>
      <div className="grid gap-5 sm:grid-cols-2">
        <div>
          <label htmlFor="reason" className="mb-1.5 block text-sm font-medium text-slate-800">
            Reason
          </label>
          <select
            id="reason"
            name="reason"
            required
            defaultValue=""
            aria-invalid={e.reason ? true : undefined}
            className={`${control} w-full`}
          >
            <option value="" disabled>
              Choose a reason…
            </option>
            {RETURN_REASONS.map((r) => (
              <option key={r} value={r}>
                {RETURN_REASON_LABELS[r]}
              </option>
            ))}
          </select>
          {e.reason && (
            <p className="mt-1.5 text-sm font-medium text-red-700" data-testid="error-reason">
              {e.reason}
            </p>
          )}
        </div>
      </div>
      <div>
        <label htmlFor="note" className="mb-1.5 block text-sm font-medium text-slate-800">
          Anything we should know? <span className="font-normal text-slate-500">(optional)</span>
        </label>
        <textarea
          id="note"
          name="note"
          rows={3}
          maxLength={RETURN_NOTE_MAX}
          className="w-full rounded-md border border-slate-300 px-3 py-2 text-[15px] focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand-light"
        />
        {e.note && <p className="mt-1.5 text-sm font-medium text-red-700">{e.note}</p>}
      </div>
      <button
        type="submit"
        disabled={busy}
        className="inline-flex h-11 items-center justify-center gap-2 rounded-md bg-action px-6 text-sm font-semibold text-white hover:opacity-90 disabled:opacity-60 max-sm:w-full"
      >
        <Undo2 aria-hidden className="size-4" />
        {busy ? 'Sending…' : 'Request a return'}
      </button>
    </PostForm>
  );
}

/** The order page's returns: the requests made, and the form while something can still go back. */
export function OrderReturns({
  order,
  accessKey,
  failure,
}: {
  order: Order;
  accessKey: string | null;
  failure: FormOutcome<ReturnField> | null;
}) {
  const delivered = order.status === 'delivered' || order.status === 'completed';
  const waiting = order.status === 'paid' || order.status === 'fulfilled';
  if (order.returns.length === 0 && !delivered && !waiting) return null;
  return (
    <section aria-labelledby="returns-heading" className="mt-12 border-t border-slate-200 pt-8" data-testid="returns">
      <h2 id="returns-heading" className="mb-4 flex items-center gap-2 text-xl font-semibold text-slate-900">
        <PackageOpen aria-hidden className="size-5 text-slate-500" />
        Returns
      </h2>
      {order.returns.length > 0 && <ReturnList order={order} />}
      {order.returnable.length > 0 ? (
        <div className={order.returns.length > 0 ? 'mt-8' : ''}>
          <h3 className="mb-1 font-semibold text-slate-900">Request a return</h3>
          <p className="mb-4 text-sm text-slate-600">
            Choose what to send back. We will email you once the store has approved it; please do not send anything
            before then.
          </p>
          {/* A new form after each request made (its fields are the browser's): not the last one again. */}
          <ReturnForm key={order.returns.length} order={order} accessKey={accessKey} failure={failure} />
        </div>
      ) : waiting ? (
        <p className="text-sm text-slate-600">You can request a return once the order has been delivered.</p>
      ) : (
        delivered && (
          <p className="mt-4 text-sm text-slate-600">Everything in this order is already in a return request.</p>
        )
      )}
    </section>
  );
}
