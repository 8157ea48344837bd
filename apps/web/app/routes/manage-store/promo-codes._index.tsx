import type { PromoStatus } from '@app/contracts';
import { BadgePercent, LoaderCircle, Plus } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { Form, Link, useNavigation, useSearchParams } from 'react-router';
import {
  Card,
  CardEmpty,
  DashboardLayout,
  primaryAction,
  secondaryAction,
} from '../../components/manage-store/dashboard-layout';
import { PromoStatusBadge } from '../../components/manage-store/promo-code-form';
import { dashboardMeta, dashboardRead } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/promo-codes._index';

const LIST = '/manage-store/promo-codes';
const DONE: Record<string, string> = { deleted: 'Promo code deleted.' };

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const get = (k: string) => url.searchParams.get(k)?.slice(0, 300) ?? undefined;
  const page = await dashboardRead(request, () =>
    context.api.promoCodesPage({ status: get('status'), cursor: get('cursor') }),
  );
  return { ...page, done: get('done') ?? '' };
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Promo codes');
}

const DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const day = (iso: string) => DAY.format(new Date(iso));
/** The end is kept as the start of the day after the last one; the owner thinks in last days. */
const lastDay = (iso: string) => DAY.format(new Date(new Date(iso).getTime() - 1));

function dates(startsAt: string | null, endsAt: string | null): string {
  if (startsAt && endsAt) return `${day(startsAt)} – ${lastDay(endsAt)}`;
  if (startsAt) return `From ${day(startsAt)}`;
  if (endsAt) return `Until ${lastDay(endsAt)}`;
  return 'No end date';
}

/** The store's promo codes: a dense table, newest first, filtered by status. */
export default function PromoCodesPage({ loaderData: page }: Route.ComponentProps) {
  const navigation = useNavigation();
  const fromParam = useMemo(
    () => (DONE[page.done] ? { ok: true, message: DONE[page.done] as string } : null),
    [page.done],
  );
  useActionToast(fromParam);
  const [params, setParams] = useSearchParams();
  useEffect(() => {
    // Said once: a reload of the page does not say "deleted" again.
    if (params.get('done')) {
      const next = new URLSearchParams(params);
      next.delete('done');
      setParams(next, { replace: true, preventScrollReset: true });
    }
  }, [params, setParams]);
  const { query } = page;
  const labels = Object.fromEntries(page.statuses.map((s) => [s.value, s.label])) as Record<PromoStatus, string>;
  const filtered = Boolean(query.status);
  const loading = navigation.state === 'loading' && navigation.location?.pathname === LIST;
  const create = (
    <Link to={`${LIST}/new`} className={primaryAction}>
      <Plus aria-hidden className="size-4" />
      Create promo code
    </Link>
  );
  const empty = page.items.length === 0 && !filtered && !query.cursor;

  return (
    <DashboardLayout
      title="Promo codes"
      description="Codes shoppers enter in the cart: a percentage or an amount off, with a minimum, dates and limits."
      action={empty ? undefined : create}
    >
      <Card flush>
        {!empty && (
          <Form method="get" className="flex flex-wrap items-end gap-2 px-4 pt-4 pb-3" aria-label="Filter promo codes">
            <div className="flex flex-col">
              <label htmlFor="promo-status" className="mb-1 text-xs font-medium text-neutral-600">
                Status
              </label>
              <select
                id="promo-status"
                name="status"
                defaultValue={query.status ?? ''}
                key={query.status ?? ''}
                className="h-9 rounded-lg border border-neutral-300 bg-white px-2.5 text-sm"
              >
                <option value="">All statuses</option>
                {page.statuses.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className={secondaryAction}>
              {loading && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
              Show
            </button>
          </Form>
        )}
        {page.items.length === 0 ? (
          <CardEmpty
            icon={<BadgePercent className="size-6" />}
            title={
              filtered ? `No ${labels[query.status as PromoStatus]?.toLowerCase()} promo codes` : 'No promo codes yet'
            }
          >
            {filtered ? (
              <Link to={LIST} className="underline underline-offset-2">
                Show all promo codes
              </Link>
            ) : (
              <div className="flex flex-col items-center gap-4">
                <p>Create a code to give shoppers a percentage or an amount off in the cart.</p>
                {create}
              </div>
            )}
          </CardEmpty>
        ) : (
          <>
            {/* On a phone each code is a stacked row, as Polaris's index tables become lists. */}
            <ul className="divide-y divide-neutral-100 border-t border-neutral-200 sm:hidden" aria-label="Promo codes">
              {page.items.map((c) => (
                <li key={c.code} className="space-y-1 px-4 py-3 text-sm">
                  <div className="flex items-center justify-between gap-2">
                    <Link
                      to={`${LIST}/${encodeURIComponent(c.code)}`}
                      className="min-w-0 font-mono font-medium break-all text-neutral-900 underline-offset-2 hover:underline"
                    >
                      {c.code}
                    </Link>
                    <PromoStatusBadge status={c.status} label={labels[c.status]} />
                  </div>
                  <p className="text-neutral-800">{c.summary}</p>
                  <p className="text-xs text-neutral-600">
                    Used {c.timesUsed}
                    {c.usageLimit !== null && ` of ${c.usageLimit}`} · {dates(c.startsAt, c.endsAt)}
                  </p>
                </li>
              ))}
            </ul>
            <div className="hidden overflow-x-auto sm:block">
              <table className="w-full min-w-[40rem] text-left text-sm">
                <caption className="sr-only">Promo codes, newest first</caption>
                <thead className="border-y border-neutral-200 bg-neutral-50 text-xs font-medium text-neutral-600">
                  <tr>
                    <th scope="col" className="px-4 py-2">
                      Code
                    </th>
                    <th scope="col" className="px-2 py-2">
                      Discount
                    </th>
                    <th scope="col" className="px-2 py-2">
                      Status
                    </th>
                    <th scope="col" className="px-2 py-2 text-right">
                      Used
                    </th>
                    <th scope="col" className="px-4 py-2">
                      Dates
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-neutral-100">
                  {page.items.map((c) => (
                    <tr key={c.code} className="hover:bg-neutral-50">
                      <td className="px-4 py-2.5 font-medium">
                        <Link
                          to={`${LIST}/${encodeURIComponent(c.code)}`}
                          className="font-mono text-neutral-900 underline-offset-2 hover:underline"
                        >
                          {c.code}
                        </Link>
                      </td>
                      <td className="px-2 py-2.5 text-neutral-800">{c.summary}</td>
                      <td className="px-2 py-2.5">
                        <PromoStatusBadge status={c.status} label={labels[c.status]} />
                      </td>
                      <td className="px-2 py-2.5 text-right tabular-nums text-neutral-800">
                        {c.timesUsed}
                        {c.usageLimit !== null && <span className="text-neutral-500"> / {c.usageLimit}</span>}
                      </td>
                      <td className="px-4 py-2.5 whitespace-nowrap text-neutral-600">{dates(c.startsAt, c.endsAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
        {(page.nextCursor || query.cursor) && (
          <nav aria-label="Pages" className="flex justify-between gap-3 border-t border-neutral-100 px-4 py-3 text-sm">
            {query.cursor ? (
              <Link to={`${LIST}${query.status ? `?status=${query.status}` : ''}`} className="font-medium underline">
                First page
              </Link>
            ) : (
              <span />
            )}
            {page.nextCursor && (
              <Link
                to={`${LIST}?${new URLSearchParams({ ...(query.status ? { status: query.status } : {}), cursor: page.nextCursor })}`}
                className="font-medium underline"
              >
                Next page
              </Link>
            )}
          </nav>
        )}
      </Card>
    </DashboardLayout>
  );
}
