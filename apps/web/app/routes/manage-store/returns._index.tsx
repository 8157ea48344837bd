import { RETURN_TAB_LABELS, RETURN_TABS } from '@app/contracts/client';
import { LoaderCircle, PackageOpen } from 'lucide-react';
import { Form, Link, useNavigation } from 'react-router';
import { Card, CardEmpty, DashboardLayout, secondaryAction } from '../../components/manage-store/dashboard-layout';
import { ReturnBadge } from '../../components/manage-store/return-badge';
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
    <DashboardLayout
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
          <div className="flex min-w-48 flex-1 flex-col">
            <label htmlFor="returns-q" className="mb-1 text-xs font-medium text-neutral-600">
              Search by order number or email
            </label>
            <input
              id="returns-q"
              name="q"
              type="search"
              defaultValue={query.q ?? ''}
              className="h-9 rounded-lg border border-neutral-300 px-2.5 text-sm focus:outline-none focus:ring-2 focus:ring-neutral-300"
            />
          </div>
          <button type="submit" className={secondaryAction}>
            {searching && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
            Search
          </button>
        </Form>
        {page.items.length === 0 ? (
          <CardEmpty
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
          </CardEmpty>
        ) : (
          <>
            {/* Narrow screens: a stacked row per request; wide ones: the dense table. */}
            <ul
              className="divide-y divide-neutral-100 border-t border-neutral-100 sm:hidden"
              aria-label="Return requests"
            >
              {page.items.map((r) => (
                <li key={r.returnId} className="px-4 py-3 text-sm">
                  <div className="flex items-center justify-between gap-2">
                    <Link
                      to={returnHref(r.returnId)}
                      className="font-semibold text-neutral-900 underline-offset-2 hover:underline"
                    >
                      {r.returnId}
                    </Link>
                    <ReturnBadge status={r.status} label={r.statusLabel} />
                  </div>
                  <p className="mt-0.5 truncate text-neutral-700">
                    {r.customer.name ?? r.customer.email} · {r.items} {r.items === 1 ? 'item' : 'items'} ·{' '}
                    {r.reasonLabel}
                  </p>
                  <p className="text-xs text-neutral-500">
                    Order {r.orderId} · <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
                  </p>
                </li>
              ))}
            </ul>
            <div className="hidden overflow-x-auto border-t border-neutral-100 sm:block">
              <table className="w-full min-w-[44rem] text-left text-sm">
                <caption className="sr-only">Return requests, newest first</caption>
                <thead className="bg-neutral-50 text-xs text-neutral-600">
                  <tr>
                    <th scope="col" className="px-4 py-2 font-medium">
                      Return
                    </th>
                    <th scope="col" className="px-2 py-2 font-medium">
                      Order
                    </th>
                    <th scope="col" className="px-2 py-2 font-medium">
                      Customer
                    </th>
                    <th scope="col" className="px-2 py-2 text-right font-medium">
                      Items
                    </th>
                    <th scope="col" className="px-2 py-2 font-medium">
                      Reason
                    </th>
                    <th scope="col" className="px-2 py-2 font-medium">
                      Status
                    </th>
                    <th scope="col" className="px-4 py-2 font-medium">
                      Requested
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-neutral-100">
                  {page.items.map((r) => (
                    <tr key={r.returnId} className="hover:bg-neutral-50" data-testid="return-row">
                      <td className="whitespace-nowrap px-4 py-2">
                        <Link
                          to={returnHref(r.returnId)}
                          className="font-semibold text-neutral-900 underline-offset-2 hover:underline"
                        >
                          {r.returnId}
                        </Link>
                      </td>
                      <td className="whitespace-nowrap px-2 py-2 text-neutral-700">{r.orderId}</td>
                      <td className="max-w-48 truncate px-2 py-2 text-neutral-700" title={r.customer.email}>
                        {r.customer.name ?? r.customer.email}
                      </td>
                      <td className="px-2 py-2 text-right tabular-nums text-neutral-700">{r.items}</td>
                      <td className="px-2 py-2 text-neutral-700">{r.reasonLabel}</td>
                      <td className="px-2 py-2">
                        <ReturnBadge status={r.status} label={r.statusLabel} />
                      </td>
                      <td className="whitespace-nowrap px-4 py-2 text-neutral-700">
                        <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
        {(page.nextCursor || page.paged) && (
          <nav aria-label="Pages" className="flex justify-between gap-3 border-t border-neutral-100 px-4 py-3 text-sm">
            <Link to={`/manage-store/returns${first ? `?${first}` : ''}`} className="font-medium underline">
              First page
            </Link>
            {page.nextCursor && (
              <Link to={`/manage-store/returns?${next.toString()}`} className="font-medium underline">
                Next page
              </Link>
            )}
          </nav>
        )}
      </Card>
    </DashboardLayout>
  );
}
