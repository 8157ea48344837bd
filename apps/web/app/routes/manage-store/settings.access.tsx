import type { AccessFormField, AccessSettings, FormOutcome, StaffMember, StoreAccessFormField } from '@app/contracts';
import { STAFF_PERMISSION_LABELS, STAFF_PERMISSIONS, type StaffPermission } from '@app/contracts/client';
import { MailPlus, UserRound } from 'lucide-react';
import { useEffect, useState } from 'react';
import { data, useNavigation } from 'react-router';
import {
  STORE_ACCESS_FIELDS,
  STORE_ACCESS_INTENTS,
  StoreAccessSection,
} from '../../components/manage-store/store-access-section';
import { SupportAccessCard } from '../../components/manage-store/support-access-card';
import { Badge } from '../../components/ui/badge';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Checkbox } from '../../components/ui/checkbox';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { AdminEmptyState } from '../../components/ui/empty-state';
import { AdminPage } from '../../components/ui/page-header';
import { PostForm } from '../../components/ui/post-form';
import { TextField } from '../../components/ui/text-field';
import { dashboardMeta, dashboardRead, formatDateTime } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/settings.access';

const TEXT_FIELDS = [
  'intent',
  'visibility',
  'email',
  'firstName',
  'lastName',
  'userId',
  'invitationId',
  ...STORE_ACCESS_FIELDS,
] as const;

export async function loader({ context, request }: Route.LoaderArgs) {
  return dashboardRead(request, async () => {
    const [settings, storeAccess] = await Promise.all([
      context.api.accessSettings(),
      context.api.storeAccessSettings(),
    ]);
    return { ...settings, storeAccess };
  });
}

/**
 * One action, switching on the form's intent: the store-access section's (access mode, approve,
 * decline, customer invitations; decision 105) or the staff's (invite, update, remove, revoke).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const values: Record<string, string | string[]> = {};
  for (const key of TEXT_FIELDS) values[key] = String(form.get(key) ?? '').slice(0, 300);
  values.permissions = form
    .getAll('permissions')
    .slice(0, 10)
    .map((v) => String(v).slice(0, 30));
  const result: { ok: true; message: string } | FormOutcome<AccessFormField | StoreAccessFormField> =
    STORE_ACCESS_INTENTS.has(String(values.intent))
      ? await context.api.storeAccessAction(values)
      : await context.api.accessAction(values);
  const target = String(values.userId || values.invitationId || '');
  return data({ intent: String(values.intent), target, result, values }, { status: result.ok ? 200 : result.status });
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Access');
}

type Answer = Route.ComponentProps['actionData'];

/** Who can see the store, and who helps run it (decision 027). */
export default function AccessPage({ loaderData: settings, actionData }: Route.ComponentProps) {
  useActionToast(actionData?.result);
  return (
    <AdminPage title="Access" description="Who can see your store, and who helps you run it.">
      {!settings.canManage && (
        <p className="rounded-lg border border-neutral-200 bg-white px-4 py-3 text-sm text-neutral-700" role="note">
          Only the store owner can change access and staff. You can see them here.
        </p>
      )}
      <StoreAccessSection settings={settings.storeAccess} answer={actionData} />
      <Staff settings={settings} answer={actionData} />
      <Invitations settings={settings} answer={actionData} />
      {settings.canManage && <Invite answer={actionData} />}
      <SupportAccessCard />
    </AdminPage>
  );
}

/** Whether a form with this intent (and target) is being sent now: its button shows it. */
function usePending(intent: string, target = '') {
  const navigation = useNavigation();
  const f = navigation.formData;
  return (
    navigation.state === 'submitting' &&
    f?.get('intent') === intent &&
    String(f.get('userId') || f.get('invitationId') || '') === target
  );
}

function failureOf(answer: Answer, intent: string, target = '') {
  if (!answer || answer.result.ok || answer.intent !== intent || answer.target !== target) return null;
  return answer.result;
}

function PermissionBoxes({ name, checked, error }: { name: string; checked: readonly string[]; error?: string }) {
  return (
    <fieldset aria-describedby={error ? `${name}-error` : undefined}>
      <legend className="mb-1.5 text-sm font-medium text-neutral-800">Permissions</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {STAFF_PERMISSIONS.map((p) => (
          <Checkbox
            key={p}
            id={`${name}-${p}`}
            name="permissions"
            value={p}
            defaultChecked={checked.includes(p)}
            label={<span className="font-medium text-neutral-900">{STAFF_PERMISSION_LABELS[p].label}</span>}
            hint={STAFF_PERMISSION_LABELS[p].hint}
          />
        ))}
      </div>
      {error && (
        <p id={`${name}-error`} className="mt-1.5 text-sm font-medium text-red-700" data-testid="error-permissions">
          {error}
        </p>
      )}
    </fieldset>
  );
}

const permissionNames = (ps: readonly StaffPermission[]) => ps.map((p) => STAFF_PERMISSION_LABELS[p].label).join(', ');

function Staff({ settings, answer }: { settings: AccessSettings; answer: Answer }) {
  return (
    <Card title="Staff" aside={<span className="text-xs text-neutral-500">{settings.staff.length}</span>} flush>
      <ul className="divide-y divide-neutral-200">
        {settings.staff.map((m) => (
          <StaffRow key={m.userId} member={m} canManage={settings.canManage} answer={answer} />
        ))}
      </ul>
    </Card>
  );
}

function StaffRow({ member, canManage, answer }: { member: StaffMember; canManage: boolean; answer: Answer }) {
  const saving = usePending('update', member.userId);
  const removing = usePending('remove', member.userId);
  const failure = failureOf(answer, 'update', member.userId) ?? failureOf(answer, 'remove', member.userId);
  const isOwner = member.role === 'admin';
  const name = `${member.firstName} ${member.lastName}`;
  return (
    <li className="px-4 py-3" data-testid="staff-row">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 gap-3">
          <UserRound aria-hidden className="mt-0.5 size-5 shrink-0 text-neutral-400" />
          <div className="min-w-0">
            <p className="text-sm font-semibold text-neutral-900">
              {name}
              {member.isYou && <span className="font-normal text-neutral-500"> (you)</span>}
            </p>
            <p className="break-all text-sm text-neutral-600">{member.email}</p>
            <p className="mt-0.5 text-xs text-neutral-500">
              {isOwner ? 'Owner: every permission' : permissionNames(member.permissions) || 'No permissions'}
            </p>
          </div>
        </div>
        <Badge tone={isOwner ? 'info' : 'neutral'}>{isOwner ? 'Owner' : 'Staff'}</Badge>
      </div>
      {failure && (
        <div className="mt-2">
          <Banner>{failure.message}</Banner>
        </div>
      )}
      {canManage && !isOwner && (
        <details className="mt-2 ml-8" open={Boolean(failure)}>
          <summary className="cursor-pointer text-sm font-semibold text-neutral-800">Edit access for {name}</summary>
          <PostForm className="mt-2 space-y-3">
            <input type="hidden" name="intent" value="update" />
            <input type="hidden" name="userId" value={member.userId} />
            <PermissionBoxes
              name={`permissions-${member.userId}`}
              checked={member.permissions}
              error={failure && !failure.ok ? failure.fieldErrors.permissions : undefined}
            />
            <Button type="submit" disabled={saving}>
              {saving ? 'Saving…' : 'Save permissions'}
            </Button>
          </PostForm>
          <div className="mt-3 border-t border-neutral-200 pt-3">
            <ConfirmDialog
              trigger={removing ? 'Removing…' : 'Remove access'}
              triggerLabel={`Remove access for ${name}`}
              title={`Remove ${name}’s access?`}
              confirm={
                <PostForm>
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="userId" value={member.userId} />
                  <Button type="submit" variant="critical" disabled={removing}>
                    Remove {name}
                  </Button>
                </PostForm>
              }
            >
              Their access ends and they are signed out everywhere at once. Their customer account stays.
            </ConfirmDialog>
          </div>
        </details>
      )}
    </li>
  );
}

function Invitations({ settings, answer }: { settings: AccessSettings; answer: Answer }) {
  if (settings.invitations.length === 0) {
    return (
      <Card title="Invitations">
        <AdminEmptyState icon={<MailPlus className="size-6" />} title="No invitations waiting">
          {settings.canManage
            ? 'Invite someone below: they get an email with a link to choose their password.'
            : 'The store owner can invite staff from this page.'}
        </AdminEmptyState>
      </Card>
    );
  }
  return (
    <Card
      title="Invitations"
      aside={<span className="text-xs text-neutral-500">{settings.invitations.length}</span>}
      flush
    >
      <ul className="divide-y divide-neutral-200">
        {settings.invitations.map((i) => (
          <InvitationRow key={i.invitationId} invitation={i} canManage={settings.canManage} answer={answer} />
        ))}
      </ul>
    </Card>
  );
}

function InvitationRow({
  invitation: i,
  canManage,
  answer,
}: {
  invitation: AccessSettings['invitations'][number];
  canManage: boolean;
  answer: Answer;
}) {
  const pending = usePending('revoke', i.invitationId);
  const failure = failureOf(answer, 'revoke', i.invitationId);
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 px-4 py-3" data-testid="invitation-row">
      <div className="min-w-0">
        <p className="text-sm font-semibold text-neutral-900">
          {i.firstName} {i.lastName}
        </p>
        <p className="break-all text-sm text-neutral-600">{i.email}</p>
        <p className="mt-0.5 text-xs text-neutral-500">
          {permissionNames(i.permissions)} · link works until {formatDateTime(i.expiresAt)}
        </p>
        {failure && <Banner>{failure.message}</Banner>}
      </div>
      {canManage && (
        <PostForm>
          <input type="hidden" name="intent" value="revoke" />
          <input type="hidden" name="invitationId" value={i.invitationId} />
          <Button type="submit" disabled={pending}>
            {pending ? 'Revoking…' : 'Revoke'}
            <span className="sr-only"> invitation for {i.email}</span>
          </Button>
        </PostForm>
      )}
    </li>
  );
}

function Invite({ answer }: { answer: Answer }) {
  const pending = usePending('invite');
  const failure = failureOf(answer, 'invite');
  // A fresh, empty form after each invitation sent; the typed values stay after a refusal.
  const [sent, setSent] = useState(0);
  useEffect(() => {
    if (answer?.intent === 'invite' && answer.result.ok) setSent((n) => n + 1);
  }, [answer]);
  const values = failure ? (answer?.values ?? {}) : {};
  const text = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  const checked = Array.isArray(values.permissions) ? values.permissions : [];
  const errors = failure?.fieldErrors ?? {};
  return (
    <Card title="Invite staff">
      <PostForm key={sent} className="space-y-4" data-testid="invite-form">
        <input type="hidden" name="intent" value="invite" />
        {failure && Object.keys(errors).length === 0 && <Banner>{failure.message}</Banner>}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            required
            label="First name"
            name="firstName"
            autoComplete="off"
            defaultValue={text('firstName')}
            error={errors.firstName}
          />
          <TextField
            required
            label="Last name"
            name="lastName"
            autoComplete="off"
            defaultValue={text('lastName')}
            error={errors.lastName}
          />
        </div>
        <TextField
          required
          label="Email"
          name="email"
          type="email"
          autoComplete="off"
          defaultValue={text('email')}
          error={errors.email}
          hint="They get a link to choose a password. It works once, for 7 days."
        />
        <PermissionBoxes name="permissions" checked={checked} error={errors.permissions} />
        <div className="flex justify-end">
          <Button type="submit" variant="primary" disabled={pending}>
            <MailPlus aria-hidden className="size-4" />
            {pending ? 'Sending…' : 'Send invitation'}
          </Button>
        </div>
      </PostForm>
    </Card>
  );
}
