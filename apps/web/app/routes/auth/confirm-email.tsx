import { MailCheck } from 'lucide-react';
import { data, Link, redirect, useNavigation, useSearchParams } from 'react-router';
import { carriedWishlistId } from '../../components/product/wishlist-heart';
import { FormAlert, submitClass } from '../../components/ui/form-field';
import { PostForm } from '../../components/ui/post-form';
import { setCookies } from '../../lib/cookies';
import { safeRedirect } from '../../lib/safe-redirect';
import type { Route } from './+types/confirm-email';
import { AuthCard } from './auth-card';

/**
 * Confirming takes a press of the button, a POST: mail scanners and link previews open every link of
 * a mail with GET, and would otherwise use up the single-use link (and a GET must not log anyone in).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const wishlistProductId = carriedWishlistId(String(form.get('wishlist') ?? '')) ?? undefined;
  const result = await context.api.confirmEmail({
    token: String(form.get('token') ?? '').slice(0, 200),
    wishlistProductId,
  });
  if (result.ok) {
    throw redirect(safeRedirect(String(form.get('redirectUrl') ?? '')), { headers: setCookies(result.cookies) });
  }
  return data({ result }, { status: result.status });
}

export function meta() {
  return [{ title: 'Confirm your email' }, { name: 'robots', content: 'noindex' }];
}

/** The page a welcome mail links to: /auth/confirm-email?token=…[&redirectUrl=…&wishlist=…]. */
export default function ConfirmEmail({ actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const failure = actionData && !actionData.result.ok ? actionData.result : null;
  const wishlist = carriedWishlistId(params.get('wishlist'));
  return (
    <AuthCard
      title="Confirm your email"
      lead="One step left: confirm that this address is yours, and you are logged in."
      footer={
        <>
          Link not working?{' '}
          <Link to="/auth/login" className="font-semibold text-brand hover:underline">
            Log in to get a new one
          </Link>
        </>
      }
    >
      <PostForm className="space-y-4" data-testid="confirm-form">
        <FormAlert message={failure?.message} />
        <input type="hidden" name="token" value={params.get('token') ?? ''} />
        <input type="hidden" name="redirectUrl" value={safeRedirect(params.get('redirectUrl'))} />
        {wishlist && <input type="hidden" name="wishlist" value={wishlist} />}
        <div className="flex gap-3 text-slate-700">
          <MailCheck aria-hidden className="size-6 shrink-0 text-brand" />
          <p>The link works once, for 24 hours after it was sent.</p>
        </div>
        <button type="submit" className={submitClass} disabled={navigation.state === 'submitting'}>
          {navigation.state === 'submitting' ? 'Confirming…' : 'Confirm and log in'}
        </button>
      </PostForm>
    </AuthCard>
  );
}
