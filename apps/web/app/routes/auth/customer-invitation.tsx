import { CircleCheck } from 'lucide-react';
import { data, Link, useNavigation } from 'react-router';
import { Field, FormAlert, submitClass } from '../../components/ui/form-field';
import { PostForm } from '../../components/ui/post-form';
import type { Route } from './+types/customer-invitation';
import { AuthCard } from './auth-card';

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = (new URL(request.url).searchParams.get('token') ?? '').slice(0, 200);
  return { token, invitation: token ? await context.api.customerInvitation(token) : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await context.api.acceptCustomerInvitation({
    token: String(form.get('token') ?? '').slice(0, 200),
    password: String(form.get('password') ?? '').slice(0, 400),
  });
  return data({ result }, { status: result.ok ? 200 : result.status });
}

export function meta() {
  return [{ title: 'Open your account' }, { name: 'robots', content: 'noindex' }];
}

/**
 * The page a customer invitation links to (/auth/customer-invitation?token=…): the invited person
 * chooses a password, which opens their approved account at the store (decision 105).
 */
export default function CustomerInvitationPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const { token, invitation } = loaderData;
  const result = actionData?.result;
  const failure = result && !result.ok ? result : null;
  if (result?.ok) {
    return (
      <AuthCard title="Your account is open">
        <div role="status" className="flex gap-3 text-slate-700" data-testid="invitation-accepted">
          <CircleCheck aria-hidden className="size-6 shrink-0 text-emerald-700" />
          <p>{result.message}</p>
        </div>
        <Link to="/auth/login" className={`${submitClass} mt-6 flex items-center justify-center`}>
          Log in
        </Link>
      </AuthCard>
    );
  }
  if (!invitation) {
    return (
      <AuthCard title="This invitation does not work">
        <p className="text-slate-700" data-testid="invitation-invalid">
          It may have been used, revoked or replaced by a newer one, or it is older than 7 days. Please ask the store to
          invite you again.
        </p>
      </AuthCard>
    );
  }
  const linkProblem = failure && (failure.fieldErrors.token || Object.keys(failure.fieldErrors).length === 0);
  return (
    <AuthCard
      title={`Shop at ${invitation.storeName}`}
      lead={`Hello ${invitation.firstName}, choose a password to open your account as ${invitation.email}.`}
    >
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
          {navigation.state === 'submitting' ? 'Saving…' : 'Set password and open account'}
        </button>
      </PostForm>
    </AuthCard>
  );
}
