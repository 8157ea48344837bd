import type { OperatorToken, OperatorTokenField } from '@app/contracts';
import { KeyRound } from 'lucide-react';
import { data, useNavigation } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { type Column, DataTable } from '../../../components/ui/data-table';
import { AdminEmptyState } from '../../../components/ui/empty-state';
import { AdminPage } from '../../../components/ui/page-header';
import { PostForm } from '../../../components/ui/post-form';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { consoleMeta, consoleRead, formText, platformApi } from '../../../lib/console-page';
import { formatDateTime } from '../../../lib/dashboard-page';
import { useActionToast } from '../../../lib/use-action-toast';
import type { Route } from './+types/_console.tokens';

export async function loader({ context, request }: Route.LoaderArgs) {
  return consoleRead(request, async () => ({ tokens: await platformApi(context).consoleTokens() }));
}

export async function action({ context, request }: Route.ActionArgs) {
  return consoleRead(request, async () => {
    const form = await request.formData();
    const platform = platformApi(context);
    if (form.get('intent') === 'revoke') {
      const tokenId = String(form.get('tokenId') ?? '').slice(0, 64);
      const result = await platform.consoleRevokeToken(tokenId);
      return data(
        { intent: 'revoke' as const, tokenId, result, created: null, values: {} },
        { status: result.ok ? 200 : result.status },
      );
    }
    const values = formText(form, ['name', 'expiresInDays'], 100) as Record<OperatorTokenField, string>;
    const result = await platform.consoleCreateToken(values);
    if (!result.ok)
      return data({ intent: 'create' as const, tokenId: '', result, created: null, values }, { status: result.status });
    // The secret goes to this answer only: it is never stored in clear, nor shown again.
    return data({
      intent: 'create' as const,
      tokenId: result.token.tokenId,
      result: { ok: true as const, message: result.message },
      created: { name: result.token.name, secret: result.secret },
      values: {},
    });
  });
}

export function meta() {
  return consoleMeta('API tokens');
}

const EXPIRY = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: '', label: 'Until revoked' },
];

/** Tokens for scripts that call the platform's API as this operator: create (shown once), revoke. */
export default function TokensPage({ loaderData, actionData }: Route.ComponentProps) {
  const { tokens } = loaderData;
  useActionToast(actionData?.result.ok && !actionData.created ? actionData.result : null);
  const navigation = useNavigation();
  const creating = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'create';
  const failure = actionData?.intent === 'create' && !actionData.result.ok ? actionData.result : null;
  const errors: Partial<Record<string, string>> = failure?.fieldErrors ?? {};
  const values: Partial<Record<string, string>> = actionData?.values ?? {};
  const columns: Column<OperatorToken>[] = [
    { header: 'Name', cell: (t) => <span className="font-semibold">{t.name}</span>, rowHeader: true },
    { header: 'Starts with', cell: (t) => <code className="text-xs">{t.prefix}…</code> },
    { header: 'Created', cell: (t) => formatDateTime(t.createdAt), className: 'whitespace-nowrap' },
    {
      header: 'Last used',
      cell: (t) => (t.lastUsedAt ? formatDateTime(t.lastUsedAt) : 'Never'),
      className: 'whitespace-nowrap',
    },
    {
      header: 'Status',
      cell: (t) =>
        t.revokedAt ? (
          <Badge>Revoked</Badge>
        ) : t.expiresAt && Date.parse(t.expiresAt) < Date.now() ? (
          <Badge tone="warning">Expired</Badge>
        ) : (
          <Badge tone="success">{t.expiresAt ? `Until ${formatDateTime(t.expiresAt)}` : 'Active'}</Badge>
        ),
    },
    {
      header: <span className="sr-only">Actions</span>,
      align: 'end',
      cell: (t) =>
        t.revokedAt ? null : (
          <ConfirmDialog
            slim
            trigger="Revoke"
            triggerLabel={`Revoke ${t.name}`}
            title={`Revoke ${t.name}?`}
            confirm={
              <PostForm>
                <input type="hidden" name="intent" value="revoke" />
                <input type="hidden" name="tokenId" value={t.tokenId} />
                <Button type="submit" variant="critical">
                  Revoke {t.name}
                </Button>
              </PostForm>
            }
          >
            Scripts using it are refused from now on.
          </ConfirmDialog>
        ),
    },
  ];
  return (
    <AdminPage
      title="API tokens"
      description="For scripts that call the platform’s API as you. Every call is in the audit log."
    >
      {actionData?.created && (
        <Banner tone="success" testId="token-secret">
          <p className="font-semibold">
            Token “{actionData.created.name}” created. Copy it now: it is not shown again.
          </p>
          <p className="mt-2">
            <code className="block rounded bg-white px-2 py-1 text-sm break-all select-all">
              {actionData.created.secret}
            </code>
          </p>
          <p className="mt-2 text-sm">
            Send it as <code>Authorization: Bearer …</code> to <code>/platform-api/</code>.
          </p>
        </Banner>
      )}
      <Card title="Create a token">
        <PostForm className="flex flex-wrap items-end gap-3" key={actionData?.created?.secret ?? 'form'}>
          <input type="hidden" name="intent" value="create" />
          {failure && Object.keys(errors).length === 0 && <Banner>{failure.message}</Banner>}
          <TextField
            className="flex-[1_1_14rem]"
            label="Name"
            name="name"
            required
            maxLength={100}
            defaultValue={values.name}
            error={errors.name}
            hint="What uses it, e.g. “nightly report”."
          />
          <SelectField
            label="Expires after"
            name="expiresInDays"
            defaultValue={values.expiresInDays ?? '90'}
            options={EXPIRY}
            error={errors.expiresInDays}
          />
          <Button type="submit" variant="primary" disabled={creating}>
            {creating ? 'Creating…' : 'Create token'}
          </Button>
        </PostForm>
      </Card>
      <Card title="Your tokens" flush>
        {tokens.length === 0 ? (
          <AdminEmptyState icon={<KeyRound className="size-6" />} title="No tokens yet">
            Create one above for a script; its secret is shown once.
          </AdminEmptyState>
        ) : (
          <DataTable label="API tokens" rows={tokens} rowKey={(t) => t.tokenId} columns={columns} minWidth="40rem" />
        )}
      </Card>
    </AdminPage>
  );
}
