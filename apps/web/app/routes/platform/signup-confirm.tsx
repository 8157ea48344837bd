import { data, redirect, useNavigation, useSearchParams } from 'react-router';
import { FormAlert, submitClass } from '../../components/ui/form-field';
import { PostForm } from '../../components/ui/post-form';
import type { Route } from './+types/signup-confirm';

export function meta() {
  return [{ title: 'Open your store' }, { name: 'robots', content: 'noindex' }];
}

export function loader({ context }: Route.LoaderArgs) {
  if (!context.platform) throw data({ message: 'Page not found' }, { status: 404 });
  return null;
}

/**
 * The mail's link opens this page, and its button opens the store: a form post, because mail
 * scanners open links by themselves. The answer sends the owner across to the new store's host,
 * signed in there by a one-time link (cookies belong to one host).
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (!context.platform) throw data({ message: 'Page not found' }, { status: 404 });
  const form = await request.formData();
  const result = await context.platform.confirmSignup(String(form.get('token') ?? '').slice(0, 200));
  if (result.ok) throw redirect(result.signInUrl, 303);
  return data({ message: result.message }, { status: result.status });
}

export default function SignupConfirm({ actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const busy = useNavigation().state !== 'idle';
  return (
    <section className="mx-auto max-w-lg px-4 py-16" aria-labelledby="confirm-title">
      <div className="rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
        <h1 id="confirm-title" className="text-2xl font-bold text-slate-900">
          Open your store
        </h1>
        <p className="mt-3 text-slate-700">
          Thanks for confirming your email. One click and your store opens; you arrive in its dashboard, signed in.
        </p>
        <PostForm className="mt-6 space-y-4">
          <FormAlert message={actionData?.message} />
          <input type="hidden" name="token" value={params.get('token') ?? ''} />
          <button type="submit" className={submitClass} disabled={busy}>
            {busy ? 'Opening your store…' : 'Open my store'}
          </button>
        </PostForm>
      </div>
    </section>
  );
}
