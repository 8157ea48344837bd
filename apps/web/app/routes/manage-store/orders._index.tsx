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
  orderLineVariantText,
  PAYMENT_STATUS_LABELS,
  PAYMENT_STATUSES,
  type PaymentStatus,
} from '@app/contracts/client';
import { Download, Inbox, Search, X } from 'lucide-react';
import { data, Form, Link, useLocation, useNavigation } from 'react-router';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Banner } from '../../components/ui/banner';
import { Button, ButtonLink, buttonClass } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Checkbox } from '../../components/ui/checkbox';
import { type Column, DataTable } from '../../components/ui/data-table';
import { AdminEmptyState } from '../../components/ui/empty-state';
import { AdminPage } from '../../components/ui/page-header';
import { Pagination } from '../../components/ui/pagination';
import { PostForm } from '../../components/ui/post-form';
import { SelectField } from '../../components/ui/select-field';
import { TextField } from '../../components/ui/text-field';
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

const PAYMENT_TONE: Record<PaymentStatus, BadgeTone> = {
  pending: 'warning',
  paid: 'neutral',
  partially_refunded: 'info',
  refunded: 'neutral',
  voided: 'neutral',
};
const FULFILMENT_TONE: Record<string, BadgeTone> = {
  unfulfilled: 'warning',
  shipped: 'info',
  delivered: 'success',
};
const FILTER_LABELS = { to: 'To date', totalMin: 'Total from', totalMax: 'Total to' } as const;

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
    <AdminPage
      title="Orders"
      secondaryActions={
        <>
          <ButtonLink to="/manage-store/orders/cleanup">Unpaid-order clean-up</ButtonLink>
          <a
            href={`/api/v1/orders/export.csv${filterQuery ? `?${filterQuery}` : ''}`}
            download
            className={buttonClass()}
          >
            <Download aria-hidden className="size-4" />
            Export
          </a>
        </>
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
                {/* A view is a saved filter, nothing more: it goes at once, and saving it again brings it back. */}
                <Button type="submit" variant="icon" slim aria-label={`Delete view ${v.name}`}>
                  <X aria-hidden className="size-3.5" />
                </Button>
              </PostForm>
            </span>
          ))}
        </nav>

        <Form method="get" className="space-y-2 px-3 pt-3 pb-2" role="search" aria-label="Filter orders">
          <div className="flex flex-wrap items-end gap-2">
            <TextField
              id="orders-q"
              className="flex-[1_1_12rem]"
              label="Search orders"
              labelHidden
              type="search"
              name="q"
              defaultValue={query.q ?? ''}
              placeholder="Search by order, email or customer"
              prefix={<Search className="size-4" />}
            />
            <details key={location.search} className="relative">
              <summary className={`${buttonClass()} cursor-pointer list-none`}>
                Status{statusSet.size ? ` (${statusSet.size})` : ''}
              </summary>
              <fieldset className="absolute left-0 z-20 mt-1 w-48 rounded-lg border border-neutral-200 bg-white p-3 shadow-lg">
                <legend className="sr-only">Order status</legend>
                {STATUSES.map((s) => (
                  <div key={s} className="py-0.5">
                    <Checkbox
                      id={`status-${s}`}
                      name="status"
                      value={s}
                      defaultChecked={statusSet.has(s)}
                      label={ORDER_STATUS_LABELS[s]}
                    />
                  </div>
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
            <TextField id="orders-from" label="Placed from" type="date" name="from" defaultValue={query.from ?? ''} />
            <TextField
              id="orders-to"
              label="to"
              type="date"
              name="to"
              defaultValue={query.to ?? ''}
              error={filterError?.field === 'to' ? filterError.message : undefined}
            />
            <TextField
              id="orders-total-min"
              className="w-32"
              label={`Total from (${currency})`}
              name="totalMin"
              inputMode="decimal"
              autoComplete="off"
              defaultValue={query.totalMin ?? ''}
              placeholder="0.00"
              error={filterError?.field === 'totalMin' ? filterError.message : undefined}
            />
            <TextField
              id="orders-total-max"
              className="w-32"
              label={`to (${currency})`}
              name="totalMax"
              inputMode="decimal"
              autoComplete="off"
              defaultValue={query.totalMax ?? ''}
              placeholder="0.00"
              error={filterError?.field === 'totalMax' ? filterError.message : undefined}
            />
            <Button type="submit">Filter</Button>
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
            <Banner>
              {FILTER_LABELS[filterError.field as keyof typeof FILTER_LABELS] ?? 'Total to'}: {filterError.message} (not
              applied)
            </Banner>
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
            <TextField
              id="view-name"
              className="w-56"
              label="Save these filters as a view"
              name="name"
              required
              maxLength={ORDER_VIEW_NAME_MAX}
              placeholder="View name, e.g. To ship"
              error={nameError}
            />
            <Button type="submit" disabled={saving}>
              {saving ? 'Saving…' : 'Save view'}
            </Button>
          </PostForm>
        )}

        {page.rows.length === 0 ? (
          storeHasOrders && (filtered || query.cursor) ? (
            <AdminEmptyState icon={<Inbox className="size-6" />} title="No orders match these filters">
              Try other words or fewer filters.{' '}
              <Link to={LIST} className="font-medium underline underline-offset-2">
                Clear filters
              </Link>
            </AdminEmptyState>
          ) : (
            <AdminEmptyState icon={<Inbox className="size-6" />} title="No orders yet">
              Orders appear here as soon as shoppers place them.
            </AdminEmptyState>
          )
        ) : (
          <DataTable label="Orders" rows={page.rows} rowKey={(r) => r.orderId} minWidth="0" columns={ORDER_COLUMNS} />
        )}
        <Pagination
          summary={`${page.rows.length} order${page.rows.length === 1 ? '' : 's'} on this page`}
          previous={page.prevCursor && withCursor(page.prevCursor)}
          next={page.nextCursor && withCursor(page.nextCursor)}
        />
      </Card>
    </AdminPage>
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
    <SelectField
      id={`orders-${name}`}
      className="max-w-[11rem]"
      label={label}
      labelHidden
      name={name}
      defaultValue={value ?? ''}
      options={[
        ...(any !== undefined ? [{ value: '', label: any }] : []),
        ...options.map(([v, l]) => ({ value: v, label: l })),
      ]}
    />
  );
}

const paymentBadge = (r: OrderListRow) => (
  <Badge tone={PAYMENT_TONE[r.paymentStatus]}>{PAYMENT_STATUS_LABELS[r.paymentStatus]}</Badge>
);

/**
 * The list's columns. On a phone the customer, the date and the badges fold in under the order, and
 * the total stays in its own column beside it (as Shopify's app lists orders): two columns fit 375 px
 * whole, where three pushed the total out of the card.
 */
const ORDER_COLUMNS: Column<OrderListRow>[] = [
  {
    header: 'Order',
    className: 'whitespace-nowrap',
    cell: (r) => {
      const fulfilment = fulfilmentOf(r.status);
      return (
        <>
          <Link to={orderHref(r.orderId)} className="font-semibold text-neutral-900 hover:underline">
            {r.orderId}
          </Link>
          {r.status === 'cancelled' && <span className="hidden text-xs text-neutral-500 sm:block">Cancelled</span>}
          <span className="block max-w-[12rem] truncate text-xs text-neutral-700 sm:hidden">
            {r.customerName || r.email}
          </span>
          <span className="block text-xs text-neutral-500 md:hidden">{DATE.format(new Date(r.placedAt))}</span>
          <span className="mt-0.5 flex flex-wrap gap-1 sm:hidden">
            {paymentBadge(r)}
            {fulfilment && <Badge tone={FULFILMENT_TONE[fulfilment]}>{FULFILMENT_LABELS[fulfilment]}</Badge>}
            {r.status === 'cancelled' && <span className="text-xs text-neutral-500">Cancelled</span>}
          </span>
        </>
      );
    },
  },
  {
    header: 'Date',
    className: 'hidden whitespace-nowrap text-neutral-700 md:table-cell',
    cell: (r) => {
      const date = new Date(r.placedAt);
      return (
        <time dateTime={r.placedAt}>
          {DATE.format(date)} <span className="block text-xs text-neutral-500">{TIME.format(date)}</span>
        </time>
      );
    },
  },
  {
    header: 'Customer',
    className: 'hidden sm:table-cell',
    // The width is capped on a block inside the cell: a table cell's own max-width does not hold, and a
    // long name or line pushed the Total out of the card at 1280 px.
    cell: (r) => (
      <div className="max-w-[12rem]">
        <span className="block truncate text-neutral-900">{r.customerName || r.email}</span>
        <span className="block truncate text-xs text-neutral-500">{r.email}</span>
      </div>
    ),
  },
  { header: 'Payment', className: 'hidden sm:table-cell', cell: paymentBadge },
  {
    header: 'Fulfilment',
    className: 'hidden sm:table-cell',
    cell: (r) => {
      const fulfilment = fulfilmentOf(r.status);
      return fulfilment ? (
        <Badge tone={FULFILMENT_TONE[fulfilment]}>{FULFILMENT_LABELS[fulfilment]}</Badge>
      ) : (
        <span className="text-xs text-neutral-500">{ORDER_STATUS_LABELS[r.status]}</span>
      );
    },
  },
  {
    header: 'Items',
    align: 'end',
    className: 'hidden tabular-nums text-neutral-700 sm:table-cell',
    // The units, then what they are: the first lines with their variants, so a glance tells Brass from Black.
    cell: (r) => (
      <>
        {r.items}
        <span className="block max-w-[12rem] text-left text-xs text-neutral-500" data-testid="order-row-lines">
          {r.lines.map((l, i) => (
            <span key={i} className="block truncate">
              {l.quantity} × {l.productName}
              {l.variantTitle && `, ${orderLineVariantText(l)}`}
            </span>
          ))}
          {r.moreLines > 0 && <span className="block">and {r.moreLines} more</span>}
        </span>
      </>
    ),
  },
  {
    header: 'Total',
    align: 'end',
    className: 'whitespace-nowrap tabular-nums text-neutral-900',
    cell: (r) => formatMoney(r.grandTotal, r.currency),
  },
];
