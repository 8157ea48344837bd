import type { FormOutcome, PromoCodeFormResult, PromoCodeFormValues } from '@app/contracts';
import { formatMoney } from '@app/contracts/client';
import { ArrowLeft, Ban, Play, Receipt, Trash2 } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { data, Link, redirect, useNavigation, useSearchParams } from 'react-router';
import { PromoCodeForm, PromoStatusBadge, promoFormValues } from '../../components/manage-store/promo-code-form';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { DataTable } from '../../components/ui/data-table';
import { AdminEmptyState } from '../../components/ui/empty-state';
import { AdminPage } from '../../components/ui/page-header';
import { PostForm } from '../../components/ui/post-form';
import { dashboardMeta, dashboardRead, formatDateTime } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/promo-codes_.$code';

const LIST = '/manage-store/promo-codes';
const DONE: Record<string, string> = { created: 'Promo code created.' };

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const page = await dashboardRead(request, () => context.api.promoCodePage(params.code));
  if (!page) throw data({ message: 'There is no such promo code in this store.' }, { status: 404 });
  return { ...page, done: new URL(request.url).searchParams.get('done') ?? '' };
}

export function meta({ matches, data: d }: Route.MetaArgs) {
  return dashboardMeta(matches, d?.code.code ?? 'Promo code');
}

type ActionAnswer =
  | { intent: 'save'; result: PromoCodeFormResult; values: PromoCodeFormValues | null }
  | { intent: 'status'; result: { ok: true; message: string } | FormOutcome<never>; values: null };

export async function action({ context, request, params }: Route.ActionArgs) {
  return dashboardRead(request, async () => {
    const form = await request.formData();
    const intent = String(form.get('intent') ?? 'save');
    if (intent === 'activate' || intent === 'deactivate' || intent === 'delete') {
      const result = await context.api.promoCodeAction(params.code, intent);
      if (result.ok && intent === 'delete') throw redirect(`${LIST}?done=deleted`);
      return data<ActionAnswer>(
        { intent: 'status', result, values: null },
        { status: result.ok ? 200 : result.status },
      );
    }
    const values = promoFormValues(form);
    const result = await context.api.updatePromoCode(params.code, values);
    return data<ActionAnswer>(
      { intent: 'save', result, values: result.ok ? null : values },
      { status: result.ok ? 200 : result.status },
    );
  });
}

const DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** One code: what it gives and its status, its rules to edit, the orders that used it; stop or delete it. */
export default function PromoCodePage({ loaderData: page, actionData }: Route.ComponentProps) {
  const answer = actionData as ActionAnswer | undefined;
  const navigation = useNavigation();
  const { code } = page;
  const fromParam = useMemo(
    () => (DONE[page.done] ? { ok: true, message: DONE[page.done] as string } : null),
    [page.done],
  );
  useActionToast(answer?.result.ok ? answer.result : fromParam);
  const [params, setParams] = useSearchParams();
  useEffect(() => {
    if (params.get('done')) setParams({}, { replace: true, preventScrollReset: true });
  }, [params, setParams]);
  const saveFailure = answer?.intent === 'save' && !answer.result.ok ? answer.result : null;
  const statusFailure = answer?.intent === 'status' && !answer.result.ok ? answer.result : null;
  const busy = (intent: string) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  const money = (n: number, currency = code.currency) => formatMoney(n, currency);

  return (
    <AdminPage
      title={code.code}
      description={
        <Link to={LIST} className="inline-flex items-center gap-1 font-medium text-neutral-700 hover:underline">
          <ArrowLeft aria-hidden className="size-4" />
          Promo codes
        </Link>
      }
    >
      {statusFailure && <Banner>{statusFailure.message}</Banner>}
      <Card title="Summary" aside={<PromoStatusBadge status={code.status} label={page.statusLabel} />}>
        <dl className="grid gap-3 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-neutral-500">Discount</dt>
            <dd className="font-medium text-neutral-900" data-testid="promo-summary">
              {code.summary}
            </dd>
          </div>
          <div>
            <dt className="text-neutral-500">Used</dt>
            <dd className="font-medium text-neutral-900 tabular-nums" data-testid="promo-used">
              {code.timesUsed}
              {code.usageLimit !== null ? ` of ${code.usageLimit}` : ' (no limit)'}
              {code.perCustomerLimit !== null &&
                `, ${code.perCustomerLimit === 1 ? 'once' : `${code.perCustomerLimit} times`} per customer`}
            </dd>
          </div>
          <div>
            <dt className="text-neutral-500">Dates (UTC)</dt>
            <dd className="font-medium text-neutral-900">
              {code.startsAt ? DAY.format(new Date(code.startsAt)) : 'Now'} –{' '}
              {code.endsAt ? DAY.format(new Date(new Date(code.endsAt).getTime() - 1)) : 'no end'}
            </dd>
          </div>
        </dl>
      </Card>

      <PromoCodeForm
        key={code.updatedAt}
        creating={false}
        currency={code.currency}
        values={saveFailure && answer?.values ? answer.values : page.values}
        errors={saveFailure?.fieldErrors ?? {}}
        message={saveFailure?.message ?? null}
      />

      <Card
        title="Orders that used it"
        aside={<span className="text-xs text-neutral-500">{code.timesUsed} in all, newest first</span>}
        flush
      >
        {page.redemptions.length === 0 ? (
          <AdminEmptyState icon={<Receipt className="size-6" />} title="Not used yet">
            Orders placed with this code show here with the discount they got.
          </AdminEmptyState>
        ) : (
          <>
            <ul className="divide-y divide-neutral-100 border-t border-neutral-200 sm:hidden" aria-label="Orders">
              {page.redemptions.map((r) => (
                <li key={r.orderId} className="space-y-0.5 px-4 py-3 text-sm">
                  <div className="flex items-center justify-between gap-2">
                    <Link
                      to={r.orderHref}
                      className="font-mono font-medium text-neutral-900 underline underline-offset-2"
                    >
                      {r.orderId}
                    </Link>
                    <span className="tabular-nums text-neutral-800">−{money(r.discount, r.currency)}</span>
                  </div>
                  <p className="truncate text-neutral-700">{r.email}</p>
                  <p className="text-xs text-neutral-600">
                    {formatDateTime(r.usedAt)} · total {money(r.grandTotal, r.currency)}
                  </p>
                </li>
              ))}
            </ul>
            <div className="hidden sm:block">
              <DataTable
                label={`Orders that used ${code.code}`}
                rows={page.redemptions}
                rowKey={(r) => r.orderId}
                minWidth="34rem"
                columns={[
                  {
                    header: 'Order',
                    className: 'font-medium',
                    cell: (r) => (
                      <Link to={r.orderHref} className="font-mono text-neutral-900 underline underline-offset-2">
                        {r.orderId}
                      </Link>
                    ),
                  },
                  {
                    header: 'Date',
                    className: 'whitespace-nowrap text-neutral-600',
                    cell: (r) => formatDateTime(r.usedAt),
                  },
                  { header: 'Customer', className: 'max-w-[14rem] truncate', cell: (r) => r.email },
                  {
                    header: 'Discount',
                    align: 'end',
                    className: 'tabular-nums',
                    cell: (r) => `−${money(r.discount, r.currency)}`,
                  },
                  {
                    header: 'Total',
                    align: 'end',
                    className: 'tabular-nums',
                    cell: (r) => money(r.grandTotal, r.currency),
                  },
                ]}
              />
            </div>
          </>
        )}
      </Card>

      <Card title={code.active ? 'Deactivate' : 'Activate'}>
        <p className="text-sm text-neutral-600">
          {code.active
            ? 'Shoppers can no longer use a deactivated code; carts holding it lose the discount and orders placed with it keep theirs.'
            : 'Activated, shoppers can use the code again within its dates and limits.'}
        </p>
        <PostForm className="mt-3" preventScrollReset>
          <Button type="submit" name="intent" value={code.active ? 'deactivate' : 'activate'}>
            {code.active ? <Ban aria-hidden className="size-4" /> : <Play aria-hidden className="size-4" />}
            {code.active
              ? busy('deactivate')
                ? 'Deactivating…'
                : 'Deactivate code'
              : busy('activate')
                ? 'Activating…'
                : 'Activate code'}
          </Button>
        </PostForm>
      </Card>

      <Card title="Delete promo code">
        {code.timesUsed > 0 || page.redemptions.length > 0 ? (
          <p className="text-sm text-neutral-600">
            Orders used this code, so it stays as their history: deactivate it to stop it instead.
          </p>
        ) : (
          <>
            <p className="text-sm text-neutral-600">No order used this code yet, so it can be deleted for good.</p>
            <div className="mt-3">
              <ConfirmDialog
                trigger={
                  <>
                    <Trash2 aria-hidden className="size-4" />
                    Delete code
                  </>
                }
                title={`Delete ${code.code}?`}
                confirm={
                  <PostForm>
                    <Button type="submit" variant="critical" name="intent" value="delete" disabled={busy('delete')}>
                      {busy('delete') ? 'Deleting…' : `Delete ${code.code}`}
                    </Button>
                  </PostForm>
                }
              >
                Shoppers can no longer use it, and it cannot be brought back.
              </ConfirmDialog>
            </div>
          </>
        )}
      </Card>
    </AdminPage>
  );
}
