import type { DomainFormResult, DomainState, StoreDomain } from '@app/contracts';
import { Globe, RefreshCw, Trash2 } from 'lucide-react';
import { data, useNavigation } from 'react-router';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { DataTable } from '../../components/ui/data-table';
import { AdminEmptyState } from '../../components/ui/empty-state';
import { useRevalidateWhileRunning } from '../../components/ui/job-progress';
import { AdminPage } from '../../components/ui/page-header';
import { PostForm } from '../../components/ui/post-form';
import { SelectField } from '../../components/ui/select-field';
import { TextField } from '../../components/ui/text-field';
import { dashboardMeta, dashboardRead, formatDateTime } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/settings.domains';

const FORM_FIELDS = ['intent', 'domain', 'host'] as const;

export async function loader({ context, request }: Route.LoaderArgs) {
  return dashboardRead(request, () => context.api.domainsPage());
}

/** One action, switching on the form's intent: add, recheck, remove, primary. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const values: Record<string, string> = {};
  for (const key of FORM_FIELDS) values[key] = String(form.get(key) ?? '').slice(0, 300);
  const result: DomainFormResult = await context.api.domainAction(values);
  return data({ intent: values.intent ?? '', result, values }, { status: result.ok ? 200 : result.status });
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Domains');
}

type Answer = Route.ComponentProps['actionData'];

const STATE: Record<DomainState, { label: string; tone: BadgeTone }> = {
  pending: { label: 'Checking', tone: 'info' },
  verified: { label: 'Verified', tone: 'warning' },
  active: { label: 'Connected', tone: 'success' },
  failed: { label: 'Failed', tone: 'critical' },
};

/** An active domain whose records the daily check no longer finds (decision 125): it still serves, for now. */
const lapsed = (d: StoreDomain) => d.state === 'active' && d.disconnectsAt !== null;

/**
 * When a domain not connected yet is checked again without the owner (decision 125, later): on a
 * backoff for 72 hours, then daily for a verified one; a failed one then waits for Check again.
 */
function nextCheck(d: StoreDomain): string {
  if (d.state === 'active' || d.state === 'pending') return '';
  if (d.nextCheckAt) return ` Next check: ${formatDateTime(d.nextCheckAt)}.`;
  return d.state === 'verified'
    ? ' Checked again every day.'
    : ' No more automatic checks: press Check again once the records are in place.';
}

/** Domains (decision 121): the store's own domains, the DNS records each needs, and its primary host. */
export default function DomainsPage({ loaderData: page, actionData }: Route.ComponentProps) {
  useActionToast(actionData?.result);
  // While a check runs (seconds), read the page again every two seconds; without JavaScript, reload.
  const checking = page.domains.some((d) => d.state === 'pending');
  useRevalidateWhileRunning(checking, 2000);
  return (
    <AdminPage
      title="Domains"
      description="Connect a domain you own: create the records shown at your DNS provider, and we connect it once they are seen."
    >
      {page.domains.filter(lapsed).map((d) => (
        <Banner key={d.domain} tone="warning" testId="domain-lapsed">
          {d.displayName} no longer points at your store. Fix its DNS records by{' '}
          {d.disconnectsAt ? formatDateTime(d.disconnectsAt) : ''}, then press Check again, or it stops showing your
          store.
        </Banner>
      ))}
      <PrimaryCard
        hosts={page.hosts}
        primaryHost={page.primaryHost}
        names={new Map(page.domains.map((d) => [d.domain, d.displayName]))}
        answer={actionData}
      />
      <DomainsCard domains={page.domains} />
      {page.domains
        .filter((d) => d.state !== 'active' || lapsed(d))
        .map((d) => (
          <RecordsCard key={d.domain} domain={d} />
        ))}
      <AddCard answer={actionData} />
    </AdminPage>
  );
}

function PrimaryCard({
  hosts,
  primaryHost,
  names,
  answer,
}: {
  hosts: string[];
  primaryHost: string;
  /** An internationalised domain's readable name, by its ASCII form. */
  names: Map<string, string>;
  answer: Answer;
}) {
  const f = answer && !answer.result.ok && answer.intent === 'primary' ? answer.result : null;
  const navigation = useNavigation();
  const pending = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'primary';
  return (
    <Card
      title="Primary domain"
      description="Shoppers and search engines see this one; your other domains send them to it."
    >
      <PostForm className="space-y-3" aria-label="Primary domain" preventScrollReset>
        <input type="hidden" name="intent" value="primary" />
        {f && <Banner>{f.message}</Banner>}
        <SelectField
          label="Primary domain"
          name="host"
          defaultValue={primaryHost}
          options={hosts.map((h) => ({ value: h, label: names.get(h) ?? h }))}
          error={f?.fieldErrors.host}
          hint="Links in emails, your sitemap and payment pages use it too."
        />
        <Button type="submit" variant="primary" disabled={pending}>
          {pending ? 'Saving…' : 'Save'}
        </Button>
      </PostForm>
    </Card>
  );
}

function DomainsCard({ domains }: { domains: StoreDomain[] }) {
  return (
    <Card title="Your domains" flush>
      {domains.length === 0 ? (
        <AdminEmptyState icon={<Globe className="size-6" />} title="No domains yet">
          Your store answers on its platform address. Add a domain you own below.
        </AdminEmptyState>
      ) : (
        <DataTable
          label="Your domains"
          rows={domains}
          rowKey={(d) => d.domain}
          testId={(d) => `domain-${d.domain}`}
          minWidth="40rem"
          columns={[
            {
              header: 'Domain',
              rowHeader: true,
              cell: (d) => (
                <span className="flex flex-col">
                  <span>{d.displayName}</span>
                  {d.displayName !== d.domain && <code className="text-xs text-neutral-500">{d.domain}</code>}
                  {d.aliasOf && <span className="text-xs text-neutral-500">Added with {d.aliasOf}</span>}
                </span>
              ),
            },
            {
              header: 'Status',
              cell: (d) => (
                <span className="flex flex-wrap items-center gap-2">
                  {lapsed(d) ? (
                    <Badge tone="critical">Records missing</Badge>
                  ) : (
                    <Badge tone={STATE[d.state].tone}>{STATE[d.state].label}</Badge>
                  )}
                  {d.isPrimary && <Badge>Primary</Badge>}
                </span>
              ),
            },
            {
              header: 'Last check',
              cell: (d) => (
                <span className="text-sm">
                  {d.reason || (d.state === 'active' ? 'Records found.' : d.checkedAt ? '' : 'Not checked yet.')}
                  {lapsed(d) && d.disconnectsAt ? ` It stays connected until ${formatDateTime(d.disconnectsAt)}.` : ''}
                  {nextCheck(d)}
                </span>
              ),
            },
            {
              header: <span className="sr-only">Actions</span>,
              align: 'end',
              cell: (d) => (
                <div className="flex justify-end gap-2">
                  {d.state !== 'pending' && (
                    <PostForm preventScrollReset>
                      <input type="hidden" name="intent" value="recheck" />
                      <input type="hidden" name="domain" value={d.domain} />
                      <Button type="submit" variant="secondary" aria-label={`Check ${d.displayName} again`}>
                        <RefreshCw aria-hidden className="size-4" />
                        Check again
                      </Button>
                    </PostForm>
                  )}
                  {!d.isPrimary && (
                    <ConfirmDialog
                      slim
                      trigger={<Trash2 aria-hidden className="size-4" />}
                      triggerLabel={`Remove ${d.displayName}`}
                      title={`Remove ${d.displayName}?`}
                      confirm={
                        <PostForm preventScrollReset>
                          <input type="hidden" name="intent" value="remove" />
                          <input type="hidden" name="domain" value={d.domain} />
                          <Button type="submit" variant="critical">
                            Remove domain
                          </Button>
                        </PostForm>
                      }
                    >
                      {d.state === 'active'
                        ? 'It stops showing your store at once. Your DNS records stay until you remove them.'
                        : 'You can add it again later; it gets a new verification token.'}
                      {domains.some((a) => a.aliasOf === d.domain) ? ` www.${d.domain}, added with it, goes too.` : ''}
                    </ConfirmDialog>
                  )}
                </div>
              ),
            },
          ]}
        />
      )}
    </Card>
  );
}

function RecordsCard({ domain }: { domain: StoreDomain }) {
  return (
    <Card
      title={`DNS records for ${domain.displayName}`}
      description="Create these at the company where you manage your domain's DNS. Changes can take up to 48 hours to be seen."
      flush
    >
      <DataTable
        label={`DNS records for ${domain.displayName}`}
        rows={domain.records}
        rowKey={(r) => `${r.type}-${r.name}`}
        minWidth="40rem"
        columns={[
          { header: 'Type', cell: (r) => r.type, rowHeader: true },
          { header: 'Name', cell: (r) => <code className="break-all">{r.name}</code> },
          { header: 'Value', cell: (r) => <code className="break-all">{r.value}</code> },
          { header: 'Why', cell: (r) => r.purpose },
        ]}
      />
    </Card>
  );
}

function AddCard({ answer }: { answer: Answer }) {
  const f = answer && !answer.result.ok && answer.intent === 'add' ? answer.result : null;
  const navigation = useNavigation();
  const pending = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'add';
  return (
    <Card title="Add a domain">
      <PostForm className="space-y-3" aria-label="Add a domain" preventScrollReset>
        <input type="hidden" name="intent" value="add" />
        {f && !f.fieldErrors.domain && <Banner>{f.message}</Banner>}
        <TextField
          label="Domain"
          name="domain"
          autoComplete="off"
          spellCheck={false}
          maxLength={253}
          placeholder="shop.example.com"
          defaultValue={f ? (answer?.values.domain ?? '') : ''}
          error={f?.fieldErrors.domain}
          hint="A domain you own, such as shop.example.com, or example.com with its www address."
        />
        <Button type="submit" variant="primary" disabled={pending}>
          {pending ? 'Adding…' : 'Add domain'}
        </Button>
      </PostForm>
    </Card>
  );
}
