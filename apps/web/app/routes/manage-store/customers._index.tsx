import type { CustomerRow } from '@app/contracts';
import { customerHref, formatMoney } from '@app/contracts/client';
import { Download, Search, Users } from 'lucide-react';
import { Form, Link } from 'react-router';
import { TypeBadge } from '../../components/manage-store/customer-detail';
import { Card, CardEmpty, DashboardLayout, secondaryAction } from '../../components/manage-store/dashboard-layout';
import { dashboardMeta, dashboardRead } from '../../lib/dashboard-page';
import type { Route } from './+types/customers._index';

const FILTER_KEYS = ['q', 'orders', 'type', 'since_from', 'since_to', 'sort'] as const;
const SORTS: [string, string][] = [
  ['last_order', 'Last order (newest first)'],
  ['amount_spent', 'Amount spent (highest first)'],
  ['name', 'Name (A–Z)'],
];

export async function loader({ context, request }: Route.LoaderArgs) {
  return dashboardRead(request, () => context.api.customersPage(Object.fromEntries(new URL(request.url).searchParams)));
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Customers');
}

const input =
  'h-9 rounded-lg border border-neutral-300 bg-white px-2.5 text-sm text-neutral-900 shadow-sm focus:border-neutral-900 focus:outline-none focus:ring-2 focus:ring-neutral-900/20';

const DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const day = (iso: string) => DAY.format(new Date(iso));

/**
 * Everyone who has an account with the store or ordered from it (decision 045): search, filters in a
 * plain GET form (works without JavaScript), three sorts, keyset pages, and the filtered list as CSV.
 */
export default function CustomersPage({ loaderData }: Route.ComponentProps) {
  const { query, page } = loaderData;
  const filters = FILTER_KEYS.flatMap((k) => (query[k] ? [[k, String(query[k])] as [string, string]] : []));
  const filterQuery = new URLSearchParams(filters).toString();
  const filtered = filters.some(([k]) => k !== 'sort');

  return (
    <DashboardLayout
      title="Customers"
      description="Shopper accounts and guests who ordered, with what they have spent."
      action={
        <a
          href={`/api/v1/customers/export.csv${filterQuery ? `?${filterQuery}` : ''}`}
          download
          className={secondaryAction}
        >
          <Download aria-hidden className="size-4" />
          Export CSV
        </a>
      }
    >
      <Card flush>
        <Form
          method="get"
          className="flex flex-wrap items-end gap-2 px-3 pt-3 pb-2"
          role="search"
          aria-label="Filter customers"
        >
          <label className="relative min-w-[12rem] flex-1">
            <span className="sr-only">Search customers</span>
            <Search aria-hidden className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-neutral-400" />
            <input
              type="search"
              name="q"
              defaultValue={query.q ?? ''}
              placeholder="Search by name or email"
              className={`${input} w-full pl-8`}
            />
          </label>
          <Select
            label="Has orders"
            name="orders"
            value={query.orders}
            any="With or without orders"
            options={[
              ['yes', 'Has orders'],
              ['no', 'No orders'],
            ]}
          />
          <Select
            label="Account or guest"
            name="type"
            value={query.type}
            any="Accounts and guests"
            options={[
              ['account', 'Accounts'],
              ['guest', 'Guests'],
            ]}
          />
          <label className="flex flex-col text-xs text-neutral-600">
            Customer since
            <input type="date" name="since_from" defaultValue={query.since_from ?? ''} className={input} />
          </label>
          <label className="flex flex-col text-xs text-neutral-600">
            until
            <input type="date" name="since_to" defaultValue={query.since_to ?? ''} className={input} />
          </label>
          <label className="flex flex-col">
            <span className="sr-only">Sort by</span>
            <select name="sort" defaultValue={query.sort} className={input}>
              {SORTS.map(([v, l]) => (
                <option key={v} value={v}>
                  {l}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className={secondaryAction}>
            Filter
          </button>
          {filtered && (
            <Link
              to="."
              className="h-9 px-1 text-sm leading-9 font-medium text-neutral-700 underline underline-offset-2"
            >
              Clear
            </Link>
          )}
        </Form>

        {page.rows.length === 0 ? (
          filtered ? (
            <CardEmpty icon={<Search className="size-8" />} title="No customers match these filters">
              Try another search or{' '}
              <Link to="." className="underline">
                clear the filters
              </Link>
              .
            </CardEmpty>
          ) : (
            <CardEmpty icon={<Users className="size-8" />} title="No customers yet">
              Shoppers appear here when they create an account or place an order, even as a guest.
            </CardEmpty>
          )
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm sm:min-w-[40rem]">
              <thead className="border-y border-neutral-200 bg-neutral-50 text-xs font-medium text-neutral-600">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    Customer
                  </th>
                  <th scope="col" className="hidden px-2 py-2 sm:table-cell">
                    Type
                  </th>
                  <th scope="col" className="px-2 py-2 text-right">
                    Orders
                  </th>
                  <th scope="col" className="px-2 py-2 text-right">
                    Amount spent
                  </th>
                  <th scope="col" className="hidden px-3 py-2 md:table-cell">
                    Last order
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-neutral-100">
                {page.rows.map((r) => (
                  <Row key={r.userId ?? r.email} row={r} currency={page.currency} />
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
            {page.rows.length} customer{page.rows.length === 1 ? '' : 's'} on this page
          </span>
          <span className="flex gap-2">
            {query.cursor && (
              <Link to={`?${filterQuery}`} className={secondaryAction}>
                First page
              </Link>
            )}
            {page.nextCursor && (
              <Link
                to={`?${filterQuery}${filterQuery ? '&' : ''}cursor=${page.nextCursor}`}
                className={secondaryAction}
              >
                Next page
              </Link>
            )}
          </span>
        </nav>
      </Card>
    </DashboardLayout>
  );
}

function Row({ row: r, currency }: { row: CustomerRow; currency: string }) {
  return (
    <tr className="hover:bg-neutral-50">
      <td className="max-w-[11rem] px-3 py-1.5 sm:max-w-[18rem]">
        <Link
          to={customerHref({ userId: r.userId, email: r.email })}
          className="block truncate font-medium text-neutral-900 hover:underline"
        >
          {r.name || r.email}
        </Link>
        <span className="block truncate text-xs text-neutral-600">{r.email}</span>
        {/* On a phone the type column folds into the customer's cell. */}
        <span className="mt-0.5 block sm:hidden">
          <TypeBadge type={r.type} />
        </span>
      </td>
      <td className="hidden px-2 py-1.5 sm:table-cell">
        <TypeBadge type={r.type} />
      </td>
      <td className="px-2 py-1.5 text-right tabular-nums">{r.orderCount.toLocaleString('en-US')}</td>
      <td className="px-2 py-1.5 text-right tabular-nums whitespace-nowrap">{formatMoney(r.amountSpent, currency)}</td>
      <td className="hidden px-3 py-1.5 whitespace-nowrap text-xs text-neutral-600 md:table-cell">
        {r.lastOrderAt ? <time dateTime={r.lastOrderAt}>{day(r.lastOrderAt)}</time> : '—'}
      </td>
    </tr>
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
  options: [string, string][];
  any: string;
}) {
  return (
    <label className="flex flex-col">
      <span className="sr-only">{label}</span>
      <select name={name} defaultValue={value ?? ''} className={`${input} max-w-[13rem]`}>
        <option value="">{any}</option>
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </label>
  );
}
