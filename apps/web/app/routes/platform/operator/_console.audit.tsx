import type { PlatformAuditEntry } from '@app/contracts';
import { PLATFORM_AUDIT_ACTION_LABELS, platformAuditActionLabel } from '@app/contracts/client';
import { ScrollText } from 'lucide-react';
import { Form, Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { type Column, DataTable } from '../../../components/ui/data-table';
import { AdminEmptyState } from '../../../components/ui/empty-state';
import { AdminPage } from '../../../components/ui/page-header';
import { cursorHref, Pagination } from '../../../components/ui/pagination';
import { SelectField, type SelectOption } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { consoleMeta, consoleRead, platformApi } from '../../../lib/console-page';
import { formatDateTime } from '../../../lib/dashboard-page';
import type { Route } from './+types/_console.audit';

const FILTER_KEYS = ['tenantId', 'action'] as const;

export async function loader({ context, request }: Route.LoaderArgs) {
  return consoleRead(request, async () => {
    const url = new URL(request.url);
    const params: Record<string, string> = {};
    for (const k of [...FILTER_KEYS, 'cursor'] as const) {
      const v = url.searchParams.get(k)?.trim();
      if (v) params[k] = v.slice(0, 200);
    }
    const { query, page } = await platformApi(context).consoleAudit(params);
    return { query, page };
  });
}

export function meta() {
  return consoleMeta('Audit log');
}

const who = (e: PlatformAuditEntry) =>
  e.actor.kind === 'system'
    ? 'System'
    : e.actor.kind === 'token'
      ? `${e.actor.email ?? 'Operator'} (token ${e.actor.tokenName ?? e.actor.tokenId ?? ''})`
      : (e.actor.email ?? 'Operator');

const COLUMNS: Column<PlatformAuditEntry>[] = [
  { header: 'When', cell: (e) => formatDateTime(e.at), className: 'whitespace-nowrap' },
  { header: 'Who', cell: (e) => <span className="break-all">{who(e)}</span> },
  {
    header: 'Action',
    // The words, and under them the code that scripts and the filter's address use.
    cell: (e) => (
      <>
        <span className="block">{platformAuditActionLabel(e.action)}</span>
        <code className="text-xs text-[#616161]">{e.action}</code>
      </>
    ),
  },
  {
    header: 'Store',
    cell: (e) =>
      e.tenantId ? (
        <Link to={`/operator/stores/${encodeURIComponent(e.tenantId)}`} className="text-[#005bd3] hover:underline">
          {e.tenantId}
        </Link>
      ) : (
        '—'
      ),
  },
  { header: 'Reason', cell: (e) => <span className="whitespace-pre-wrap">{e.reason ?? '—'}</span> },
];

/** The filter's choices: every action the log records, by its words, grouped by what it acts on. */
const GROUPS: Record<string, string> = {
  store: 'Stores',
  support: 'Stores',
  operator: 'Operators',
  token: 'API tokens',
};
const ACTION_OPTIONS: SelectOption[] = [
  { value: '', label: 'Any action' },
  ...Object.entries(PLATFORM_AUDIT_ACTION_LABELS)
    .map(([value, label]) => ({ value, label, group: GROUPS[value.split('.')[0] ?? ''] ?? 'Other' }))
    .sort((a, b) => a.group.localeCompare(b.group) || a.label.localeCompare(b.label)),
];

/** Everything operators and their tokens did on the platform, newest first; never changed. */
export default function PlatformAuditPage({ loaderData }: Route.ComponentProps) {
  const { query, page } = loaderData;
  const filters: Record<string, string> = {};
  for (const k of FILTER_KEYS) if (query[k]) filters[k] = String(query[k]);
  const filtered = Object.keys(filters).length > 0;
  return (
    <AdminPage
      title="Audit log"
      description="What operators and their API tokens did, newest first. Entries are never changed."
    >
      <Card flush>
        <Form
          method="get"
          className="flex flex-wrap items-end gap-2 px-3 pt-3 pb-2"
          role="search"
          aria-label="Filter the audit log"
        >
          <SelectField
            id="audit-action"
            className="flex-[1_1_12rem]"
            label="Action"
            name="action"
            defaultValue={query.action ?? ''}
            options={ACTION_OPTIONS}
          />
          <TextField
            id="audit-tenant"
            className="flex-[1_1_10rem]"
            label="Store id"
            name="tenantId"
            defaultValue={query.tenantId ?? ''}
          />
          <Button type="submit">Filter</Button>
        </Form>
        {page.entries.length === 0 ? (
          <AdminEmptyState
            icon={<ScrollText className="size-6" />}
            title={filtered ? 'No entry matches' : 'Nothing recorded yet'}
          >
            {filtered ? 'Try another action or store.' : 'Operators’ sign-ins and actions appear here.'}
          </AdminEmptyState>
        ) : (
          <DataTable
            label="Platform audit log"
            rows={page.entries}
            rowKey={(e) => e.id}
            columns={COLUMNS}
            minWidth="44rem"
            focusable
          />
        )}
        <div className="px-3 pb-3">
          <Pagination
            label="Audit log pages"
            next={page.nextCursor && cursorHref(filters, page.nextCursor)}
            first={query.cursor ? cursorHref(filters, null) : null}
          />
        </div>
      </Card>
    </AdminPage>
  );
}
