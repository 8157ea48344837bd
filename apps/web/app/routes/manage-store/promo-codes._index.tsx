import type { PromoStatus } from '@app/contracts';
import { BadgePercent, LoaderCircle, Plus } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { Form, Link, useNavigation, useSearchParams } from 'react-router';
import { PromoStatusBadge } from '../../components/manage-store/promo-code-form';
import { Button, ButtonLink, buttonClass } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { DataTable } from '../../components/ui/data-table';
import { AdminEmptyState } from '../../components/ui/empty-state';
import { AdminPage } from '../../components/ui/page-header';
import { cursorHref, Pagination } from '../../components/ui/pagination';
import { SelectField } from '../../components/ui/select-field';
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
    <ButtonLink to={`${LIST}/new`} variant="primary">
      <Plus aria-hidden className="size-4" />
      Create promo code
    </ButtonLink>
  );
  const empty = page.items.length === 0 && !filtered && !query.cursor;
  const href = (code: string) => `${LIST}/${encodeURIComponent(code)}`;

  return (
    <AdminPage
      title="Promo codes"
      description="Codes shoppers enter in the cart: a percentage or an amount off, with a minimum, dates and limits."
      primaryAction={empty ? undefined : create}
    >
      <Card flush>
        {!empty && (
          <Form method="get" className="flex flex-wrap items-end gap-2 px-4 pt-4 pb-3" aria-label="Filter promo codes">
            <SelectField
              id="promo-status"
              label="Status"
              name="status"
              defaultValue={query.status ?? ''}
              key={query.status ?? ''}
              options={[{ value: '', label: 'All statuses' }, ...page.statuses]}
            />
            <Button type="submit">
              {loading && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
              Show
            </Button>
          </Form>
        )}
        {page.items.length === 0 ? (
          <AdminEmptyState
            icon={<BadgePercent className="size-6" />}
            title={
              filtered ? `No ${labels[query.status as PromoStatus]?.toLowerCase()} promo codes` : 'No promo codes yet'
            }
            action={filtered ? undefined : create}
          >
            {filtered ? (
              <Link to={LIST} className={buttonClass('plain')}>
                Show all promo codes
              </Link>
            ) : (
              'Create a code to give shoppers a percentage or an amount off in the cart.'
            )}
          </AdminEmptyState>
        ) : (
          <DataTable
            label="Promo codes, newest first"
            rows={page.items}
            rowKey={(c) => c.code}
            minWidth="0"
            columns={[
              {
                header: 'Code',
                cell: (c) => (
                  <>
                    {/* Whole on one line (a code broken mid-word reads as two); a very long one ends in "…". */}
                    <Link
                      to={href(c.code)}
                      title={c.code}
                      className="block max-w-[10rem] truncate font-mono font-medium text-neutral-900 underline-offset-2 hover:underline"
                    >
                      {c.code}
                    </Link>
                    {/* On a phone the status and the uses fold in under the code: the table fits 375 px whole. */}
                    <span className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 sm:hidden">
                      <PromoStatusBadge status={c.status} label={labels[c.status]} />
                      <span className="text-xs text-neutral-600">
                        Used {c.timesUsed}
                        {c.usageLimit !== null && ` of ${c.usageLimit}`}
                      </span>
                    </span>
                  </>
                ),
              },
              {
                header: 'Discount',
                cell: (c) => (
                  <>
                    <span className="text-neutral-800">{c.summary}</span>
                    {/* On a phone the dates fold in under the discount. */}
                    <span className="block text-xs text-neutral-600 sm:hidden">{dates(c.startsAt, c.endsAt)}</span>
                  </>
                ),
              },
              {
                header: 'Status',
                className: 'hidden sm:table-cell',
                cell: (c) => <PromoStatusBadge status={c.status} label={labels[c.status]} />,
              },
              {
                header: 'Used',
                align: 'end',
                className: 'hidden tabular-nums sm:table-cell',
                cell: (c) => (
                  <>
                    {c.timesUsed}
                    {c.usageLimit !== null && <span className="text-neutral-500"> / {c.usageLimit}</span>}
                  </>
                ),
              },
              {
                header: 'Dates',
                className: 'hidden whitespace-nowrap text-neutral-600 sm:table-cell',
                cell: (c) => dates(c.startsAt, c.endsAt),
              },
            ]}
          />
        )}
        <Pagination
          next={page.nextCursor && `${LIST}${cursorHref({ status: query.status }, page.nextCursor)}`}
          first={query.cursor ? `${LIST}${cursorHref({ status: query.status }, null)}` : null}
        />
      </Card>
    </AdminPage>
  );
}
