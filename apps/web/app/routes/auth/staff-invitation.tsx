import { STAFF_PERMISSION_LABELS } from '@app/contracts/client';
import { CircleCheck } from 'lucide-react';
import { data, Link, useNavigation } from 'react-router';
import { Field, FormAlert, submitClass } from '../../components/ui/form-field';
import { PostForm } from '../../components/ui/post-form';
import type { Route } from './+types/staff-invitation';
import { AuthCard } from './auth-card';

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = (new URL(request.url).searchParams.get('token') ?? '').slice(0, 200);
  return { token, invitation: token ? await context.api.staffInvitation(token) : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await context.api.acceptStaffInvitation({
    token: String(form.get('token') ?? '').slice(0, 200),
    password: String(form.get('password') ?? '').slice(0, 400),
  });
  return data({ result }, { status: result.ok ? 200 : result.status });
}

export function meta() {
  return [{ title: 'Join the staff' }, { name: 'robots', content: 'noindex' }];
}

/**
 * The page a staff invitation links to (/auth/staff-invitation?token=…): the invited person chooses
 * a password, which makes their account staff of the store (decision 027).
 */
export default function StaffInvitationPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const { token, invitation } = loaderData;
  const result = actionData?.result;
  const failure = result && !result.ok ? result : null;
  if (result?.ok) {
    return (
      <AuthCard title="You are on the staff">
        <div role="status" className="flex gap-3 text-slate-700" data-testid="invitation-accepted">
          <CircleCheck aria-hidden className="size-6 shrink-0 text-emerald-700" />
          <p>{result.message}</p>
        </div>
        <Link
          to="/auth/login?redirectUrl=%2Fmanage-store"
          className={`${submitClass} mt-6 flex items-center justify-center`}
        >
          Log in
        </Link>
      </AuthCard>
    );
  }
  if (!invitation) {
    return (
      <AuthCard title="This invitation does not work">
        <p className="text-slate-700" data-testid="invitation-invalid">
          It may have been used, revoked or replaced by a newer one, or it is older than 7 days. Please ask the store
          owner to invite you again.
        </p>
      </AuthCard>
    );
  }
  const linkProblem = failure && (failure.fieldErrors.token || Object.keys(failure.fieldErrors).length === 0);
  return (
    <AuthCard
      title={`Join ${invitation.storeName}`}
      lead={`Hello ${invitation.firstName}, choose a password to manage the store as ${invitation.email}.`}
    >
      <p className="mb-4 text-sm text-slate-600">
        You will have access to:{' '}
        <span className="font-medium text-slate-800">
          {invitation.permissions.map((p) => STAFF_PERMISSION_LABELS[p].label).join(', ')}
        </span>
        .
      </p>
      <PostForm className="space-y-4" data-testid="invitation-form">
        <FormAlert message={linkProblem ? (failure.fieldErrors.token ?? failure.message) : null} />
        <input type="hidden" name="token" value={token} />
        <input type="hidden" name="username" autoComplete="username" value={invitation.email} readOnly />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint="At least 10 characters. Avoid common passwords."
          error={failure?.fieldErrors.password}
        />
        <button type="submit" className={submitClass} disabled={navigation.state === 'submitting'}>
          {navigation.state === 'submitting' ? 'Saving…' : 'Set password and join'}
        </button>
      </PostForm>
    </AuthCard>
  );
}
