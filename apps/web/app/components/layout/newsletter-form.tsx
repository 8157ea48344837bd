import { CSRF_FIELD } from '@app/contracts/client';
import { type ReactNode, useEffect } from 'react';
import { useFetcher, useRouteLoaderData } from 'react-router';
import type { loader as rootLoader } from '../../root';
import type { action } from '../../routes/storefront/newsletter';
import { useToast } from '../ui/toast';

/**
 * The footer's subscribe form. It posts to the /newsletter page action, so without JavaScript the
 * browser lands on that page with the answer; with JavaScript it posts in place and says the answer
 * as a toast, and the shopper stays where they were.
 */
export function NewsletterForm({ className, children }: { className?: string; children: ReactNode }) {
  const fetcher = useFetcher<typeof action>();
  const root = useRouteLoaderData<typeof rootLoader>('root');
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
