import { useEffect, useRef } from 'react';
import { data, useNavigation } from 'react-router';
import { Field, FormAlert, submitClass } from '../../components/ui/form-field';
import { PostForm } from '../../components/ui/post-form';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/password';
import { AccountLayout } from './account-nav';

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await context.api.changePassword({
    currentPassword: String(form.get('currentPassword') ?? '').slice(0, 400),
    newPassword: String(form.get('newPassword') ?? '').slice(0, 400),
  });
  return data({ result }, { status: result.ok ? 200 : result.status });
}

export function meta() {
  return [{ title: 'Password' }, { name: 'robots', content: 'noindex' }];
}

export default function ChangePassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const result = actionData?.result;
  const failure = result && !result.ok ? result : null;
  useActionToast(result);
  // Passwords never stay in the form after an answer, whichever it was.
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (result) formRef.current?.reset();
  }, [result]);
  return (
    <AccountLayout title="Password">
      <PostForm ref={formRef} className="max-w-md space-y-4" data-testid="password-form">
        <FormAlert message={failure && Object.keys(failure.fieldErrors).length === 0 ? failure.message : null} />
        <Field
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          error={failure?.fieldErrors.currentPassword}
        />
        <Field
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          hint="At least 10 characters. Other devices will be logged out."
          error={failure?.fieldErrors.newPassword}
        />
        <button
          type="submit"
          className={`${submitClass} sm:w-auto sm:px-8`}
          disabled={navigation.state === 'submitting'}
        >
          Change password
        </button>
      </PostForm>
    </AccountLayout>
  );
}
