import type { AccessMode, AccountRequest, CustomerInvitation, StoreAccessSettings } from '@app/contracts';
import { ACCESS_MODE_LABELS, ACCESS_MODES } from '@app/contracts/client';
import { Globe, KeyRound, Lock, MailPlus, UserCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router';
import { formatDateTime } from '../../lib/dashboard-page';
import { Badge } from '../ui/badge';
import { Banner } from '../ui/banner';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { AdminEmptyState } from '../ui/empty-state';
import { PostForm } from '../ui/post-form';
import { TextField } from '../ui/text-field';

/**
 * Access settings' store-access section (decision 105): who may see the store (the access mode),
 * the accounts waiting for the owner's approval, and customer invitations. Every form is a plain
 * POST to the access page's action (one intent each), so it works without JavaScript; the page's
 * other sections (staff, platform support) are their own components.
 */

/** The intents of this section's forms: the access page's action sends them to `storeAccessAction`. */
export const STORE_ACCESS_INTENTS: ReadonlySet<string> = new Set([
  'access-mode',
  'approve',
  'decline',
  'invite-customer',
  'revoke-customer-invitation',
]);

/** The fields this section's forms post, besides `intent`. */
export const STORE_ACCESS_FIELDS = ['accessMode', 'email', 'firstName', 'lastName', 'userId', 'invitationId'] as const;

export interface StoreAccessAnswer {
  intent: string;
  target: string;
  result:
    | { ok: true; message: string }
    | { ok: false; status: number; message: string; fieldErrors: Partial<Record<string, string>> };
  values: Record<string, string | string[]>;
}

const MODE_ICONS: Record<AccessMode, typeof Globe> = {
  public: Globe,
  login_required: Lock,
  approved_only: UserCheck,
  invitation_only: KeyRound,
};

function usePending(intent: string, target = '') {
  const navigation = useNavigation();
  const f = navigation.formData;
  return (
    navigation.state === 'submitting' &&
    f?.get('intent') === intent &&
    String(f.get('userId') || f.get('invitationId') || '') === target
  );
}

function failureOf(answer: StoreAccessAnswer | undefined, intent: string, target = '') {
  if (!answer || answer.result.ok || answer.intent !== intent || answer.target !== target) return null;
  return answer.result;
}

export function StoreAccessSection({
  settings,
  answer,
}: {
  settings: StoreAccessSettings;
  answer: StoreAccessAnswer | undefined;
}) {
  const asksApproval = settings.accessMode === 'approved_only' || settings.requests.length > 0;
  const invites = settings.accessMode === 'invitation_only' || settings.invitations.length > 0;
  return (
    <>
      <AccessModeCard settings={settings} answer={answer} />
      {asksApproval && <AccountRequestsCard settings={settings} answer={answer} />}
      {invites && <CustomerInvitationsCard settings={settings} answer={answer} />}
    </>
  );
}

function AccessModeCard({
  settings,
  answer,
}: {
  settings: StoreAccessSettings;
  answer: StoreAccessAnswer | undefined;
}) {
  const pending = usePending('access-mode');
  const failure = failureOf(answer, 'access-mode');
  const disabled = !settings.canManage;
  const current = ACCESS_MODE_LABELS[settings.accessMode];
  return (
    <Card
      title="Store access"
      id="store-access"
      aside={
        <Badge tone={settings.accessMode === 'public' ? 'success' : 'warning'} data-testid="visibility-badge">
          {current.label}
        </Badge>
      }
    >
      <PostForm key={settings.accessMode} className="space-y-3" data-testid="access-mode-form">
        <input type="hidden" name="intent" value="access-mode" />
        {failure && <Banner>{failure.message}</Banner>}
        <fieldset
          className="space-y-2"
          aria-describedby={failure?.fieldErrors.accessMode ? 'accessMode-error' : undefined}
        >
          <legend className="mb-2 text-sm text-neutral-600">
            Who can see your catalog, prices and search. Applies to every store of your account; your staff always see
            the store, and search engines and product feeds see only a public one.
          </legend>
          {ACCESS_MODES.map((mode) => {
            const Icon = MODE_ICONS[mode];
            return (
              <label
                key={mode}
                className="flex cursor-pointer gap-3 rounded-lg border border-neutral-200 p-3 has-[:checked]:border-neutral-900 has-[:checked]:bg-neutral-50 has-[:disabled]:cursor-default"
              >
                <input
                  type="radio"
                  name="accessMode"
                  value={mode}
                  defaultChecked={settings.accessMode === mode}
                  disabled={disabled}
                  className="mt-1 size-4 accent-neutral-900"
                />
                <span>
                  <span className="flex items-center gap-1.5 text-sm font-semibold text-neutral-900">
                    <Icon aria-hidden className="size-4" />
                    {ACCESS_MODE_LABELS[mode].label}
                  </span>
                  <span className="mt-0.5 block text-sm text-neutral-600">{ACCESS_MODE_LABELS[mode].help}</span>
                </span>
              </label>
            );
          })}
          {failure?.fieldErrors.accessMode && (
            <p id="accessMode-error" className="text-sm font-medium text-red-700">
              {failure.fieldErrors.accessMode}
            </p>
          )}
        </fieldset>
        {settings.canManage && (
          <div className="flex justify-end">
            <Button type="submit" disabled={pending}>
              {pending ? 'Saving…' : 'Save access'}
            </Button>
          </div>
        )}
      </PostForm>
    </Card>
  );
}

function AccountRequestsCard({
  settings,
  answer,
}: {
  settings: StoreAccessSettings;
  answer: StoreAccessAnswer | undefined;
}) {
  const waiting = settings.requests.filter((r) => r.status === 'pending').length;
  if (settings.requests.length === 0) {
    return (
      <Card title="Account requests" id="account-requests">
        <AdminEmptyState icon={<UserCheck className="size-6" />} title="No accounts waiting">
          When someone creates an account, it waits here for your approval and you get an email.
        </AdminEmptyState>
      </Card>
    );
  }
  return (
    <Card
      title="Account requests"
      id="account-requests"
      aside={<span className="text-xs text-neutral-500">{waiting} waiting</span>}
      flush
    >
      <ul className="divide-y divide-neutral-200">
        {settings.requests.map((r) => (
          <RequestRow key={r.userId} request={r} canManage={settings.canManage} answer={answer} />
        ))}
      </ul>
    </Card>
  );
}

function RequestRow({
  request: r,
  canManage,
  answer,
}: {
  request: AccountRequest;
  canManage: boolean;
  answer: StoreAccessAnswer | undefined;
}) {
  const approving = usePending('approve', r.userId);
  const declining = usePending('decline', r.userId);
  const failure = failureOf(answer, 'approve', r.userId) ?? failureOf(answer, 'decline', r.userId);
  const name = `${r.firstName} ${r.lastName}`;
  return (
    <li className="flex flex-wrap items-start justify-between gap-2 px-4 py-3" data-testid="account-request-row">
      <div className="min-w-0">
        <p className="text-sm font-semibold text-neutral-900">{name}</p>
        <p className="break-all text-sm text-neutral-600">{r.email}</p>
        <p className="mt-0.5 text-xs text-neutral-500">
          Asked {formatDateTime(r.requestedAt)}
          {!r.emailConfirmed && ' · email not confirmed yet'}
          {r.decidedAt && ` · declined ${formatDateTime(r.decidedAt)}`}
        </p>
        {failure && <Banner>{failure.message}</Banner>}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={r.status === 'pending' ? 'warning' : 'neutral'}>
          {r.status === 'pending' ? 'Waiting' : 'Declined'}
        </Badge>
        {canManage && (
          <PostForm>
            <input type="hidden" name="intent" value="approve" />
            <input type="hidden" name="userId" value={r.userId} />
            <Button type="submit" variant="primary" disabled={approving}>
              {approving ? 'Approving…' : 'Approve'}
              <span className="sr-only"> {r.email}</span>
            </Button>
          </PostForm>
        )}
        {canManage && r.status === 'pending' && (
          <PostForm>
            <input type="hidden" name="intent" value="decline" />
            <input type="hidden" name="userId" value={r.userId} />
            <Button type="submit" disabled={declining}>
              {declining ? 'Declining…' : 'Decline'}
              <span className="sr-only"> {r.email}</span>
            </Button>
          </PostForm>
        )}
      </div>
    </li>
  );
}

function CustomerInvitationsCard({
  settings,
  answer,
}: {
  settings: StoreAccessSettings;
  answer: StoreAccessAnswer | undefined;
}) {
  return (
    <Card
      title="Customer invitations"
      id="customer-invitations"
      aside={<span className="text-xs text-neutral-500">{settings.invitations.length}</span>}
    >
      {settings.invitations.length === 0 ? (
        <p className="text-sm text-neutral-600">No invitations waiting. Invite a customer below.</p>
      ) : (
        <ul className="-mx-4 mb-4 divide-y divide-neutral-200 border-y border-neutral-200">
          {settings.invitations.map((i) => (
            <CustomerInvitationRow key={i.invitationId} invitation={i} canManage={settings.canManage} answer={answer} />
          ))}
        </ul>
      )}
      {settings.canManage && <InviteCustomer answer={answer} />}
    </Card>
  );
}

function CustomerInvitationRow({
  invitation: i,
  canManage,
  answer,
}: {
  invitation: CustomerInvitation;
  canManage: boolean;
  answer: StoreAccessAnswer | undefined;
}) {
  const pending = usePending('revoke-customer-invitation', i.invitationId);
  const failure = failureOf(answer, 'revoke-customer-invitation', i.invitationId);
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 px-4 py-3" data-testid="customer-invitation-row">
      <div className="min-w-0">
        <p className="text-sm font-semibold text-neutral-900">
          {i.firstName} {i.lastName}
        </p>
        <p className="break-all text-sm text-neutral-600">{i.email}</p>
        <p className="mt-0.5 text-xs text-neutral-500">Link works until {formatDateTime(i.expiresAt)}</p>
        {failure && <Banner>{failure.message}</Banner>}
      </div>
      {canManage && (
        <PostForm>
          <input type="hidden" name="intent" value="revoke-customer-invitation" />
          <input type="hidden" name="invitationId" value={i.invitationId} />
          <Button type="submit" disabled={pending}>
            {pending ? 'Revoking…' : 'Revoke'}
            <span className="sr-only"> customer invitation for {i.email}</span>
          </Button>
        </PostForm>
      )}
    </li>
  );
}

function InviteCustomer({ answer }: { answer: StoreAccessAnswer | undefined }) {
  const pending = usePending('invite-customer');
  const failure = failureOf(answer, 'invite-customer');
  // A fresh, empty form after each invitation sent; the typed values stay after a refusal.
  const [sent, setSent] = useState(0);
  useEffect(() => {
    if (answer?.intent === 'invite-customer' && answer.result.ok) setSent((n) => n + 1);
  }, [answer]);
  const values = failure ? (answer?.values ?? {}) : {};
  const text = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  const errors = failure?.fieldErrors ?? {};
  return (
    <PostForm key={sent} className="space-y-4" data-testid="invite-customer-form">
      <input type="hidden" name="intent" value="invite-customer" />
      {failure && Object.keys(errors).length === 0 && <Banner>{failure.message}</Banner>}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          required
          label="First name"
          name="firstName"
          id="customer-firstName"
          autoComplete="off"
          defaultValue={text('firstName')}
          error={errors.firstName}
        />
        <TextField
          required
          label="Last name"
          name="lastName"
          id="customer-lastName"
          autoComplete="off"
          defaultValue={text('lastName')}
          error={errors.lastName}
        />
      </div>
      <TextField
        required
        label="Email"
        name="email"
        id="customer-email"
        type="email"
        autoComplete="off"
        defaultValue={text('email')}
        error={errors.email}
        hint="They get a link to choose a password and open their account. It works once, for 7 days."
      />
      <div className="flex justify-end">
        <Button type="submit" variant="primary" disabled={pending}>
          <MailPlus aria-hidden className="size-4" />
          {pending ? 'Sending…' : 'Invite customer'}
        </Button>
      </div>
    </PostForm>
  );
}
