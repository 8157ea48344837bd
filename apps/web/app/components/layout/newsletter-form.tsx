import { CSRF_FIELD } from '@app/contracts/client';
import { type ReactNode, useEffect } from 'react';
import { useFetcher, useRouteLoaderData } from 'react-router';
import type { loadFrameData } from '../../lib/frame-data';
import type { subscribeToNewsletter } from '../../lib/newsletter-subscribe';
import { useToast } from '../ui/toast';

/**
 * The footer's subscribe form. It posts to the /newsletter page action, so without JavaScript the
 * browser lands on that page with the answer; with JavaScript it posts in place and says the answer
 * as a toast, and the shopper stays where they were.
 */
export function NewsletterForm({ className, children }: { className?: string; children: ReactNode }) {
  const fetcher = useFetcher<typeof subscribeToNewsletter>();
  const root = useRouteLoaderData<typeof loadFrameData>('root');
  const toast = useToast();
  const result = fetcher.data?.result;
  useEffect(() => {
    if (!result) return;
    if (result.ok) toast('success', result.message);
    else toast('error', result.fieldErrors.email ?? result.message);
  }, [result, toast]);
  return (
    <fetcher.Form method="post" action="/newsletter" className={className} data-testid="newsletter-fallback">
      <input type="hidden" name={CSRF_FIELD} value={root?.csrfToken ?? ''} />
      {children}
    </fetcher.Form>
  );
}
