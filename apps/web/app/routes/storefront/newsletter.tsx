import { CircleCheck } from 'lucide-react';
import { Link, useNavigation } from 'react-router';
import { NewsletterForm } from '../../components/layout/newsletter-form';
import { PageContainer, PageTitle } from '../../components/ui/page';
import { subscribeToNewsletter } from '../../lib/newsletter-subscribe';
import type { Route } from './+types/newsletter';

export function action({ request, context }: Route.ActionArgs) {
  return subscribeToNewsletter(request, context);
}

export function meta() {
  return [{ title: 'Newsletter' }, { name: 'robots', content: 'noindex' }];
}

/**
 * Where the footer's subscribe form lands without JavaScript (with it, the footer says the answer
 * as a toast and this page is not shown), and a plain subscribe page for a direct visit.
 */
export default function Newsletter({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const result = actionData?.result;
  if (result?.ok) {
    return (
      <PageContainer narrow>
        <div
          className="rounded-2xl border border-emerald-200 bg-emerald-50 p-8"
          role="status"
          data-testid="newsletter-done"
        >
          <CircleCheck aria-hidden className="size-8 text-emerald-700" />
          <h1 className="mt-4 text-xl font-semibold text-slate-900">Almost there</h1>
          <p className="mt-2 text-slate-700">{result.message}</p>
          <Link to="/" className="mt-6 inline-block text-sm font-semibold text-brand underline underline-offset-2">
            Continue shopping
          </Link>
        </div>
      </PageContainer>
    );
  }
  const error = result ? (result.fieldErrors.email ?? result.message) : null;
  return (
    <PageContainer narrow>
      <PageTitle lead="Get new arrivals, offers and tips in your inbox. Unsubscribe at any time.">Newsletter</PageTitle>
      <NewsletterForm className="space-y-3">
        {error && (
          <p role="alert" id="newsletter-error" className="text-sm font-medium text-red-700">
            {error}
          </p>
        )}
        <label htmlFor="newsletter-email" className="block text-sm font-semibold text-slate-900">
          Email address
        </label>
        <div className="flex flex-wrap gap-2">
          <input
            id="newsletter-email"
            type="email"
            name="email"
            required
            autoComplete="email"
            defaultValue={actionData?.email ?? ''}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'newsletter-error' : undefined}
            className="h-12 min-w-[14rem] flex-1 rounded-md border border-slate-300 px-3 text-base"
          />
          <button
            type="submit"
            disabled={navigation.state === 'submitting'}
            className="h-12 rounded-md bg-action px-6 font-semibold text-white hover:opacity-90 disabled:opacity-60"
          >
            Subscribe
          </button>
        </div>
      </NewsletterForm>
    </PageContainer>
  );
}
