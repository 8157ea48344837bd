import { RETURN_TAB_LABELS, RETURN_TABS } from '@app/contracts/client';
import { LoaderCircle, PackageOpen } from 'lucide-react';
import { Form, Link, useNavigation } from 'react-router';
import { ReturnBadge } from '../../components/manage-store/return-badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { DataTable } from '../../components/ui/data-table';
import { AdminEmptyState } from '../../components/ui/empty-state';
import { AdminPage } from '../../components/ui/page-header';
import { Pagination } from '../../components/ui/pagination';
import { TextField } from '../../components/ui/text-field';
import { dashboardMeta, dashboardRead, formatDateTime } from '../../lib/dashboard-page';
import type { Route } from './+types/returns._index';

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const get = (k: string) => url.searchParams.get(k)?.slice(0, 300) ?? undefined;
  const page = await dashboardRead(request, () =>
    context.api.returnsPage({ status: get('status'), q: get('q'), cursor: get('cursor') }),
  );
  return { ...page, paged: Boolean(get('cursor')) };
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Returns');
}

const returnHref = (id: string) => `/manage-store/returns/${encodeURIComponent(id)}`;

/** Every return request of the store, newest first: a tab per step that waits on the store. */
export default function ReturnsPage({ loaderData: page }: Route.ComponentProps) {
  const navigation = useNavigation();
  const { query } = page;
  const tabHref = (status?: string) => {
    const p = new URLSearchParams();
    if (status) p.set('status', status);
    if (query.q) p.set('q', query.q);
    const s = p.toString();
    return `/manage-store/returns${s ? `?${s}` : ''}`;
  };
  const next = new URLSearchParams();
  if (query.status) next.set('status', query.status);
  if (query.q) next.set('q', query.q);
  const first = next.toString();
  if (page.nextCursor) next.set('cursor', page.nextCursor);
  const searching = navigation.state === 'loading' && navigation.location?.pathname === '/manage-store/returns';
  const filtered = Boolean(query.q || query.status);
  const tabs = [
    { value: undefined, label: 'All' },
    ...RETURN_TABS.map((t) => ({ value: t, label: RETURN_TAB_LABELS[t] })),
  ];
  return (
    <AdminPage
      title="Returns"
      description="Return requests from your shoppers. Approve them with instructions, mark parcels received to put the stock back, and refund."
    >
      <Card flush>
        <nav aria-label="Return status" className="overflow-x-auto border-b border-neutral-200">
          <ul className="flex min-w-max gap-1 px-2">
            {tabs.map((t) => {
              const current = (query.status ?? undefined) === t.value;
              return (
                <li key={t.label}>
                  <Link
                    to={tabHref(t.value)}
                    aria-current={current ? 'page' : undefined}
                    className={`inline-flex h-10 items-center border-b-2 px-3 text-sm font-medium ${
                      current
                        ? 'border-neutral-900 text-neutral-900'
                        : 'border-transparent text-neutral-600 hover:text-neutral-900'
                    }`}
                  >
                    {t.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <Form method="get" className="flex flex-wrap items-end gap-2 px-4 py-3" role="search">
          {query.status && <input type="hidden" name="status" value={query.status} />}
          <TextField
            id="returns-q"
            label="Search by order number or email"
            name="q"
            type="search"
            defaultValue={query.q ?? ''}
            className="min-w-48 flex-1"
          />
          <Button type="submit">
            {searching && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
            Search
          </Button>
        </Form>
        {page.items.length === 0 ? (
          <AdminEmptyState
            icon={<PackageOpen className="size-6" />}
            title={filtered ? 'No return requests match' : 'No return requests yet'}
          >
            {filtered ? (
              <Link to="/manage-store/returns" className="underline underline-offset-2">
                Show all return requests
              </Link>
            ) : (
              'When a shopper asks to send something back, the request shows here.'
            )}
          </AdminEmptyState>
        ) : (
          <DataTable
            label="Return requests, newest first"
            rows={page.items}
            rowKey={(r) => r.returnId}
            testId={() => 'return-row'}
            minWidth="0"
            columns={[
              {
                header: 'Return',
                className: 'whitespace-nowrap',
                cell: (r) => (
                  <>
                    <Link
                      to={returnHref(r.returnId)}
                      className="font-semibold text-neutral-900 underline-offset-2 hover:underline"
                    >
                      {r.returnId}
                    </Link>
                    {/* On a phone the customer, the order and the date fold in under the request's
                        number, so its status stays in view beside it. */}
                    <span className="block max-w-[12rem] truncate text-xs text-neutral-700 sm:hidden">
                      {r.customer.name ?? r.customer.email}
                    </span>
                    <span className="block text-xs text-neutral-500 sm:hidden">Order {r.orderId}</span>
                    <span className="block text-xs text-neutral-500 sm:hidden">
                      <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
                    </span>
                  </>
                ),
              },
              { header: 'Order', className: 'hidden whitespace-nowrap sm:table-cell', cell: (r) => r.orderId },
              {
                header: 'Customer',
                className: 'hidden max-w-48 truncate sm:table-cell',
                cell: (r) => <span title={r.customer.email}>{r.customer.name ?? r.customer.email}</span>,
              },
              { header: 'Items', align: 'end', className: 'hidden tabular-nums sm:table-cell', cell: (r) => r.items },
              { header: 'Reason', className: 'hidden md:table-cell', cell: (r) => r.reasonLabel },
              { header: 'Status', cell: (r) => <ReturnBadge status={r.status} label={r.statusLabel} /> },
              {
                header: 'Requested',
                className: 'hidden whitespace-nowrap sm:table-cell',
                cell: (r) => <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>,
              },
            ]}
          />
        )}
        <Pagination
          next={page.nextCursor && `/manage-store/returns?${next.toString()}`}
          first={page.paged ? `/manage-store/returns${first ? `?${first}` : ''}` : null}
        />
      </Card>
    </AdminPage>
  );
}
