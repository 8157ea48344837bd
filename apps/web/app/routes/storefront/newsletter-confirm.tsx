import { CircleAlert, CircleCheck } from 'lucide-react';
import { Link } from 'react-router';
import { PageContainer } from '../../components/ui/page';
import type { Route } from './+types/newsletter-confirm';

/** The confirmation mail's link: /newsletter/confirm?token=… confirms the subscription (once). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  return { result: await context.api.confirmNewsletter(token) };
}

export function meta() {
  return [{ title: 'Newsletter subscription' }, { name: 'robots', content: 'noindex' }];
}

export default function NewsletterConfirm({ loaderData }: Route.ComponentProps) {
  const { result } = loaderData;
  return (
    <PageContainer narrow>
      <div
        className="rounded-2xl border border-slate-200 bg-slate-50 p-8"
        role="status"
        data-testid="newsletter-confirm"
      >
        {result.ok ? (
          <>
            <CircleCheck aria-hidden className="size-8 text-emerald-700" />
            <h1 className="mt-4 text-xl font-semibold text-slate-900">You are subscribed</h1>
            <p className="mt-2 text-slate-700">Thanks! Our newsletter will come to {result.email}.</p>
          </>
        ) : (
          <>
            <CircleAlert aria-hidden className="size-8 text-amber-600" />
            <h1 className="mt-4 text-xl font-semibold text-slate-900">This link does not work any more</h1>
            <p className="mt-2 text-slate-700">
              Confirmation links work once and for 7 days. If you are not subscribed yet, subscribe again at the bottom
              of any page.
            </p>
          </>
        )}
        <Link to="/" className="mt-6 inline-block text-sm font-semibold text-brand underline underline-offset-2">
          Continue shopping
        </Link>
      </div>
    </PageContainer>
  );
}
