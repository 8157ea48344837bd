import type { CancelRequest, CancelRequestResult, CancelRequestStatus } from '@app/contracts';
import { CSRF_FIELD } from '@app/contracts/client';
import { TriangleAlert } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useFetcher, useRouteLoaderData } from 'react-router';
import { formatDateTime } from '../../lib/dashboard-page';
import type { loader as rootLoader } from '../../root';
import { useToast } from '../ui/toast';
import { cardClass } from './dashboard-layout';

/** Where the danger zone's form posts and its state loads from (routes/manage-store/settings.other_.cancel.tsx, under Store details in the menu). */
export const CANCEL_ROUTE = '/manage-store/settings/other/cancel';

/** What the danger zone route answers (its loader and its action). */
export interface CancelRequestLoad {
  /** null: the signed-in staff member is not the owner. */
  cancelRequest: CancelRequest | null;
}
export interface CancelRequestAnswer {
  result: CancelRequestResult;
  values: { cancelRequestReason: string };
}

const STATUS_TEXT: Record<CancelRequestStatus, string> = {
  none: 'Your store is open.',
  requested: 'Cancellation requested',
  withdrawn: 'Request withdrawn: your store stays open.',
  approved: 'Cancellation approved: your store will close.',
  closed: 'Your store is closed.',
};

const dangerButton =
  'inline-flex h-9 items-center justify-center rounded-lg bg-red-700 px-3.5 text-sm font-semibold text-white shadow-sm hover:bg-red-800 disabled:opacity-60';
const plainButton =
  'inline-flex h-9 items-center justify-center rounded-lg border border-neutral-300 bg-white px-3.5 text-sm font-semibold text-neutral-800 shadow-sm hover:bg-neutral-50 disabled:opacity-60';

/**
 * The store details page's danger zone: what cancelling the store means, the request's state, and
 * the owner's two actions (file it, with a confirmation step; withdraw it). It posts to the cancel
 * route; with JavaScript in place (answers as toasts and messages next to the fields), without it
 * the browser lands on that route's page, which shows this card with the answer. Given no
 * `cancelRequest`, it reads the state from that route itself (the page it sits on needs no loader).
 */
export function CancelRequestCard({
  cancelRequest: given,
  answer: givenAnswer,
}: {
  cancelRequest?: CancelRequest | null;
  answer?: CancelRequestAnswer;
}) {
  const load = useFetcher<CancelRequestLoad>();
  const form = useFetcher<CancelRequestAnswer>();
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const toast = useToast();
  const started = useRef(false);
  useEffect(() => {
    if (given !== undefined || started.current) return;
    started.current = true;
    load.load(CANCEL_ROUTE);
  }, [given, load]);
  const answer = form.data ?? givenAnswer;
  const result = answer?.result;
  useEffect(() => {
    if (result?.ok && form.data) toast('success', result.message);
  }, [result, form.data, toast]);

  const fromAnswer = result?.ok ? result.cancelRequest : undefined;
  const state =
    form.data && fromAnswer ? fromAnswer : given !== undefined ? (fromAnswer ?? given) : load.data?.cancelRequest;
  const failure = result && !result.ok ? result : null;
  const submitting = form.state !== 'idle';
  const csrf = <input type="hidden" name={CSRF_FIELD} value={root?.csrfToken ?? ''} />;

  return (
    <section aria-labelledby="danger-zone" className={`${cardClass} border-red-200`}>
      <div className="flex items-center gap-2 px-4 pt-4 pb-2">
        <TriangleAlert aria-hidden className="size-4 text-red-700" />
        <h2 id="danger-zone" className="text-sm font-semibold text-red-800">
          Danger zone
        </h2>
      </div>
      <div className="space-y-3 px-4 pb-4 text-sm text-neutral-700">
        <p>
          <strong className="font-semibold text-neutral-900">Cancel your store.</strong> The platform team reviews the
          request. Until it is approved your store stays open and you can withdraw it. Once approved, your store closes:
          shoppers can no longer visit it or place orders, and your plan ends.
        </p>
        {result?.ok && !form.data && (
          <p role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 px-3 py-2 text-emerald-900">
            {result.message}{' '}
            <Link to="/manage-store/settings/other" className="font-medium underline underline-offset-2">
              Back to Store details
            </Link>
          </p>
        )}
        {failure && Object.keys(failure.fieldErrors).length === 0 && (
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-red-800">
            {failure.message}
          </p>
        )}
        {state === undefined ? (
          <p>
            <Link to={CANCEL_ROUTE} className="font-medium text-neutral-900 underline underline-offset-2">
              Review your store’s cancel request
            </Link>
          </p>
        ) : state === null ? (
          <p className="text-neutral-600">Only the store owner can request to cancel the store.</p>
        ) : (
          <>
            <div className="flex flex-wrap items-center gap-2" data-testid="cancel-state">
              <span className="font-medium text-neutral-900">Status:</span>
              <span
                className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
                  state.status === 'requested' || state.status === 'approved'
                    ? 'bg-red-100 text-red-900'
                    : 'bg-neutral-100 text-neutral-800'
                }`}
              >
                {STATUS_TEXT[state.status]}
              </span>
              {state.status === 'requested' && state.requestedAt && (
                <span className="text-xs text-neutral-500">
                  since <time dateTime={state.requestedAt}>{formatDateTime(state.requestedAt)}</time>
                </span>
              )}
            </div>
            {state.status === 'requested' && state.reason && (
              <p className="text-neutral-600">
                Your reason: <q>{state.reason}</q>
              </p>
            )}
            {state.canWithdraw && (
              <form.Form method="post" action={CANCEL_ROUTE}>
                {csrf}
                <input type="hidden" name="intent" value="withdraw" />
                <button type="submit" className={plainButton} disabled={submitting}>
                  {submitting ? 'Withdrawing…' : 'Withdraw request'}
                </button>
              </form.Form>
            )}
            {state.canInitiate && (
              <details className="group rounded-lg border border-neutral-200" open={failure ? true : undefined}>
                <summary className="cursor-pointer list-none px-3 py-2 font-semibold text-red-800 marker:hidden hover:bg-red-50 focus-visible:outline-2">
                  Request to cancel your store…
                </summary>
                <form.Form
                  method="post"
                  action={CANCEL_ROUTE}
                  className="space-y-3 border-t border-neutral-200 p-3"
                  noValidate
                >
                  {csrf}
                  <input type="hidden" name="intent" value="initiate" />
                  <div>
                    <label htmlFor="cancelRequestReason" className="mb-1 block font-medium text-neutral-900">
                      Why do you want to cancel?
                    </label>
                    <textarea
                      id="cancelRequestReason"
                      name="cancelRequestReason"
                      rows={3}
                      maxLength={1000}
                      required
                      defaultValue={answer?.values.cancelRequestReason ?? ''}
                      aria-invalid={failure?.fieldErrors.cancelRequestReason ? true : undefined}
                      aria-describedby={
                        failure?.fieldErrors.cancelRequestReason
                          ? 'cancelRequestReason-error'
                          : 'cancelRequestReason-hint'
                      }
                      className={`w-full rounded-md border px-3 py-2 focus:ring-2 focus:outline-none ${
                        failure?.fieldErrors.cancelRequestReason
                          ? 'border-red-600 focus:ring-red-200'
                          : 'border-neutral-300 focus:ring-neutral-200'
                      }`}
                    />
                    {failure?.fieldErrors.cancelRequestReason ? (
                      <p id="cancelRequestReason-error" className="mt-1 font-medium text-red-700">
                        {failure.fieldErrors.cancelRequestReason}
                      </p>
                    ) : (
                      <p id="cancelRequestReason-hint" className="mt-1 text-xs text-neutral-500">
                        Up to 1,000 characters. We send you a copy by email.
                      </p>
                    )}
                  </div>
                  <div>
                    <label className="flex items-start gap-2">
                      <input
                        type="checkbox"
                        name="confirm"
                        value="yes"
                        className="mt-0.5 size-4"
                        aria-invalid={failure?.fieldErrors.confirm ? true : undefined}
                        aria-describedby={failure?.fieldErrors.confirm ? 'confirm-error' : undefined}
                      />
                      <span>I understand that my store will close once the platform approves this request.</span>
                    </label>
                    {failure?.fieldErrors.confirm && (
                      <p id="confirm-error" className="mt-1 font-medium text-red-700">
                        {failure.fieldErrors.confirm}
                      </p>
                    )}
                  </div>
                  <button type="submit" className={dangerButton} disabled={submitting}>
                    {submitting ? 'Sending request…' : 'Request cancellation'}
                  </button>
                </form.Form>
              </details>
            )}
          </>
        )}
      </div>
    </section>
  );
}
