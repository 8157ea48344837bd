import type { CancelRequest, CancelRequestResult, CancelRequestStatus } from '@app/contracts';
import { CSRF_FIELD } from '@app/contracts/client';
import { useEffect, useRef } from 'react';
import { Link, useFetcher, useRouteLoaderData } from 'react-router';
import { formatDateTime } from '../../lib/dashboard-page';
import type { loader as rootLoader } from '../../root';
import { Badge } from '../ui/badge';
import { Banner } from '../ui/banner';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Checkbox } from '../ui/checkbox';
import { ReadOnlyFields } from '../ui/post-form';
import { TextAreaField } from '../ui/text-field';
import { useToast } from '../ui/toast';

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
  declined: 'Request declined: your store stays open.',
  closed: 'Your store is closed.',
};

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
    <Card title="Danger zone" id="danger-zone">
      <div className="space-y-3 text-sm text-neutral-700">
        <p>
          <strong className="font-semibold text-neutral-900">Cancel your store.</strong> The platform team reviews the
          request. Until it is approved your store stays open and you can withdraw it. Once approved, your store closes:
          shoppers can no longer visit it or place orders, and your plan ends.
        </p>
        {result?.ok && !form.data && (
          <Banner tone="success">
            {result.message}{' '}
            <Link to="/manage-store/settings/other" className="font-medium underline underline-offset-2">
              Back to Store details
            </Link>
          </Banner>
        )}
        {failure && Object.keys(failure.fieldErrors).length === 0 && <Banner>{failure.message}</Banner>}
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
              <Badge tone={state.status === 'requested' || state.status === 'approved' ? 'critical' : 'neutral'}>
                {STATUS_TEXT[state.status]}
              </Badge>
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
            {state.status === 'declined' && state.decisionReason && (
              <p className="text-neutral-600" data-testid="cancel-decision">
                The platform's answer: <q>{state.decisionReason}</q> You can file a new request below.
              </p>
            )}
            {state.status === 'approved' && state.closesAt && (
              <p className="text-neutral-600" data-testid="cancel-decision">
                Your storefront is closed. You can sign in and export your data until{' '}
                <time dateTime={state.closesAt}>{formatDateTime(state.closesAt)}</time>, when the store closes.
              </p>
            )}
            {state.canWithdraw && (
              <form.Form method="post" action={CANCEL_ROUTE}>
                <ReadOnlyFields>
                  {csrf}
                  <input type="hidden" name="intent" value="withdraw" />
                  <Button type="submit" disabled={submitting}>
                    {submitting ? 'Withdrawing…' : 'Withdraw request'}
                  </Button>
                </ReadOnlyFields>
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
                  <ReadOnlyFields className="space-y-3">
                    {csrf}
                    <input type="hidden" name="intent" value="initiate" />
                    <TextAreaField
                      name="cancelRequestReason"
                      label="Why do you want to cancel?"
                      rows={3}
                      maxLength={1000}
                      required
                      defaultValue={answer?.values.cancelRequestReason ?? ''}
                      error={failure?.fieldErrors.cancelRequestReason}
                      hint="Up to 1,000 characters. We send you a copy by email."
                    />
                    <Checkbox
                      name="confirm"
                      value="yes"
                      label="I understand that my store will close once the platform approves this request."
                      error={failure?.fieldErrors.confirm}
                    />
                    <Button type="submit" variant="critical" disabled={submitting}>
                      {submitting ? 'Sending request…' : 'Request cancellation'}
                    </Button>
                  </ReadOnlyFields>
                </form.Form>
              </details>
            )}
          </>
        )}
      </div>
    </Card>
  );
}
