import type { OperatorStoreRow } from '@app/contracts';
import { CONSOLE_SORT_LABELS, CONSOLE_STATE_BADGES, CONSOLE_STATES, formatMoney } from '@app/contracts/client';
import { Plus, Search, Store } from 'lucide-react';
import { Form, Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { type Column, DataTable } from '../../../components/ui/data-table';
import { AdminEmptyState } from '../../../components/ui/empty-state';
import { AdminPage } from '../../../components/ui/page-header';
import { cursorHref, Pagination } from '../../../components/ui/pagination';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { COUNT, consoleMeta, consoleRead, platformApi } from '../../../lib/console-page';
import { formatDateTime } from '../../../lib/dashboard-page';
import type { Route } from './+types/_console._index';

const FILTER_KEYS = ['q', 'state', 'sort'] as const;

/**
 * The address carries the filters and the cursors: `cursor` is the page shown, `back` the cursors
 * of the pages before it (comma-separated, oldest first), so "Previous page" is a plain link too.
 * Keyset pages (the API's `nextCursor`) stay as fast on page 200 as on page 1.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  return consoleRead(request, async () => {
    const url = new URL(request.url);
    const params: Record<string, string> = {};
    for (const k of [...FILTER_KEYS, 'cursor'] as const) {
      const v = url.searchParams.get(k);
      if (v) params[k] = v.slice(0, 300);
    }
    const back = (url.searchParams.get('back') ?? '').split(',').filter(Boolean).slice(-50);
    const { query, page } = await platformApi(context).consoleStores(params);
    return { query, page, cursor: params.cursor ?? null, back };
  });
}

export function meta() {
  return consoleMeta('Stores');
}

const COLUMNS: Column<OperatorStoreRow>[] = [
  {
    header: 'Store',
    rowHeader: true,
    cell: (s) => (
      <span className="block min-w-0">
        <Link to={`/operator/stores/${encodeURIComponent(s.tenantId)}`} className="font-semibold hover:underline">
          {s.name}
        </Link>
        {s.host && <span className="block truncate text-xs text-[#616161]">{s.host}</span>}
      </span>
    ),
  },
  { header: 'Owner', cell: (s) => <span className="break-all">{s.ownerEmail ?? '—'}</span> },
  {
    header: 'State',
    cell: (s) => <Badge tone={CONSOLE_STATE_BADGES[s.state].tone}>{CONSOLE_STATE_BADGES[s.state].label}</Badge>,
  },
  { header: 'Created', cell: (s) => formatDateTime(s.createdAt), className: 'whitespace-nowrap' },
  { header: 'Orders (30 d)', cell: (s) => COUNT.format(s.orders30d), align: 'end' },
  {
    header: 'Sales (30 d)',
    cell: (s) => formatMoney(s.sales30d.amount, s.sales30d.currency),
    align: 'end',
    className: 'whitespace-nowrap',
  },
];

/** Every store of the platform: find one by name, host or owner; filter by state; sort. */
export default function StoresPage({ loaderData }: Route.ComponentProps) {
  const { query, page, cursor, back } = loaderData;
  const filters: Record<string, string> = {};
  for (const k of FILTER_KEYS)
    if (query[k] && !(k === 'sort' && query.sort === 'created')) filters[k] = String(query[k]);
  const filtered = Boolean(filters.q || filters.state);
  const withBack = (list: string[]) => (list.length ? { back: list.join(',') } : {});
  const next = page.nextCursor
    ? cursorHref({ ...filters, ...withBack(cursor ? [...back, cursor] : back) }, page.nextCursor)
    : null;
  const previous = cursor ? cursorHref({ ...filters, ...withBack(back.slice(0, -1)) }, back.at(-1) ?? null) : null;
  return (
    <AdminPage
      title="Stores"
      description="Every store on the platform: find one by its name, host or owner’s email."
      primaryAction={
        <ButtonLink to="/operator/stores/new" variant="primary">
          <Plus aria-hidden className="size-4" />
          Create store
        </ButtonLink>
      }
    >
      <Card flush>
        <Form
          method="get"
          className="flex flex-wrap items-end gap-2 px-3 pt-3 pb-2"
          role="search"
          aria-label="Find stores"
        >
          <TextField
            id="stores-q"
            className="flex-[1_1_14rem]"
            label="Search stores"
            labelHidden
            type="search"
            name="q"
            defaultValue={query.q ?? ''}
            placeholder="Name, host or owner’s email"
            prefix={<Search className="size-4" />}
          />
          <SelectField
            label="State"
            labelHidden
            name="state"
            defaultValue={query.state ?? ''}
            options={[
              { value: '', label: 'Any state' },
              ...CONSOLE_STATES.map((s) => ({ value: s, label: CONSOLE_STATE_BADGES[s].label })),
            ]}
          />
          <SelectField
            label="Sort"
            labelHidden
            name="sort"
            defaultValue={query.sort}
            options={Object.entries(CONSOLE_SORT_LABELS).map(([value, label]) => ({ value, label }))}
          />
          <Button type="submit">Apply</Button>
          {filtered && (
            <Link to="/operator" className="self-center px-1 text-sm font-medium text-[#005bd3] hover:underline">
              Clear
            </Link>
          )}
        </Form>
        {page.stores.length === 0 ? (
          <AdminEmptyState
            icon={<Store className="size-6" />}
            title={filtered ? 'No store matches' : 'No stores yet'}
            action={
              filtered ? (
                <ButtonLink to="/operator">Show every store</ButtonLink>
              ) : (
                <ButtonLink to="/operator/stores/new" variant="primary">
                  Create store
                </ButtonLink>
              )
            }
          >
            {filtered
              ? 'Try part of the name, the whole host (shop.example.com) or the owner’s email, or another state.'
              : 'Stores appear here as merchants sign up, or when you create one for a merchant.'}
          </AdminEmptyState>
        ) : (
          <DataTable
            label="Stores"
            rows={page.stores}
            rowKey={(s) => s.tenantId}
            columns={COLUMNS}
            minWidth="48rem"
            testId={() => 'store-row'}
          />
        )}
        <div className="px-3 pb-3">
          <Pagination
            label="Stores pages"
            summary={
              page.figuresAt ? (
                <span className="text-xs text-[#616161]">
                  Figures of the last 30 days, as of {formatDateTime(page.figuresAt)}
                </span>
              ) : undefined
            }
            previous={previous}
            next={next}
          />
        </div>
      </Card>
    </AdminPage>
  );
}
