import type { Analytics, ComparedFigure, DashboardHome, DashboardHomePage } from '@app/contracts';
import { formatMoney, MAX_RANGE_DAYS, orderHref, RANGE_LABELS, RANGE_PRESETS } from '@app/contracts/client';
import { BarChart3, Broom, ExternalLink, History, Inbox, Lock, PackageCheck } from 'lucide-react';
import { data, Form, Link } from 'react-router';
import { FirstRunChecklistCard } from '../../components/manage-store/first-run-checklist';
import { SalesChart } from '../../components/manage-store/sales-chart';
import { Badge } from '../../components/ui/badge';
import { Banner } from '../../components/ui/banner';
import { Button, ButtonLink } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { AdminEmptyState } from '../../components/ui/empty-state';
import { AdminPage } from '../../components/ui/page-header';
import { SelectField } from '../../components/ui/select-field';
import { TextField } from '../../components/ui/text-field';
import { activityWords } from '../../lib/activity-words';
import { dashboardMeta, dashboardRead, formatDateTime } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/_index';

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const q = (k: string) => url.searchParams.get(k) ?? undefined;
  return dashboardRead(request, async () => {
    // A store sign-up opened shows its owner the first-run checklist until it is put away (decision 103).
    const [home, firstRun] = await Promise.all([
      context.api.dashboardHome({ range: q('range'), from: q('from'), to: q('to') }),
      context.api.firstRunChecklist(),
    ]);
    return { ...home, firstRun };
  });
}

/** The first-run checklist's two forms: put it away, or open the store to visitors. */
export async function action({ context, request }: Route.ActionArgs) {
  return dashboardRead(request, async () => {
    const form = await request.formData();
    const result = await context.api.firstRunAction(form.get('intent') === 'go-live' ? 'go-live' : 'dismiss');
    return data({ result }, { status: result.ok ? 200 : result.status });
  });
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Home');
}

/** The owner's first screen: how the store is doing over a range, what is waiting, and what changed. */
export default function HomePage({ loaderData: home, actionData }: Route.ComponentProps) {
  const money = (amount: number) => formatMoney(amount, home.currency);
  useActionToast(actionData?.result);
  return (
    <AdminPage
      title="Home"
      description="How your store is doing, and what needs you now."
      secondaryActions={
        <ButtonLink to="/">
          <ExternalLink aria-hidden className="size-4" />
          View your store
        </ButtonLink>
      }
    >
      {actionData?.result && !actionData.result.ok && <Banner>{actionData.result.message}</Banner>}
      {home.firstRun && <FirstRunChecklistCard checklist={home.firstRun} />}
      <RangeForm home={home} />
      {home.analytics ? (
        <>
          <Figures analytics={home.analytics} home={home} money={money} />
          {home.cleanup && home.cleanup.released > 0 && <CleanupNotice released={home.cleanup.released} />}
          <Card title="Sales over time" aside={<span className="text-xs text-neutral-500">{home.range.label}</span>}>
            {home.analytics.orders.value === 0 && (
              <p className="mb-2 text-sm text-neutral-600">No paid orders in this range yet.</p>
            )}
            <SalesChart
              points={home.analytics.series}
              bucket={home.range.bucket}
              currency={home.currency}
              label={home.range.label}
            />
          </Card>
        </>
      ) : (
        <Card>
          <AdminEmptyState
            icon={<Lock className="size-6" />}
            title="Sales and orders are kept for the orders permission"
          >
            Ask the store owner for the orders permission to see sales, orders and the orders waiting to be shipped.
          </AdminEmptyState>
        </Card>
      )}

      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="space-y-4">
          {home.analytics && <TopProducts analytics={home.analytics} money={money} label={home.range.label} />}
          {home.toFulfil && <ToFulfil toFulfil={home.toFulfil} money={money} />}
        </div>
        <LowStock home={home} />
      </div>
      <Activity activity={home.activity} />
    </AdminPage>
  );
}

/** The range as a GET form: works without JavaScript, and the address can be bookmarked. */
function RangeForm({ home }: { home: DashboardHomePage }) {
  const err = home.rangeError;
  const value = err ? home.query.range : home.range.preset;
  const [from, to] = err
    ? [home.query.from, home.query.to]
    : [home.range.from.slice(0, 10), new Date(Date.parse(home.range.to) - 86_400_000).toISOString().slice(0, 10)];
  // The refused field is marked (and its mark clears once changed); the banner says what is shown instead.
  const error = (name: 'range' | 'from' | 'to') => (err?.field === name ? err.message : undefined);
  return (
    <Card>
      <Form method="get" className="flex flex-wrap items-end gap-3" aria-label="Range of the figures">
        <SelectField
          label="Date range"
          name="range"
          defaultValue={value}
          key={value}
          error={error('range')}
          options={RANGE_PRESETS.map((r) => ({ value: r, label: RANGE_LABELS[r] }))}
        />
        <TextField label="From" name="from" type="date" defaultValue={from} key={`f${from}`} error={error('from')} />
        <TextField label="To" name="to" type="date" defaultValue={to} key={`t${to}`} error={error('to')} />
        <Button type="submit">Apply</Button>
        <p className="kit-hint w-full">
          From and To apply to a custom range (at most {MAX_RANGE_DAYS} days). Days run midnight to midnight UTC; each
          figure is compared with the {home.range.days === 1 ? 'day' : `${home.range.days} days`} before.
        </p>
        {err && (
          <div className="w-full">
            <Banner>
              {err.field === 'range' ? 'Date range' : err.field === 'from' ? 'From' : 'To'}: {err.message}. Showing the
              last 30 days.
            </Banner>
          </div>
        )}
      </Form>
    </Card>
  );
}

function Change({ figure, percent = false }: { figure: ComparedFigure; percent?: boolean }) {
  if (figure.change === null) return <span className="text-neutral-500">no previous data</span>;
  const up = figure.change > 0;
  const tone = figure.change === 0 ? 'text-neutral-600' : up ? 'text-emerald-700' : 'text-red-700';
  const text = `${up ? '+' : ''}${figure.change.toLocaleString('en-US')}%`;
  return (
    <span className={`font-medium ${tone}`}>
      <span aria-hidden>{figure.change === 0 ? '' : up ? '↑ ' : '↓ '}</span>
      {text}
      {percent && <span className="sr-only"> relative</span>}
    </span>
  );
}

function Figures({
  analytics,
  home,
  money,
}: {
  analytics: Analytics;
  home: DashboardHome;
  money: (n: number) => string;
}) {
  const pct = (r: number) => `${(r * 100).toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;
  const count = (n: number) => n.toLocaleString('en-US');
  return (
    <div>
      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <Figure label="Sales" range={home.range.label} figure={analytics.sales} show={money} />
        <Figure label="Orders" range={home.range.label} figure={analytics.orders} show={count} />
        <Figure
          label="Average order value"
          range={home.range.label}
          figure={analytics.averageOrderValue}
          show={money}
        />
        <Figure
          label="Returning customers"
          range={home.range.label}
          figure={analytics.returningCustomerRate}
          show={pct}
          percent
        />
      </div>
      <p className="mt-2 text-xs text-neutral-500">
        Paid orders in {home.currency}, by the day they were placed; sales before refunds
        {analytics.refunded > 0 ? ` (${money(analytics.refunded)} of them refunded since)` : ''}. Returning customers
        had a paid order before the range began.
      </p>
    </div>
  );
}

function Figure({
  label,
  range,
  figure,
  show,
  percent,
}: {
  label: string;
  range: string;
  figure: ComparedFigure;
  show: (n: number) => string;
  percent?: boolean;
}) {
  // "Sales, last 30 days": the region's name says the range, as the picker above it does.
  const title = `${label}, ${/^(Last|This|Today)/.test(range) ? range.toLowerCase() : range}`;
  return (
    <section aria-label={title} className="kit-card p-3 sm:p-4">
      <h2 className="text-sm font-medium text-neutral-600">{label}</h2>
      <p className="mt-1 text-xl font-bold tracking-tight break-words text-neutral-900 tabular-nums sm:text-2xl">
        {show(figure.value)}
      </p>
      <p className="mt-0.5 text-xs text-neutral-600">
        <Change figure={figure} percent={percent} />
        <span className="block text-neutral-500">Previous: {show(figure.previous)}</span>
      </p>
    </section>
  );
}

function CleanupNotice({ released }: { released: number }) {
  return (
    <Card title="Unpaid orders released">
      <p className="flex items-start gap-2 text-sm text-neutral-600">
        <Broom aria-hidden className="mt-0.5 size-4 shrink-0 text-neutral-500" />
        <span>
          The clean-up released {released === 1 ? '1 order' : `${released} orders`} whose payment never arrived in the
          last 7 days.{' '}
          <Link to="/manage-store/orders/cleanup" className="font-medium text-neutral-900 underline">
            See what and why
          </Link>
        </span>
      </p>
    </Card>
  );
}

function TopProducts({
  analytics,
  money,
  label,
}: {
  analytics: Analytics;
  money: (n: number) => string;
  label: string;
}) {
  const top = analytics.topProducts;
  return (
    <Card title="Top products" flush aside={<span className="text-xs text-neutral-500">{label}</span>}>
      {top.length === 0 ? (
        <AdminEmptyState icon={<BarChart3 className="size-6" />} title="Nothing sold in this range">
          Your best sellers show here, by revenue, once orders are paid.
        </AdminEmptyState>
      ) : (
        <ol className="divide-y divide-neutral-100 border-t border-neutral-100">
          {top.map((p) => (
            <li key={p.productId} className="flex items-center justify-between gap-3 px-4 py-2.5">
              <div className="min-w-0">
                <Link
                  to={`/manage-store/products/${encodeURIComponent(p.productId)}`}
                  className="block truncate text-sm font-medium text-neutral-900 hover:underline"
                >
                  {p.productName}
                </Link>
                <p className="text-xs text-neutral-500">{p.units === 1 ? '1 unit' : `${p.units} units`}</p>
              </div>
              <p className="shrink-0 text-sm font-medium text-neutral-900 tabular-nums">{money(p.revenue)}</p>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

function ToFulfil({
  toFulfil,
  money,
}: {
  toFulfil: NonNullable<DashboardHome['toFulfil']>;
  money: (n: number) => string;
}) {
  const { count, orders } = toFulfil;
  return (
    <Card title="Orders to fulfil" flush aside={count > 0 && <Badge tone="warning">{count}</Badge>}>
      {orders.length === 0 ? (
        <AdminEmptyState icon={<PackageCheck className="size-6" />} title="No orders are waiting to be shipped">
          Paid orders show here until they are shipped. Share your store&rsquo;s link to bring in the next one.
        </AdminEmptyState>
      ) : (
        <>
          <ul className="divide-y divide-neutral-100 border-t border-neutral-100">
            {orders.map((o) => (
              <li key={o.orderId} className="flex items-start justify-between gap-3 px-4 py-2.5">
                <div className="min-w-0">
                  <Link to={orderHref(o.orderId)} className="text-sm font-semibold text-neutral-900 hover:underline">
                    {o.orderId}
                  </Link>
                  <p className="truncate text-sm text-neutral-600">
                    {o.customerName}
                    <span className="hidden sm:inline"> · {o.email}</span>
                  </p>
                </div>
                <div className="shrink-0 text-right">
                  <p className="text-sm font-medium text-neutral-900 tabular-nums">{money(o.total)}</p>
                  <p className="text-xs text-neutral-500">
                    <time dateTime={o.placedAt}>{formatDateTime(o.placedAt)}</time>
                  </p>
                </div>
              </li>
            ))}
          </ul>
          {count > orders.length && (
            <p className="border-t border-neutral-100 px-4 pt-2.5 pb-1.5 text-sm text-neutral-600">
              {count - orders.length} more waiting, oldest not shown.
            </p>
          )}
        </>
      )}
    </Card>
  );
}

function LowStock({ home }: { home: DashboardHome }) {
  const { products, threshold } = home.lowStock;
  return (
    <Card title="Low stock" flush aside={<span className="text-xs text-neutral-500">{threshold} or fewer left</span>}>
      {products.length === 0 ? (
        <AdminEmptyState icon={<Inbox className="size-6" />} title="Nothing is running low">
          Every product has more than {threshold} in stock. Products at {threshold} or fewer show here, so you can
          reorder in time.
        </AdminEmptyState>
      ) : (
        <ul className="divide-y divide-neutral-100 border-t border-neutral-100">
          {products.map((p) => (
            <li key={p.variantId} className="flex items-center justify-between gap-3 px-4 py-2.5">
              <div className="min-w-0">
                <p className="truncate text-sm font-medium text-neutral-900">
                  <Link
                    to={`/manage-store/inventory/${encodeURIComponent(p.productId)}${p.variantTitle ? `?variant=${encodeURIComponent(p.variantId)}` : ''}`}
                    className="underline-offset-2 hover:underline"
                  >
                    {p.variantTitle ? `${p.productName}, ${p.variantTitle}` : p.productName}
                  </Link>
                </p>
                <p className="text-xs text-neutral-500">SKU {p.sku}</p>
              </div>
              <StockBadge stock={p.stock} />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function StockBadge({ stock }: { stock: number }) {
  return stock === 0 ? <Badge tone="critical">Out of stock</Badge> : <Badge tone="warning">{stock} left</Badge>;
}

function Activity({ activity }: { activity: DashboardHome['activity'] }) {
  return (
    <Card title="Latest activity" flush>
      {!activity.available ? (
        <AdminEmptyState icon={<History className="size-6" />} title="Activity is kept for the settings permission">
          Every change you and your staff make is recorded, with who made it and when. Ask the store owner for the
          settings permission to see it here.
        </AdminEmptyState>
      ) : activity.entries.length === 0 ? (
        <AdminEmptyState icon={<History className="size-6" />} title="No changes yet">
          When you or your staff change the theme, pages, products or orders, it shows here. Start with your{' '}
          <Link to="/manage-store/settings/theme" className="font-medium text-neutral-900 underline">
            theme
          </Link>
          .
        </AdminEmptyState>
      ) : (
        <ol className="divide-y divide-neutral-100 border-t border-neutral-100">
          {activity.entries.map((e) => (
            <li key={e.id} className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5 px-4 py-2.5">
              <p className="min-w-0 text-sm text-neutral-700">
                <span className="font-semibold text-neutral-900">{e.actor.name}</span> {activityWords(e)}
              </p>
              <p className="text-xs text-neutral-500">
                <time dateTime={e.createdAt}>{formatDateTime(e.createdAt)}</time>
              </p>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}
