import { data, useNavigation } from 'react-router';
import { Field, FormAlert, submitClass } from '../../components/ui/form-field';
import { PostForm } from '../../components/ui/post-form';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/profile-settings';
import { AccountLayout } from './account-nav';

const FIELDS = ['firstName', 'lastName', 'email', 'phone', 'currentPassword'] as const;

export async function loader({ context }: Route.LoaderArgs) {
  return { profile: await context.api.profile() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const input = Object.fromEntries(FIELDS.map((f) => [f, String(form.get(f) ?? '').slice(0, 400)])) as Record<
    (typeof FIELDS)[number],
    string
  >;
  const result = await context.api.updateProfile(input);
  const { currentPassword: _never, ...kept } = input;
  return data({ result, values: kept }, { status: result.ok ? 200 : result.status });
}

export function meta() {
  return [{ title: 'My Profile' }, { name: 'robots', content: 'noindex' }];
}

export default function ProfileSettings({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const profile = loaderData.profile;
  const result = actionData?.result;
  const failure = result && !result.ok ? result : null;
  // After a refusal the form shows what was typed; otherwise what is saved.
  const values = failure ? actionData?.values : profile;
  useActionToast(result);
  if (!profile) return null;
  return (
    <AccountLayout title="My Profile">
      <PostForm className="max-w-xl space-y-4" data-testid="profile-form">
        <FormAlert message={failure && Object.keys(failure.fieldErrors).length === 0 ? failure.message : null} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="First name"
            name="firstName"
            autoComplete="given-name"
            defaultValue={values?.firstName}
            error={failure?.fieldErrors.firstName}
          />
          <Field
            label="Last name"
            name="lastName"
            autoComplete="family-name"
            defaultValue={values?.lastName}
            error={failure?.fieldErrors.lastName}
          />
        </div>
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={values?.email}
          error={failure?.fieldErrors.email}
        />
        <Field
          label="Phone (optional)"
          name="phone"
          type="tel"
          autoComplete="tel"
          required={false}
          defaultValue={values?.phone ?? ''}
          error={failure?.fieldErrors.phone}
        />
        <Field
          label="Current password (only to change your email)"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required={false}
          error={failure?.fieldErrors.currentPassword}
        />
        <button
          type="submit"
          className={`${submitClass} sm:w-auto sm:px-8`}
          disabled={navigation.state === 'submitting'}
        >
          Save profile
        </button>
      </PostForm>
    </AccountLayout>
  );
}
