import type { PaymentIssue } from '@app/contracts';
import {
  formatMoney,
  orderHref,
  PAYMENT_ISSUE_LABELS,
  PAYMENT_ISSUE_NOTE_MAX,
  type PaymentIssueKind,
} from '@app/contracts/client';
import { CircleCheck, LoaderCircle } from 'lucide-react';
import { data, Link, useNavigation } from 'react-router';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Banner } from '../../components/ui/banner';
import { Button, buttonClass } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { AdminEmptyState } from '../../components/ui/empty-state';
import { AdminPage } from '../../components/ui/page-header';
import { Pagination } from '../../components/ui/pagination';
import { PostForm } from '../../components/ui/post-form';
import { TextAreaField } from '../../components/ui/text-field';
import { dashboardMeta, dashboardRead, formatDateTime } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/payments_.issues';

const PATH = '/manage-store/payments/issues';

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const get = (k: string) => url.searchParams.get(k)?.slice(0, 300) ?? undefined;
  return dashboardRead(request, () => context.api.paymentIssuesPage({ status: get('status'), cursor: get('cursor') }));
}

/** "Mark resolved" of one issue, with the owner's note of what was done. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const issueId = String(form.get('issueId') ?? '').slice(0, 64);
  const note = String(form.get('note') ?? '').slice(0, PAYMENT_ISSUE_NOTE_MAX + 100);
  const result = await dashboardRead(request, () => context.api.resolvePaymentIssue(issueId, { note }));
  return data({ issueId, result, values: { note } }, { status: result.ok ? 200 : result.status });
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Payments needing attention');
}

const KIND_TONE: Record<PaymentIssueKind, BadgeTone> = {
  capture_without_order: 'warning',
  amount_mismatch: 'warning',
  refund_unknown: 'info',
  capture_denied: 'critical',
};
const kindLabel = (kind: string) => PAYMENT_ISSUE_LABELS[kind as PaymentIssueKind] ?? kind;

/**
 * Money PayPal reported that matches no order of the store (decision 053): the owner sorts each out
 * in PayPal, then marks it resolved with a note, which the activity log keeps.
 */
export default function PaymentIssuesPage({ loaderData: page, actionData }: Route.ComponentProps) {
  useActionToast(actionData?.result);
  const navigation = useNavigation();
  const open = page.status === 'open';
  const failed = actionData && !actionData.result.ok ? actionData : null;
  const next = new URLSearchParams();
  if (!open) next.set('status', 'resolved');
  const first = next.toString();
  if (page.nextCursor) next.set('cursor', page.nextCursor);
  const tab = (active: boolean) => buttonClass(active ? 'secondary' : 'plain');
  return (
    <AdminPage
      title="Payments needing attention"
      description="Payments PayPal reports that do not match an order of your store. Sort each one out in PayPal (refund it, or match it to the buyer), then mark it resolved with a note of what you did."
    >
      {failed && !failed.result.ok && !failed.result.fieldErrors.note && <Banner>{failed.result.message}</Banner>}
      <nav aria-label="Which payments" className="flex flex-wrap gap-2">
        <Link to={PATH} className={tab(open)} aria-current={open ? 'page' : undefined}>
          Open ({page.openCount})
        </Link>
        <Link to={`${PATH}?status=resolved`} className={tab(!open)} aria-current={open ? undefined : 'page'}>
          Resolved
        </Link>
      </nav>
      <Card title={open ? 'Open' : 'Resolved'} flush>
        {page.items.length === 0 ? (
          <AdminEmptyState
            icon={<CircleCheck className="size-6" />}
            title={open ? 'Nothing needs your attention' : 'Nothing resolved yet'}
          >
            {open
              ? 'When PayPal reports a payment with no order here, an amount that differs from the order, a denied payment or a refund made in PayPal, it shows here.'
              : 'Payments you mark resolved are listed here with your note.'}
          </AdminEmptyState>
        ) : (
          <ul className="divide-y divide-neutral-100" aria-label="Payments">
            {page.items.map((issue) => (
              <IssueRow
                key={issue.issueId}
                issue={issue}
                failed={failed?.issueId === issue.issueId ? failed : null}
                busy={navigation.state === 'submitting' && navigation.formData?.get('issueId') === issue.issueId}
              />
            ))}
          </ul>
        )}
        <Pagination
          first={page.cursor ? `${PATH}${first ? `?${first}` : ''}` : null}
          next={page.nextCursor ? `${PATH}?${next.toString()}` : null}
        />
      </Card>
      <p className="text-sm text-neutral-600">
        <Link to="/manage-store/payments" className="font-medium text-neutral-900 underline">
          Back to payments
        </Link>
      </p>
    </AdminPage>
  );
}

type Failed = { result: { ok: false; message: string; fieldErrors: { note?: string } }; values: { note: string } };

function IssueRow({
  issue,
  failed,
  busy,
}: {
  issue: PaymentIssue;
  failed: { result: { ok: boolean }; values: { note: string } } | null;
  busy: boolean;
}) {
  const refused = failed && !failed.result.ok ? (failed as Failed) : null;
  const noteError = refused?.result.fieldErrors.note;
  const noteId = `note-${issue.issueId}`;
  const label = kindLabel(issue.kind);
  return (
    <li className="space-y-2 px-4 py-4" data-testid={`payment-issue-${issue.issueId}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 space-y-1">
          <Badge tone={KIND_TONE[issue.kind as PaymentIssueKind] ?? 'neutral'}>{label}</Badge>
          <p className="text-sm break-words text-neutral-800">{issue.message}</p>
        </div>
        {issue.amount !== null && issue.currency && (
          <p className="shrink-0 text-sm font-semibold tabular-nums text-neutral-900">
            {formatMoney(issue.amount, issue.currency)}
          </p>
        )}
      </div>
      <dl className="flex flex-wrap gap-x-5 gap-y-1 text-xs text-neutral-600">
        {issue.orderId && (
          <div className="flex gap-1">
            <dt>Order</dt>
            <dd>
              <Link to={orderHref(issue.orderId)} className="font-medium text-neutral-900 underline">
                {issue.orderId}
              </Link>
            </dd>
          </div>
        )}
        {issue.captureId && (
          <div className="flex gap-1">
            <dt>PayPal transaction</dt>
            <dd className="font-mono break-all text-neutral-900">{issue.captureId}</dd>
          </div>
        )}
        {issue.paypalOrderId && (
          <div className="flex gap-1">
            <dt>PayPal order</dt>
            <dd className="font-mono break-all text-neutral-900">{issue.paypalOrderId}</dd>
          </div>
        )}
        <div className="flex gap-1">
          <dt>Reported</dt>
          <dd>
            <time dateTime={issue.createdAt}>{formatDateTime(issue.createdAt)}</time>
          </dd>
        </div>
      </dl>
      {issue.status === 'open' ? (
        <details className="group" open={Boolean(refused)}>
          <summary className="inline-flex cursor-pointer items-center rounded text-sm font-medium text-neutral-700 underline-offset-2 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-neutral-400">
            Mark resolved
            <span className="sr-only">: {label}</span>
          </summary>
          <PostForm className="mt-2 space-y-2" preventScrollReset>
            <input type="hidden" name="issueId" value={issue.issueId} />
            <TextAreaField
              id={noteId}
              name="note"
              label="What did you do about it?"
              rows={2}
              maxLength={PAYMENT_ISSUE_NOTE_MAX}
              required
              defaultValue={refused?.values.note ?? ''}
              placeholder="Refunded in PayPal on …"
              error={noteError}
            />
            <Button type="submit">
              {busy && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
              Mark resolved
            </Button>
          </PostForm>
        </details>
      ) : (
        <p className="text-sm text-neutral-700">
          Resolved{issue.resolvedAt ? ` ${formatDateTime(issue.resolvedAt)}` : ''}
          {issue.resolution ? `: ${issue.resolution}` : ''}
        </p>
      )}
    </li>
  );
}
