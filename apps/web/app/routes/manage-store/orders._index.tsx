import type { OrderListFilter, OrderListRow, OrderViewFormResult } from '@app/contracts';
import {
  FULFILMENT_FILTERS,
  FULFILMENT_LABELS,
  formatMoney,
  fulfilmentOf,
  ORDER_LIST_FILTER_KEYS,
  ORDER_LIST_SORT_LABELS,
  ORDER_LIST_SORTS,
  ORDER_STATUS_LABELS,
  ORDER_VIEW_NAME_MAX,
  orderHref,
  PAYMENT_STATUS_LABELS,
  PAYMENT_STATUSES,
  type PaymentStatus,
} from '@app/contracts/client';
import { Download, Inbox, Search, X } from 'lucide-react';
import { data, Form, Link, useLocation, useNavigation } from 'react-router';
import { Card, CardEmpty, DashboardLayout, secondaryAction } from '../../components/manage-store/dashboard-layout';
import { PostForm } from '../../components/ui/post-form';
import { dashboardMeta, dashboardRead } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/orders._index';

/** The list without filters (a link to "." from an index route would add ?index). */
const LIST = '/manage-store/orders';
const STATUSES = Object.keys(ORDER_STATUS_LABELS) as (keyof typeof ORDER_STATUS_LABELS)[];

/** URL params as the list reads them: `status` may repeat (the status checkboxes). */
function paramsOf(search: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(search.keys())) {
    const all = search.getAll(key).map((v) => v.slice(0, 300));
    out[key] = key === 'status' ? all : (all[0] ?? '');
  }
  return out;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  return dashboardRead(request, () => context.api.orderListPage(paramsOf(new URL(request.url).searchParams)));
}

export async function action({ request, context }: Route.ActionArgs) {
  return dashboardRead(request, async () => {
    const form = await request.formData();
    const intent = form.get('intent');
    let result: OrderViewFormResult;
    if (intent === 'delete-view') {
      result = await context.api.orderViewDelete(String(form.get('viewId') ?? ''));
    } else {
      const fields: Record<string, string | string[]> = { name: String(form.get('name') ?? '').slice(0, 200) };
      for (const k of ORDER_LIST_FILTER_KEYS) {
        const all = form.getAll(k).map((v) => String(v).slice(0, 300));
        if (all.length) fields[k] = k === 'status' ? all : (all[0] as string);
      }
      result = await context.api.orderViewCreate(fields);
    }
    return data({ result, intent }, { status: result.ok ? 200 : result.status });
  });
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Orders');
}

/** A filter as a query string (status repeated, as the form's checkboxes send it). */
function filterSearch(f: Partial<OrderListFilter>): string {
  const s = new URLSearchParams();
  for (const k of ORDER_LIST_FILTER_KEYS) {
    const v = f[k];
    if (v === undefined || v === '' || (k === 'sort' && v === 'newest')) continue;
    if (Array.isArray(v)) for (const x of v) s.append(k, x);
    else s.append(k, String(v));
  }
  return s.toString();
}

const PAYMENT_BADGE: Record<PaymentStatus, string> = {
  pending: 'bg-amber-100 text-amber-900',
  paid: 'bg-neutral-100 text-neutral-800',
  partially_refunded: 'bg-sky-100 text-sky-900',
  refunded: 'bg-neutral-200 text-neutral-700',
  voided: 'bg-neutral-200 text-neutral-700',
};
const FULFILMENT_BADGE: Record<string, string> = {
  unfulfilled: 'bg-amber-100 text-amber-900',
  shipped: 'bg-sky-100 text-sky-900',
  delivered: 'bg-emerald-100 text-emerald-900',
};
const input =
  'h-9 rounded-lg border border-neutral-300 bg-white px-2.5 text-sm text-neutral-900 shadow-sm focus:border-neutral-900 focus:outline-none focus:ring-2 focus:ring-neutral-900/20';
const badge = 'inline-block rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap';

const DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const TIME = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });

/** Every order of the store: search, filters, saved views as tabs, export, pages by keyset. */
export default function OrdersPage({ loaderData, actionData }: Route.ComponentProps) {
  const { query, page, views, activeViewId, currency, storeHasOrders, filterError } = loaderData;
  const result = actionData && 'result' in actionData ? actionData.result : null;
  useActionToast(result);
  const navigation = useNavigation();
  // The status menu closes once its filters are applied (a new list, a new menu).
  const location = useLocation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save-view';
  const filterQuery = filterSearch(query);
  const filtered = ORDER_LIST_FILTER_KEYS.some((k) => k !== 'sort' && query[k] !== undefined);
  const nameError =
    result && !result.ok && actionData?.intent !== 'delete-view' ? (result.fieldErrors.name ?? result.message) : null;
  const statusSet = new Set(query.status ?? []);
  const withCursor = (cursor: string) => `?${filterQuery}${filterQuery ? '&' : ''}cursor=${cursor}`;

  return (
    <DashboardLayout
      title="Orders"
      action={
        <div className="flex flex-wrap gap-2">
          <Link to="/manage-store/orders/cleanup" className={secondaryAction}>
            Unpaid-order clean-up
          </Link>
          <a
            href={`/api/v1/orders/export.csv${filterQuery ? `?${filterQuery}` : ''}`}
            download
            className={secondaryAction}
          >
            <Download aria-hidden className="size-4" />
            Export
          </a>
        </div>
      }
    >
      <Card flush>
        <nav aria-label="Saved views" className="flex gap-1 overflow-x-auto border-b border-neutral-200 px-2 pt-2">
          <ViewTab href={LIST} label="All" current={!filtered && !activeViewId} />
          {views.map((v) => (
            <span key={v.viewId} className="flex shrink-0 items-center">
              <ViewTab href={`${LIST}?${filterSearch(v.filters)}`} label={v.name} current={v.viewId === activeViewId} />
              <PostForm className="-ml-1">
                <input type="hidden" name="intent" value="delete-view" />
                <input type="hidden" name="viewId" value={v.viewId} />
                <button
                  type="submit"
                  aria-label={`Delete view ${v.name}`}
                  className="rounded p-1 text-neutral-400 hover:bg-neutral-100 hover:text-neutral-800"
                >
                  <X aria-hidden className="size-3.5" />
                </button>
              </PostForm>
            </span>
          ))}
        </nav>

        <Form method="get" className="space-y-2 px-3 pt-3 pb-2" role="search" aria-label="Filter orders">
          <div className="flex flex-wrap items-end gap-2">
            <label className="relative min-w-[12rem] flex-1">
              <span className="sr-only">Search orders</span>
              <Search aria-hidden className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-neutral-400" />
              <input
                type="search"
                name="q"
                defaultValue={query.q ?? ''}
                placeholder="Search by order, email or customer"
                className={`${input} w-full pl-8`}
              />
            </label>
            <details key={location.search} className="relative">
              <summary className={`${secondaryAction} cursor-pointer list-none font-medium`}>
                Status{statusSet.size ? ` (${statusSet.size})` : ''}
              </summary>
              <fieldset className="absolute left-0 z-20 mt-1 w-48 rounded-lg border border-neutral-200 bg-white p-3 shadow-lg">
                <legend className="sr-only">Order status</legend>
                {STATUSES.map((s) => (
                  <label key={s} className="flex items-center gap-2 py-0.5 text-sm">
                    <input
                      type="checkbox"
                      name="status"
                      value={s}
                      defaultChecked={statusSet.has(s)}
                      className="size-4"
                    />
                    {ORDER_STATUS_LABELS[s]}
                  </label>
                ))}
              </fieldset>
            </details>
            <Select
              label="Payment status"
              name="payment"
              value={query.payment}
              any="Any payment"
              options={PAYMENT_STATUSES.map((p) => [p, PAYMENT_STATUS_LABELS[p]])}
            />
            <Select
              label="Fulfilment"
              name="fulfilment"
              value={query.fulfilment}
              any="Any fulfilment"
              options={FULFILMENT_FILTERS.map((f) => [f, FULFILMENT_LABELS[f]])}
            />
            <Select
              label="Sort"
              name="sort"
              value={query.sort}
              options={ORDER_LIST_SORTS.map((s) => [s, ORDER_LIST_SORT_LABELS[s]])}
            />
          </div>
          <div className="flex flex-wrap items-end gap-2">
            <label className="flex flex-col text-xs font-medium text-neutral-600">
              Placed from
              <input type="date" name="from" defaultValue={query.from ?? ''} className={input} />
            </label>
            <label className="flex flex-col text-xs font-medium text-neutral-600">
              to
              <input
                type="date"
                name="to"
                defaultValue={query.to ?? ''}
                className={input}
                aria-invalid={filterError?.field === 'to' || undefined}
              />
            </label>
            <label className="flex flex-col text-xs font-medium text-neutral-600">
              Total from ({currency})
              <input
                name="totalMin"
                inputMode="decimal"
                defaultValue={query.totalMin ?? ''}
                placeholder="0.00"
                className={`${input} w-28`}
                aria-invalid={filterError?.field === 'totalMin' || undefined}
                aria-describedby={filterError ? 'filter-error' : undefined}
              />
            </label>
            <label className="flex flex-col text-xs font-medium text-neutral-600">
              to ({currency})
              <input
                name="totalMax"
                inputMode="decimal"
                defaultValue={query.totalMax ?? ''}
                placeholder="0.00"
                className={`${input} w-28`}
                aria-invalid={filterError?.field === 'totalMax' || undefined}
                aria-describedby={filterError ? 'filter-error' : undefined}
              />
            </label>
            <button type="submit" className={secondaryAction}>
              Filter
            </button>
            {filtered && (
              <Link
                to={LIST}
                className="h-9 px-1 text-sm leading-9 font-medium text-neutral-700 underline underline-offset-2"
              >
                Clear filters
              </Link>
            )}
          </div>
          {filterError && (
            <p id="filter-error" role="alert" className="text-sm font-medium text-red-700">
              {filterError.field === 'to' ? 'To date' : filterError.field === 'totalMin' ? 'Total from' : 'Total to'}:{' '}
              {filterError.message} (not applied)
            </p>
          )}
        </Form>

        {filtered && !activeViewId && (
          <PostForm className="flex flex-wrap items-end gap-2 border-t border-neutral-100 bg-neutral-50 px-3 py-2">
            <input type="hidden" name="intent" value="save-view" />
            {ORDER_LIST_FILTER_KEYS.flatMap((k) => {
              const v = query[k];
              if (v === undefined) return [];
              return (Array.isArray(v) ? v : [String(v)]).map((x) => (
                <input key={`${k}-${x}`} type="hidden" name={k} value={x} />
              ));
            })}
            <label className="flex flex-col text-xs font-medium text-neutral-600">
              Save these filters as a view
              <input
                name="name"
                required
                maxLength={ORDER_VIEW_NAME_MAX}
                placeholder="View name, e.g. To ship"
                className={`${input} w-56`}
                aria-invalid={nameError ? true : undefined}
                aria-describedby={nameError ? 'view-name-error' : undefined}
              />
            </label>
            <button type="submit" className={secondaryAction} disabled={saving}>
              {saving ? 'Saving…' : 'Save view'}
            </button>
            {nameError && (
              <p id="view-name-error" className="w-full text-sm font-medium text-red-700">
                {nameError}
              </p>
            )}
          </PostForm>
        )}

        {page.rows.length === 0 ? (
          storeHasOrders && (filtered || query.cursor) ? (
            <CardEmpty icon={<Inbox className="size-6" />} title="No orders match these filters">
              Try other words or fewer filters.{' '}
              <Link to={LIST} className="font-medium underline underline-offset-2">
                Clear filters
              </Link>
            </CardEmpty>
          ) : (
            <CardEmpty icon={<Inbox className="size-6" />} title="No orders yet">
              Orders appear here as soon as shoppers place them.
            </CardEmpty>
          )
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="border-y border-neutral-200 bg-neutral-50 text-xs font-medium text-neutral-600">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    Order
                  </th>
                  <th scope="col" className="hidden px-2 py-2 md:table-cell">
                    Date
                  </th>
                  <th scope="col" className="px-2 py-2">
                    Customer
                  </th>
                  <th scope="col" className="hidden px-2 py-2 sm:table-cell">
                    Payment
                  </th>
                  <th scope="col" className="hidden px-2 py-2 sm:table-cell">
                    Fulfilment
                  </th>
                  <th scope="col" className="hidden px-2 py-2 text-right sm:table-cell">
                    Items
                  </th>
                  <th scope="col" className="px-3 py-2 text-right">
                    Total
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-neutral-100">
                {page.rows.map((r) => (
                  <Row key={r.orderId} row={r} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        <nav
          aria-label="Pages"
          className="flex items-center justify-between gap-2 border-t border-neutral-100 px-3 py-2 text-sm"
        >
          <span className="text-neutral-600">
            {page.rows.length} order{page.rows.length === 1 ? '' : 's'} on this page
          </span>
          <span className="flex gap-2">
            {page.prevCursor && (
              <Link to={withCursor(page.prevCursor)} className={secondaryAction} rel="prev">
                Previous
              </Link>
            )}
            {page.nextCursor && (
              <Link to={withCursor(page.nextCursor)} className={secondaryAction} rel="next">
                Next
              </Link>
            )}
          </span>
        </nav>
      </Card>
    </DashboardLayout>
  );
}

function ViewTab({ href, label, current }: { href: string; label: string; current: boolean }) {
  return (
    <Link
      to={href}
      aria-current={current ? 'page' : undefined}
      className={`shrink-0 rounded-t-md border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap ${
        current
          ? 'border-neutral-900 text-neutral-900'
          : 'border-transparent text-neutral-600 hover:border-neutral-300 hover:text-neutral-900'
      }`}
    >
      {label}
    </Link>
  );
}

function Select({
  label,
  name,
  value,
  options,
  any,
}: {
  label: string;
  name: string;
  value: string | undefined;
  options: (readonly [string, string])[];
  any?: string;
}) {
  return (
    <label className="flex flex-col">
      <span className="sr-only">{label}</span>
      <select name={name} defaultValue={value ?? ''} className={`${input} max-w-[11rem]`}>
        {any !== undefined && <option value="">{any}</option>}
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </label>
  );
}

function Row({ row: r }: { row: OrderListRow }) {
  const fulfilment = fulfilmentOf(r.status);
  const date = new Date(r.placedAt);
  return (
    <tr className="hover:bg-neutral-50">
      <td className="py-1.5 pr-2 pl-3 whitespace-nowrap sm:px-3">
        <Link to={orderHref(r.orderId)} className="font-semibold text-neutral-900 hover:underline">
          {r.orderId}
        </Link>
        {r.status === 'cancelled' && <span className="ml-1 hidden text-xs text-neutral-500 sm:inline">Cancelled</span>}
        <span className="block text-xs text-neutral-500 md:hidden">{DATE.format(date)}</span>
        {/* On a phone the badges sit under the order: four columns fit 375 px, seven do not. */}
        <span className="mt-0.5 flex flex-wrap gap-1 sm:hidden">
          <span className={`${badge} ${PAYMENT_BADGE[r.paymentStatus]}`}>{PAYMENT_STATUS_LABELS[r.paymentStatus]}</span>
          {fulfilment && (
            <span className={`${badge} ${FULFILMENT_BADGE[fulfilment]}`}>{FULFILMENT_LABELS[fulfilment]}</span>
          )}
          {r.status === 'cancelled' && <span className="text-xs text-neutral-500">Cancelled</span>}
        </span>
      </td>
      <td className="hidden px-2 py-1.5 whitespace-nowrap text-neutral-700 md:table-cell">
        <time dateTime={r.placedAt}>
          {DATE.format(date)} <span className="text-neutral-500">{TIME.format(date)}</span>
        </time>
      </td>
      <td className="max-w-[7rem] px-2 py-1.5 sm:max-w-[14rem]">
        <span className="block truncate text-neutral-900">{r.customerName || r.email}</span>
        <span className="block truncate text-xs text-neutral-500">{r.email}</span>
      </td>
      <td className="hidden px-2 py-1.5 sm:table-cell">
        <span className={`${badge} ${PAYMENT_BADGE[r.paymentStatus]}`}>{PAYMENT_STATUS_LABELS[r.paymentStatus]}</span>
      </td>
      <td className="hidden px-2 py-1.5 sm:table-cell">
        {fulfilment ? (
          <span className={`${badge} ${FULFILMENT_BADGE[fulfilment]}`}>{FULFILMENT_LABELS[fulfilment]}</span>
        ) : (
          <span className="text-xs text-neutral-500">{ORDER_STATUS_LABELS[r.status]}</span>
        )}
      </td>
      <td className="hidden px-2 py-1.5 text-right tabular-nums text-neutral-700 sm:table-cell">{r.items}</td>
      <td className="py-1.5 pr-3 pl-1 text-right tabular-nums whitespace-nowrap text-neutral-900 sm:pl-3">
        {formatMoney(r.grandTotal, r.currency)}
      </td>
    </tr>
  );
}
