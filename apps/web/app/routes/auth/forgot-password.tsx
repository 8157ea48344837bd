import { CircleCheck } from 'lucide-react';
import { data, Link, useNavigation } from 'react-router';
import { Field, FormAlert, submitClass } from '../../components/ui/form-field';
import { PostForm } from '../../components/ui/post-form';
import type { Route } from './+types/forgot-password';
import { AuthCard } from './auth-card';

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const email = String(form.get('email') ?? '').slice(0, 400);
  const result = await context.api.forgotPassword(email);
  return data({ result, email }, { status: result.ok ? 200 : result.status });
}

export function meta() {
  return [{ title: 'Reset your password' }, { name: 'robots', content: 'noindex' }];
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const result = actionData?.result;
  const failure = result && !result.ok ? result : null;
  const back = (
    <Link to="/auth/login" className="font-semibold text-brand hover:underline">
      Back to log in
    </Link>
  );
  if (result?.ok) {
    return (
      <AuthCard title="Check your email" footer={back}>
        <div role="status" className="flex gap-3 text-slate-700" data-testid="forgot-done">
          <CircleCheck aria-hidden className="size-6 shrink-0 text-emerald-700" />
          <p>{result.message}</p>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Reset your password"
      lead="Enter the email you shop with. We will send you a link to choose a new password."
      footer={back}
    >
      <PostForm className="space-y-4" data-testid="forgot-form">
        <FormAlert message={failure && Object.keys(failure.fieldErrors).length === 0 ? failure.message : null} />
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={actionData?.email}
          error={failure?.fieldErrors.email}
        />
        <button type="submit" className={submitClass} disabled={navigation.state === 'submitting'}>
          Send reset link
        </button>
      </PostForm>
    </AuthCard>
  );
}
