import { CircleAlert, CircleCheck } from 'lucide-react';
import { Link } from 'react-router';
import { PageContainer } from '../../components/ui/page';
import { PostForm } from '../../components/ui/post-form';
import type { Route } from './+types/newsletter-unsubscribe';

/**
 * Every newsletter mail's link: /newsletter/unsubscribe?token=… (signed, no login). Opening it only
 * shows a button, because mail scanners open links by themselves; pressing the button unsubscribes.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  return { token, peek: await context.api.peekNewsletterUnsubscribe(token) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  return { result: await context.api.unsubscribeFromNewsletter(String(form.get('token') ?? '').slice(0, 200)) };
}

export function meta() {
  return [{ title: 'Unsubscribe' }, { name: 'robots', content: 'noindex' }];
}

export default function NewsletterUnsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData?.result ?? (loaderData.peek.ok ? null : loaderData.peek);
  return (
    <PageContainer narrow>
      <div className="rounded-2xl border border-slate-200 bg-slate-50 p-8" data-testid="newsletter-unsubscribe">
        {result?.ok ? (
          <div role="status">
            <CircleCheck aria-hidden className="size-8 text-emerald-700" />
            <h1 className="mt-4 text-xl font-semibold text-slate-900">You are unsubscribed</h1>
            <p className="mt-2 text-slate-700">We will not send our newsletter to {result.email} any more.</p>
          </div>
        ) : result ? (
          <div role="status">
            <CircleAlert aria-hidden className="size-8 text-amber-600" />
            <h1 className="mt-4 text-xl font-semibold text-slate-900">This link does not work</h1>
            <p className="mt-2 text-slate-700">Use the unsubscribe link of a mail this store sent you.</p>
          </div>
        ) : (
          <PostForm>
            <h1 className="text-xl font-semibold text-slate-900">Unsubscribe from our newsletter?</h1>
            <p className="mt-2 text-slate-700">
              {loaderData.peek.ok ? `We will stop sending it to ${loaderData.peek.email}.` : null}
            </p>
            <input type="hidden" name="token" value={loaderData.token} />
            <button
              type="submit"
              className="mt-6 h-11 rounded-md bg-action px-6 text-sm font-semibold text-white hover:opacity-90"
            >
              Unsubscribe
            </button>
          </PostForm>
        )}
        <Link to="/" className="mt-6 inline-block text-sm font-semibold text-brand underline underline-offset-2">
          Continue shopping
        </Link>
      </div>
    </PageContainer>
  );
}
