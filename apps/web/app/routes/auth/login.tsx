import { MailCheck } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { data, Link, redirect, useNavigation, useRouteLoaderData, useSearchParams } from 'react-router';
import { carriedWishlistId } from '../../components/product/wishlist-heart';
import { Field, FormAlert, submitClass } from '../../components/ui/form-field';
import { PostForm } from '../../components/ui/post-form';
import { setCookies } from '../../lib/cookies';
import { safeRedirect } from '../../lib/safe-redirect';
import type { loader as rootLoader } from '../../root';
import type { Route } from './+types/login';
import { AuthCard } from './auth-card';

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const email = String(form.get('email') ?? '').slice(0, 400);
  // "Send the link again", offered when the password was right but the email is not confirmed yet.
  if (form.get('intent') === 'resend-confirmation') {
    const resent = await context.api.resendConfirmation(email);
    return data({ resent, email, result: null }, { status: resent.ok ? 200 : resent.status });
  }
  const password = String(form.get('password') ?? '').slice(0, 400);
  // A guest's heart: the product goes on the wishlist with this login (an odd value is dropped).
  const wishlistProductId = carriedWishlistId(String(form.get('wishlist') ?? '')) ?? undefined;
  const result = await context.api.login({ email, password, wishlistProductId });
  if (result.ok) {
    // Back to the page the guard sent the shopper from: same-origin relative paths only.
    throw redirect(safeRedirect(String(form.get('redirectUrl') ?? '')), { headers: setCookies(result.cookies) });
  }
  // The email comes back so the shopper need not type it again; the password never does.
  return data({ result, email, resent: null }, { status: result.status });
}

export function meta() {
  return [{ title: 'Log in' }, { name: 'robots', content: 'noindex' }];
}

export default function Login({ actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const redirectUrl = safeRedirect(params.get('redirectUrl'));
  const wishlist = carriedWishlistId(params.get('wishlist'));
  // Login and sign-up link to each other with both parameters, so either way the shopper comes back.
  const onward = [
    params.get('redirectUrl') ? `redirectUrl=${encodeURIComponent(redirectUrl)}` : '',
    wishlist ? `wishlist=${encodeURIComponent(wishlist)}` : '',
  ]
    .filter(Boolean)
    .join('&');
  const failure = actionData?.result && !actionData.result.ok ? actionData.result : null;
  const unconfirmed = failure?.code === 'EMAIL_NOT_CONFIRMED';
  const resent = actionData?.resent;
  const busy = navigation.state === 'submitting';
  // After a refusal the password is emptied and focused, ready for another try (as without JavaScript).
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const input = failure ? formRef.current?.querySelector<HTMLInputElement>('input[name="password"]') : null;
    if (input) {
      input.value = '';
      input.focus();
    }
  }, [failure]);
  return (
    <AuthCard
      title="Log in"
      lead={
        // A private store (decision 027) shows its visitors only this page and registration.
        root?.shell.tenant.accessMode === 'invitation_only'
          ? 'This store admits customers by invitation only. Log in to see its products.'
          : root?.shell.tenant.accessMode === 'approved_only'
            ? 'This store is private. Log in, or ask for an account, to see its products.'
            : root?.shell.tenant.isWs2Public === false
              ? 'This store is private. Log in, or create an account, to see its products.'
              : wishlist
                ? 'Log in and the product goes on your wishlist; then you are taken back to where you were.'
                : 'Welcome back. Log in to see your orders, addresses and wishlist.'
      }
      footer={
        // An invitation-only store has no sign-up to offer (decision 105).
        root?.shell.tenant.accessMode === 'invitation_only' ? undefined : (
          <>
            New here?{' '}
            <Link
              to={`/auth/register${onward ? `?${onward}` : ''}`}
              className="font-semibold text-brand hover:underline"
            >
              Create an account
            </Link>
          </>
        )
      }
    >
      {unconfirmed && failure && actionData?.email && (
        // Its own form: the email only, so the password need not be typed again to get a new link.
        <PostForm className="mb-6 space-y-3" data-testid="resend-confirmation">
          <FormAlert message={failure.message} />
          <input type="hidden" name="intent" value="resend-confirmation" />
          <input type="hidden" name="email" value={actionData.email} />
          <p className="text-sm text-slate-700">Did not get it, or the link has expired?</p>
          <button
            type="submit"
            className="h-10 w-full rounded-md border border-slate-300 text-sm font-semibold text-slate-800 hover:bg-slate-50"
            disabled={busy}
          >
            Send the link again
          </button>
        </PostForm>
      )}
      {resent && !resent.ok && <FormAlert message={resent.message} />}
      {resent?.ok && (
        <div role="status" className="mb-6 flex gap-3 text-sm text-slate-700" data-testid="resend-done">
          <MailCheck aria-hidden className="size-5 shrink-0 text-emerald-700" />
          <p>{resent.message}</p>
        </div>
      )}
      <PostForm ref={formRef} className="space-y-4" data-testid="login-form">
        <FormAlert
          message={failure && !unconfirmed && Object.keys(failure.fieldErrors).length === 0 ? failure.message : null}
        />
        <input type="hidden" name="redirectUrl" value={redirectUrl} />
        {wishlist && <input type="hidden" name="wishlist" value={wishlist} />}
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={actionData?.email}
          error={failure?.fieldErrors.email}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          error={failure?.fieldErrors.password}
        />
        <div className="flex justify-end">
          <Link to="/auth/forgot-password" className="text-sm font-medium text-brand hover:underline">
            Forgot your password?
          </Link>
        </div>
        <button type="submit" className={submitClass} disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </PostForm>
    </AuthCard>
  );
}
