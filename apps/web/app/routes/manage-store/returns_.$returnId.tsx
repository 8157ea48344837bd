import type { ReturnActionResult, ReturnDetail } from '@app/contracts';
import {
  customerHref,
  decimalAmount,
  formatMoney,
  orderHref,
  orderLineVariantText,
  REFUND_REASON_MAX,
  RETURN_MESSAGE_MAX,
} from '@app/contracts/client';
import { ArrowLeft, LoaderCircle } from 'lucide-react';
import { data, Link, useNavigation } from 'react-router';
import { ReturnBadge } from '../../components/manage-store/return-badge';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { DataTable } from '../../components/ui/data-table';
import { FieldError as KitFieldError } from '../../components/ui/field';
import { AdminPage } from '../../components/ui/page-header';
import { PostForm } from '../../components/ui/post-form';
import { NumberField, TextAreaField, TextField } from '../../components/ui/text-field';
import { dashboardMeta, dashboardRead, formatDateTime } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/returns_.$returnId';

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const ret = await dashboardRead(request, () => context.api.returnPage(params.returnId));
  if (!ret) throw data({ message: 'No such return in this store.' }, { status: 404 });
  return ret;
}

const INTENTS = ['approve', 'reject', 'receive', 'refund'] as const;
type Intent = (typeof INTENTS)[number];

/** One action per intent; what was typed comes back with a refusal, so nothing is lost. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData();
  const text = (k: string, max = 4000) => String(form.get(k) ?? '').slice(0, max);
  const intent = text('intent', 20) as Intent;
  const id = params.returnId;
  const values: Record<string, string> = {};
  for (const [k, v] of form) if (typeof v === 'string' && k !== '_csrf') values[k] = v.slice(0, 4000);
  type Answer = ReturnActionResult<'instructions' | 'reason' | 'lines' | 'amount'>;
  const run = (): Promise<Answer> => {
    switch (intent) {
      case 'approve':
        return context.api.approveReturn(id, { instructions: text('instructions') });
      case 'reject':
        return context.api.rejectReturn(id, { reason: text('reason') });
      case 'receive': {
        const restock: Record<string, string> = {};
        for (const [k, v] of form) {
          const m = /^restock-(\d{1,5})$/.exec(k);
          if (m?.[1] && typeof v === 'string') restock[m[1]] = v.slice(0, 20);
        }
        return context.api.receiveReturn(id, { restock });
      }
      case 'refund':
        return context.api.refundReturn(id, { amount: text('amount', 40), reason: text('refundReason', 600) });
      default:
        return Promise.resolve({
          ok: false as const,
          status: 400 as const,
          message: 'That action is not known here.',
          fieldErrors: {},
        });
    }
  };
  const result = await dashboardRead(request, run);
  return data({ intent, result, values }, { status: result.ok ? 200 : result.status });
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return dashboardMeta(matches, loaderData ? `Return ${loaderData.returnId}` : 'Return');
}

type Answer = Route.ComponentProps['actionData'];
const errorsOf = (a: Answer, intent: Intent): Record<string, string | undefined> =>
  a && a.intent === intent && !a.result.ok ? (a.result.fieldErrors as Record<string, string | undefined>) : {};
const valuesOf = (a: Answer, intent: Intent) => (a && a.intent === intent && !a.result.ok ? a.values : undefined);

function Pending({ intent, children }: { intent: Intent; children: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
  return (
    <>
      {busy && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
      {children}
    </>
  );
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? <KitFieldError id={id} message={message} testId={id} /> : null;
}

/** requested: approve with the instructions the shopper gets by mail. */
function ApproveCard({ answer }: { answer: Answer }) {
  const e = errorsOf(answer, 'approve');
  const v = valuesOf(answer, 'approve');
  return (
    <Card title="Approve the return">
      <PostForm className="space-y-3" preventScrollReset>
        <input type="hidden" name="intent" value="approve" />
        <TextAreaField
          label="Instructions for the shopper"
          name="instructions"
          rows={4}
          required
          maxLength={RETURN_MESSAGE_MAX}
          defaultValue={v?.instructions ?? ''}
          error={e.instructions}
          placeholder="Where to send the parcel, and how to pack it."
          hint="Emailed to the shopper and shown on their order page."
        />
        <Button type="submit" variant="primary">
          <Pending intent="approve">Approve</Pending>
        </Button>
      </PostForm>
    </Card>
  );
}

/** approved: the parcel arrived; how many of each line go back to stock. */
function ReceiveCard({ ret, answer }: { ret: ReturnDetail; answer: Answer }) {
  const e = errorsOf(answer, 'receive');
  const v = valuesOf(answer, 'receive');
  return (
    <Card title="Mark received">
      <PostForm className="space-y-3" preventScrollReset>
        <input type="hidden" name="intent" value="receive" />
        <fieldset aria-describedby="restock-hint error-lines">
          <legend className="mb-2 text-sm font-medium text-neutral-800">Back to stock</legend>
          <ul className="divide-y divide-neutral-100 rounded-lg border border-neutral-200">
            {ret.lines.map((l) => {
              const id = `restock-${l.lineNo}`;
              return (
                <li key={l.lineNo} className="px-3 py-2">
                  <NumberField
                    id={id}
                    name={id}
                    className="grid grid-cols-[minmax(0,1fr)_5rem] items-center gap-x-3"
                    label={
                      <>
                        <span className="block truncate">{l.productName}</span>
                        <span className="block text-xs font-normal text-neutral-600">
                          {l.quantity} returned<span className="sr-only">: units back to stock</span>
                        </span>
                      </>
                    }
                    type="number"
                    min={0}
                    max={l.quantity}
                    defaultValue={v?.[id] ?? String(l.quantity)}
                    aria-invalid={e.lines ? true : undefined}
                  />
                </li>
              );
            })}
          </ul>
          <p id="restock-hint" className="kit-hint">
            Units that cannot be sold again (damaged, used) stay at 0: they are not put back in stock.
          </p>
          <FieldError id="error-lines" message={e.lines} />
        </fieldset>
        <Button type="submit" variant="primary">
          <Pending intent="receive">Mark received</Pending>
        </Button>
      </PostForm>
    </Card>
  );
}

/** received: the money goes back through the payment provider. */
function RefundCard({ ret, answer }: { ret: ReturnDetail; answer: Answer }) {
  const e = errorsOf(answer, 'refund');
  const v = valuesOf(answer, 'refund');
  return (
    <Card title="Refund">
      <PostForm className="space-y-3" preventScrollReset>
        <input type="hidden" name="intent" value="refund" />
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            label={`Amount (${ret.currency})`}
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            required
            defaultValue={v?.amount ?? decimalAmount(ret.proposedRefund, ret.currency)}
            error={e.amount}
            hint={`The returned items with their tax: ${formatMoney(ret.proposedRefund, ret.currency)}. At most ${formatMoney(ret.refundable, ret.currency)} can still be refunded on this order.`}
          />
          <div>
            <TextField
              label={
                <>
                  Reason <span className="font-normal text-neutral-500">(optional, for your records)</span>
                </>
              }
              name="refundReason"
              maxLength={REFUND_REASON_MAX}
              defaultValue={v?.refundReason ?? ''}
            />
            <FieldError id="error-reason" message={e.reason} />
          </div>
        </div>
        <Button type="submit" variant="primary">
          <Pending intent="refund">Refund</Pending>
        </Button>
      </PostForm>
    </Card>
  );
}

/** The secondary decision: a rejection needs a reason, which the shopper gets by mail. */
function RejectForm({ answer }: { answer: Answer }) {
  const e = errorsOf(answer, 'reject');
  const v = valuesOf(answer, 'reject');
  return (
    <details className="kit-card px-4 py-3" open={Boolean(e.reason)}>
      <summary className="cursor-pointer text-sm font-semibold text-neutral-800">Reject the return…</summary>
      <PostForm className="mt-3 space-y-3" preventScrollReset>
        <input type="hidden" name="intent" value="reject" />
        <TextAreaField
          label="Reason for the shopper"
          name="reason"
          rows={3}
          required
          maxLength={RETURN_MESSAGE_MAX}
          defaultValue={v?.reason ?? ''}
          error={e.reason}
        />
        <Button type="submit" variant="critical">
          <Pending intent="reject">Reject return</Pending>
        </Button>
      </PostForm>
    </details>
  );
}

/** One return request: what came back and why, the order and customer, the decisions and history. */
export default function ReturnPage({ loaderData: ret, actionData }: Route.ComponentProps) {
  useActionToast(actionData?.result);
  const failed = actionData && !actionData.result.ok ? actionData.result : null;
  const money = (n: number) => formatMoney(n, ret.currency);
  return (
    <AdminPage
      title={`Return ${ret.returnId}`}
      description={
        <>
          <Link
            to="/manage-store/returns"
            className="inline-flex items-center gap-1 font-medium text-neutral-700 underline-offset-2 hover:underline"
          >
            <ArrowLeft aria-hidden className="size-4" /> Returns
          </Link>{' '}
          · Requested <time dateTime={ret.createdAt}>{formatDateTime(ret.createdAt)}</time>
        </>
      }
      secondaryActions={<ReturnBadge status={ret.status} label={ret.statusLabel} />}
    >
      {failed && Object.keys(failed.fieldErrors).length === 0 && <Banner>{failed.message}</Banner>}
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="min-w-0 space-y-4">
          {ret.next.includes('approved') && <ApproveCard answer={actionData} />}
          {ret.next.includes('received') && <ReceiveCard ret={ret} answer={actionData} />}
          {ret.next.includes('refunded') && <RefundCard ret={ret} answer={actionData} />}
          {ret.next.includes('rejected') && <RejectForm answer={actionData} />}
          <Card title="Items" flush>
            <DataTable
              label="Items asked back"
              rows={ret.lines}
              rowKey={(l) => String(l.lineNo)}
              testId={() => 'return-line'}
              minWidth="0"
              columns={[
                {
                  header: 'Product',
                  cell: (l) => (
                    <>
                      {l.productName}
                      {l.variantTitle && (
                        <span className="block text-xs text-neutral-500">{orderLineVariantText(l)}</span>
                      )}
                      {l.optionsText && <span className="block text-xs text-neutral-500">{l.optionsText}</span>}
                    </>
                  ),
                },
                { header: 'Qty', align: 'end', className: 'tabular-nums', cell: (l) => l.quantity },
                {
                  header: 'Unit price',
                  align: 'end',
                  className: 'whitespace-nowrap tabular-nums',
                  cell: (l) => money(l.unitPrice),
                },
                {
                  header: 'Restocked',
                  align: 'end',
                  className: 'tabular-nums',
                  cell: (l) => (ret.status === 'requested' || ret.status === 'approved' ? '—' : l.restockedQuantity),
                },
              ]}
            />
          </Card>
          <Card title="History" flush>
            <ol className="divide-y divide-neutral-100 border-t border-neutral-100" aria-label="Return history">
              {[...ret.history].reverse().map((h) => (
                <li key={`${h.status}-${h.at}`} className="px-4 py-2.5 text-sm">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <span className="font-medium text-neutral-900">
                      {h.amount != null ? `${h.statusLabel} · ${money(h.amount)}` : h.statusLabel}
                    </span>
                    <span className="text-xs text-neutral-600">
                      <time dateTime={h.at}>{formatDateTime(h.at)}</time>
                      {h.actorName && ` · ${h.actorName}`}
                    </span>
                  </div>
                  {h.note && <p className="mt-0.5 whitespace-pre-line break-words text-neutral-700">{h.note}</p>}
                  {h.reason && <p className="mt-0.5 text-xs text-neutral-600">{h.reason}</p>}
                </li>
              ))}
              {ret.refunds
                .filter((r) => r.status !== 'succeeded')
                .map((r) => (
                  <li key={r.refundId} className="px-4 py-2.5 text-sm">
                    <span className="font-medium text-red-800">
                      Refund of {money(r.amount)} {r.status === 'failed' ? 'failed' : 'pending'}
                    </span>
                    {r.failure && <p className="mt-0.5 text-neutral-700">{r.failure}</p>}
                  </li>
                ))}
            </ol>
          </Card>
        </div>
        <div className="space-y-4">
          <Card title="Reason">
            <p className="text-sm font-medium text-neutral-900">{ret.reasonLabel}</p>
            {ret.note ? (
              <p className="mt-1 whitespace-pre-line break-words text-sm text-neutral-700">“{ret.note}”</p>
            ) : (
              <p className="mt-1 text-sm text-neutral-500">No note from the shopper.</p>
            )}
          </Card>
          <Card title="Order">
            <Link
              to={orderHref(ret.orderId)}
              className="text-sm font-semibold text-neutral-900 underline underline-offset-2"
            >
              {ret.orderId}
            </Link>
            <dl className="mt-2 grid grid-cols-2 gap-x-2 gap-y-1 text-sm">
              <dt className="text-neutral-600">Placed</dt>
              <dd className="text-right text-neutral-900">{formatDateTime(ret.order.placedAt)}</dd>
              <dt className="text-neutral-600">Total</dt>
              <dd className="text-right tabular-nums text-neutral-900">{money(ret.order.grandTotal)}</dd>
              <dt className="text-neutral-600">Refunded</dt>
              <dd className="text-right tabular-nums text-neutral-900">{money(ret.order.refundedAmount)}</dd>
            </dl>
          </Card>
          <Card title="Customer">
            <Link
              to={customerHref({ userId: ret.customer.userId, email: ret.customer.email })}
              className="text-sm font-semibold text-neutral-900 underline underline-offset-2"
            >
              {ret.customer.name ?? ret.customer.email}
            </Link>
            <p className="mt-1 break-all text-sm text-neutral-700">{ret.customer.email}</p>
            {!ret.customer.userId && <p className="text-xs text-neutral-500">Guest</p>}
          </Card>
        </div>
      </div>
    </AdminPage>
  );
}
