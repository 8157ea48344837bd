import { CircleCheck } from 'lucide-react';
import { data, Link, useNavigation, useSearchParams } from 'react-router';
import { Field, FormAlert, submitClass } from '../../components/ui/form-field';
import { PostForm } from '../../components/ui/post-form';
import type { Route } from './+types/reset-password';
import { AuthCard } from './auth-card';

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await context.api.resetPassword({
    token: String(form.get('token') ?? '').slice(0, 200),
    password: String(form.get('password') ?? '').slice(0, 400),
  });
  const headers = result.ok ? { 'Set-Cookie': result.cookie } : undefined;
  return data({ result }, { status: result.ok ? 200 : result.status, headers });
}

export function meta() {
  return [{ title: 'Choose a new password' }, { name: 'robots', content: 'noindex' }];
}

/** The page a reset mail links to: /auth/reset-password?token=… (no header or footer, as every auth page). */
export default function ResetPassword({ actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const result = actionData?.result;
  const failure = result && !result.ok ? result : null;
  if (result?.ok) {
    return (
      <AuthCard title="Password changed">
        <div role="status" className="flex gap-3 text-slate-700" data-testid="reset-done">
          <CircleCheck aria-hidden className="size-6 shrink-0 text-emerald-700" />
          <p>{result.message}</p>
        </div>
        <Link to="/auth/login" className={`${submitClass} mt-6 flex items-center justify-center`}>
          Log in
        </Link>
      </AuthCard>
    );
  }
  const linkProblem = failure && (failure.fieldErrors.token || Object.keys(failure.fieldErrors).length === 0);
  return (
    <AuthCard
      title="Choose a new password"
      lead="Pick a password you do not use anywhere else."
      footer={
        <Link to="/auth/forgot-password" className="font-semibold text-brand hover:underline">
          Ask for a new link
        </Link>
      }
    >
      <PostForm className="space-y-4" data-testid="reset-form">
        <FormAlert message={linkProblem ? (failure.fieldErrors.token ?? failure.message) : null} />
        <input type="hidden" name="token" value={params.get('token') ?? ''} />
        <Field
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint="At least 10 characters. Avoid common passwords."
          error={failure?.fieldErrors.password}
        />
        <button type="submit" className={submitClass} disabled={navigation.state === 'submitting'}>
          Save new password
        </button>
      </PostForm>
    </AuthCard>
  );
}
