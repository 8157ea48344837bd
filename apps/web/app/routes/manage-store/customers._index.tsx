import type { CustomerRow } from '@app/contracts';
import { customerHref, formatMoney } from '@app/contracts/client';
import { Download, Search, Users } from 'lucide-react';
import { Form, Link } from 'react-router';
import { TypeBadge } from '../../components/manage-store/customer-detail';
import { Button, buttonClass } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { DataTable } from '../../components/ui/data-table';
import { AdminEmptyState } from '../../components/ui/empty-state';
import { AdminPage } from '../../components/ui/page-header';
import { cursorHref, Pagination } from '../../components/ui/pagination';
import { SelectField } from '../../components/ui/select-field';
import { TextField } from '../../components/ui/text-field';
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
    <AdminPage
      title="Customers"
      description="Shopper accounts and guests who ordered, with what they have spent."
      secondaryActions={
        <a
          href={`/api/v1/customers/export.csv${filterQuery ? `?${filterQuery}` : ''}`}
          download
          className={buttonClass()}
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
          {/* The kit's prefix, as on Orders: an icon laid over the box covered the placeholder's first letter. */}
          <TextField
            className="flex-[1_1_16rem]"
            label="Search customers"
            labelHidden
            type="search"
            name="q"
            defaultValue={query.q ?? ''}
            placeholder="Search by name or email"
            prefix={<Search className="size-4" />}
          />
          <FilterSelect
            label="Has orders"
            name="orders"
            value={query.orders}
            any="With or without orders"
            options={[
              ['yes', 'Has orders'],
              ['no', 'No orders'],
            ]}
          />
          <FilterSelect
            label="Account or guest"
            name="type"
            value={query.type}
            any="Accounts and guests"
            options={[
              ['account', 'Accounts'],
              ['guest', 'Guests'],
            ]}
          />
          <TextField label="Customer since" type="date" name="since_from" defaultValue={query.since_from ?? ''} />
          <TextField label="until" type="date" name="since_to" defaultValue={query.since_to ?? ''} />
          <SelectField
            label="Sort by"
            labelHidden
            name="sort"
            defaultValue={query.sort}
            options={SORTS.map(([value, label]) => ({ value, label }))}
          />
          <Button type="submit">Filter</Button>
          {filtered && (
            <Link to="." className={buttonClass('plain')}>
              Clear
            </Link>
          )}
        </Form>

        {page.rows.length === 0 ? (
          filtered ? (
            <AdminEmptyState icon={<Search className="size-6" />} title="No customers match these filters">
              Try another search or{' '}
              <Link to="." className="underline">
                clear the filters
              </Link>
              .
            </AdminEmptyState>
          ) : (
            <AdminEmptyState icon={<Users className="size-6" />} title="No customers yet">
              Shoppers appear here when they create an account or place an order, even as a guest.
            </AdminEmptyState>
          )
        ) : (
          <DataTable
            label="Customers"
            rows={page.rows}
            rowKey={(r) => r.userId ?? r.email}
            minWidth="0"
            columns={[
              {
                header: 'Customer',
                cell: (r) => <CustomerCell row={r} />,
                className: 'max-w-[11rem] sm:max-w-[18rem]',
              },
              { header: 'Type', cell: (r) => <TypeBadge type={r.type} />, className: 'hidden sm:table-cell' },
              {
                header: 'Orders',
                cell: (r) => r.orderCount.toLocaleString('en-US'),
                align: 'end',
                // On a phone the count folds into the customer's cell, so the amount spent fits whole.
                className: 'hidden tabular-nums sm:table-cell',
              },
              {
                header: 'Amount spent',
                cell: (r) => formatMoney(r.amountSpent, page.currency),
                align: 'end',
                className: 'tabular-nums whitespace-nowrap',
              },
              {
                header: 'Last order',
                cell: (r) => (r.lastOrderAt ? <time dateTime={r.lastOrderAt}>{day(r.lastOrderAt)}</time> : '—'),
                className: 'hidden whitespace-nowrap text-xs text-neutral-600 md:table-cell',
              },
            ]}
          />
        )}
        <Pagination
          summary={`${page.rows.length} customer${page.rows.length === 1 ? '' : 's'} on this page`}
          next={page.nextCursor && cursorHref(new URLSearchParams(filterQuery), page.nextCursor)}
          first={query.cursor ? cursorHref(new URLSearchParams(filterQuery), null) : null}
        />
      </Card>
    </AdminPage>
  );
}

function CustomerCell({ row: r }: { row: CustomerRow }) {
  return (
    <>
      <Link
        to={customerHref({ userId: r.userId, email: r.email })}
        className="block truncate font-medium text-neutral-900 hover:underline"
      >
        {r.name || r.email}
      </Link>
      <span className="block truncate text-xs text-neutral-600">{r.email}</span>
      {/* On a phone the type and order count columns fold into the customer's cell. */}
      <span className="mt-0.5 flex items-center gap-2 sm:hidden">
        <TypeBadge type={r.type} />
        <span className="text-xs text-neutral-600">
          {r.orderCount.toLocaleString('en-US')} order{r.orderCount === 1 ? '' : 's'}
        </span>
      </span>
    </>
  );
}

/** A filter: a select whose first option means "any". */
function FilterSelect({
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
    <SelectField
      label={label}
      labelHidden
      name={name}
      defaultValue={value ?? ''}
      className="max-w-[13rem]"
      options={[{ value: '', label: any }, ...options.map(([v, l]) => ({ value: v, label: l }))]}
    />
  );
}
