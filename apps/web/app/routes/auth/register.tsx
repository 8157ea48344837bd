import { REGISTRATION_CLOSED_MESSAGE } from '@app/contracts/client';
import { CircleCheck } from 'lucide-react';
import { data, Link, useNavigation, useRouteLoaderData, useSearchParams } from 'react-router';
import { carriedWishlistId } from '../../components/product/wishlist-heart';
import { Field, FormAlert, submitClass } from '../../components/ui/form-field';
import { PostForm } from '../../components/ui/post-form';
import { safeRedirect } from '../../lib/safe-redirect';
import type { loader as rootLoader } from '../../root';
import type { Route } from './+types/register';
import { AuthCard } from './auth-card';

const FIELDS = ['firstName', 'lastName', 'email', 'password', 'phone'] as const;

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const input = Object.fromEntries(FIELDS.map((f) => [f, String(form.get(f) ?? '').slice(0, 400)])) as Record<
    (typeof FIELDS)[number],
    string
  >;
  // A guest's heart: a new account starts with the product on its wishlist (an odd value is dropped).
  const wishlistProductId = carriedWishlistId(String(form.get('wishlist') ?? '')) ?? undefined;
  // Nobody is logged in here (decision 022): the welcome mail's link confirms the email, logs in and
  // comes back to where the shopper was heading, with the carried heart.
  const redirectUrl = safeRedirect(String(form.get('redirectUrl') ?? ''));
  const result = await context.api.register({ ...input, wishlistProductId, redirectUrl });
  // What was typed comes back (never the password) so nothing has to be typed twice.
  const { password: _password, ...kept } = input;
  return data({ result, values: kept }, { status: result.ok ? 200 : result.status });
}

export function meta() {
  return [{ title: 'Create an account' }, { name: 'robots', content: 'noindex' }];
}

export default function Register({ actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const redirectUrl = safeRedirect(params.get('redirectUrl'));
  const result = actionData?.result;
  const failure = result && !result.ok ? result : null;
  const values = actionData?.values;
  const busy = navigation.state === 'submitting';
  const wishlist = carriedWishlistId(params.get('wishlist'));
  // Login and sign-up link to each other with both parameters, so either way the shopper comes back.
  const onward = [
    params.get('redirectUrl') ? `redirectUrl=${encodeURIComponent(redirectUrl)}` : '',
    wishlist ? `wishlist=${encodeURIComponent(wishlist)}` : '',
  ]
    .filter(Boolean)
    .join('&');
  const loginLink = `/auth/login${onward ? `?${onward}` : ''}`;
  // The store's access mode (decision 105): closed to sign-up, or every new account waits for approval.
  const accessMode = useRouteLoaderData<typeof rootLoader>('root')?.shell.tenant.accessMode;
  const approval = accessMode === 'approved_only';

  if (accessMode === 'invitation_only') {
    return (
      <AuthCard title="Invitation only">
        <p className="text-slate-700" data-testid="registration-closed">
          {REGISTRATION_CLOSED_MESSAGE} If you have an invitation, its email has the link that opens your account.
        </p>
        <Link to={loginLink} className={`${submitClass} mt-6 flex items-center justify-center`}>
          Go to log in
        </Link>
      </AuthCard>
    );
  }

  if (result?.ok) {
    // A new email and one that already had an account both end here: the page tells them apart no more than the API.
    return (
      <AuthCard title="Check your email">
        <div role="status" className="flex gap-3 text-slate-700" data-testid="register-done">
          <CircleCheck aria-hidden className="size-6 shrink-0 text-emerald-700" />
          <p>
            {result.message}
            {approval &&
              ' This store approves new accounts: once you confirm your email, your account waits for the owner’s approval, and we email you their answer.'}
          </p>
        </div>
        <Link to={loginLink} className={`${submitClass} mt-6 flex items-center justify-center`}>
          Go to log in
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Create an account"
      lead={
        approval
          ? 'This store approves every new account. Ask for one here: the owner decides, and we email you.'
          : 'Check out faster, follow your orders and keep a wishlist.'
      }
      footer={
        <>
          Already have an account?{' '}
          <Link to={loginLink} className="font-semibold text-brand hover:underline">
            Log in
          </Link>
        </>
      }
    >
      <PostForm className="space-y-4" data-testid="register-form">
        <FormAlert message={failure && Object.keys(failure.fieldErrors).length === 0 ? failure.message : null} />
        <input type="hidden" name="redirectUrl" value={redirectUrl} />
        {wishlist && <input type="hidden" name="wishlist" value={wishlist} />}
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
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint="At least 10 characters. Avoid common passwords and your email address."
          error={failure?.fieldErrors.password}
        />
        <Field
          label="Phone (optional)"
          name="phone"
          type="tel"
          autoComplete="tel"
          required={false}
          defaultValue={values?.phone}
          error={failure?.fieldErrors.phone}
        />
        <button type="submit" className={submitClass} disabled={busy}>
          {busy ? 'Creating your account…' : 'Create account'}
        </button>
      </PostForm>
    </AuthCard>
  );
}
