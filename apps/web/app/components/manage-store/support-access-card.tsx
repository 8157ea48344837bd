import type { SupportGrant } from '@app/contracts';
import { CSRF_FIELD, SUPPORT_HOUR_CHOICES } from '@app/contracts/client';
import { LifeBuoy } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useFetcher, useRouteLoaderData } from 'react-router';
import { formatDateTime } from '../../lib/dashboard-page';
import type { loader as rootLoader } from '../../root';
import { Badge } from '../ui/badge';
import { Banner } from '../ui/banner';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { ReadOnlyFields } from '../ui/post-form';
import { SelectField } from '../ui/select-field';
import { useToast } from '../ui/toast';

/** The support-access route: its loader gives the card its state, its action grants or revokes. */
export const SUPPORT_ROUTE = '/manage-store/settings/access/support';

export interface SupportAccessLoad {
  grant: SupportGrant | null;
  canManage: boolean;
}
export type SupportAccessResult =
  | { ok: true; message: string }
  | { ok: false; status: number; message: string; fieldErrors: { hours?: string } };
export interface SupportAccessAnswer {
  intent: string;
  result: SupportAccessResult;
}

const hoursLabel = (h: number) => (h === 1 ? '1 hour' : h < 24 ? `${h} hours` : h === 24 ? '1 day' : `${h / 24} days`);

/**
 * Access settings' "Platform support" card: the owner lets the platform's support open this
 * store's dashboard for 1 to 72 hours, and ends it at once. It posts to its own route (as the
 * danger zone does), so the access page's other cards are not touched; with JavaScript it loads
 * its state from there and answers with toasts; without, the browser lands on that route's page.
 */
export function SupportAccessCard({
  state: given,
  answer: givenAnswer,
}: {
  state?: SupportAccessLoad;
  answer?: SupportAccessAnswer;
}) {
  const load = useFetcher<SupportAccessLoad>();
  const form = useFetcher<SupportAccessAnswer>();
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const toast = useToast();
  const started = useRef(false);
  useEffect(() => {
    if (given !== undefined || started.current) return;
    started.current = true;
    load.load(SUPPORT_ROUTE);
  }, [given, load]);
  const answer = form.data ?? givenAnswer;
  useEffect(() => {
    if (form.data?.result.ok) toast('success', form.data.result.message);
  }, [form.data, toast]);
  // After a change the fetcher's form revalidates the loader it loaded from.
  const state = given ?? load.data;
  const grant = state?.grant?.active ? state.grant : null;
  const failure = answer && !answer.result.ok ? answer.result : null;
  const busy = form.state !== 'idle';
  const csrf = <input type="hidden" name={CSRF_FIELD} value={root?.csrfToken ?? ''} />;

  return (
    <Card
      title="Platform support"
      description="Let the platform’s support team open your dashboard to help you. Everything they do is in your audit log under their name."
      aside={
        state ? (
          <Badge tone={grant ? 'warning' : 'neutral'} data-testid="support-badge">
            {grant ? 'Access granted' : 'No access'}
          </Badge>
        ) : undefined
      }
    >
      {!state ? (
        // Before the state has loaded (or without JavaScript): the card's own page.
        <Link
          to={SUPPORT_ROUTE}
          className="inline-flex items-center gap-1.5 text-sm font-semibold text-[#005bd3] hover:underline"
        >
          <LifeBuoy aria-hidden className="size-4" />
          Grant or end support access
        </Link>
      ) : (
        <div className="space-y-3">
          {failure && !failure.fieldErrors.hours && <Banner>{failure.message}</Banner>}
          {grant ? (
            <>
              <p className="text-sm text-[#303030]" data-testid="support-grant">
                Support can open your dashboard until <strong>{formatDateTime(grant.expiresAt)}</strong> (granted by{' '}
                {grant.grantedBy}).
              </p>
              {state.canManage && (
                <form.Form method="post" action={SUPPORT_ROUTE}>
                  <ReadOnlyFields>
                    {csrf}
                    <input type="hidden" name="intent" value="revoke" />
                    <Button type="submit" variant="critical-outline" disabled={busy}>
                      {busy ? 'Ending…' : 'End support access now'}
                    </Button>
                  </ReadOnlyFields>
                </form.Form>
              )}
            </>
          ) : (
            <p className="text-sm text-[#303030]">Support cannot open your dashboard.</p>
          )}
          {state.canManage ? (
            <form.Form method="post" action={SUPPORT_ROUTE} className="flex flex-wrap items-end gap-2">
              <ReadOnlyFields className="flex flex-wrap items-end gap-2">
                {csrf}
                <input type="hidden" name="intent" value="grant" />
                <SelectField
                  label={grant ? 'Extend to' : 'Grant for'}
                  name="hours"
                  defaultValue="24"
                  options={SUPPORT_HOUR_CHOICES.map((h) => ({ value: String(h), label: `${hoursLabel(h)} from now` }))}
                  error={failure?.fieldErrors.hours}
                />
                <Button type="submit" disabled={busy}>
                  {busy ? 'Saving…' : grant ? 'Extend access' : 'Grant access'}
                </Button>
              </ReadOnlyFields>
            </form.Form>
          ) : (
            <p className="text-sm text-[#616161]">Only the store owner can grant or end support access.</p>
          )}
        </div>
      )}
    </Card>
  );
}
