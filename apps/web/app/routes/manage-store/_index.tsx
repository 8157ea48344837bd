import type { Analytics, ComparedFigure, DashboardHome, DashboardHomePage } from '@app/contracts';
import { formatMoney, MAX_RANGE_DAYS, orderHref, RANGE_LABELS, RANGE_PRESETS } from '@app/contracts/client';
import { BarChart3, Broom, ExternalLink, History, Inbox, Lock, PackageCheck } from 'lucide-react';
import { Form, Link } from 'react-router';
import {
  Card,
  CardEmpty,
  cardClass,
  DashboardLayout,
  secondaryAction,
} from '../../components/manage-store/dashboard-layout';
import { SalesChart } from '../../components/manage-store/sales-chart';
import { activityWords } from '../../lib/activity-words';
import { dashboardMeta, dashboardRead, formatDateTime } from '../../lib/dashboard-page';
import type { Route } from './+types/_index';

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const q = (k: string) => url.searchParams.get(k) ?? undefined;
  return dashboardRead(request, () => context.api.dashboardHome({ range: q('range'), from: q('from'), to: q('to') }));
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Home');
}

/** The owner's first screen: how the store is doing over a range, what is waiting, and what changed. */
export default function HomePage({ loaderData: home }: Route.ComponentProps) {
  const money = (amount: number) => formatMoney(amount, home.currency);
  return (
    <DashboardLayout
      title="Home"
      description="How your store is doing, and what needs you now."
      action={
        <Link to="/" className={secondaryAction}>
          <ExternalLink aria-hidden className="size-4" />
          View your store
        </Link>
      }
    >
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
          <CardEmpty icon={<Lock className="size-6" />} title="Sales and orders are kept for the orders permission">
            Ask the store owner for the orders permission to see sales, orders and the orders waiting to be shipped.
          </CardEmpty>
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
    </DashboardLayout>
  );
}

const inputClass =
  'h-9 rounded-lg border border-neutral-300 bg-white px-2.5 text-sm text-neutral-900 shadow-sm aria-[invalid=true]:border-red-600';

/** The range as a GET form: works without JavaScript, and the address can be bookmarked. */
function RangeForm({ home }: { home: DashboardHomePage }) {
  const err = home.rangeError;
  const errorId = 'range-error';
  const value = err ? home.query.range : home.range.preset;
  const [from, to] = err
    ? [home.query.from, home.query.to]
    : [home.range.from.slice(0, 10), new Date(Date.parse(home.range.to) - 86_400_000).toISOString().slice(0, 10)];
  const field = (name: 'range' | 'from' | 'to') =>
    err?.field === name ? { 'aria-invalid': true, 'aria-describedby': errorId } : {};
  return (
    <Form
      method="get"
      className={`${cardClass} flex flex-wrap items-end gap-3 p-3 sm:p-4`}
      aria-label="Range of the figures"
    >
      <div className="flex flex-col gap-1">
        <label htmlFor="range" className="text-xs font-medium text-neutral-600">
          Date range
        </label>
        <select id="range" name="range" defaultValue={value} key={value} className={inputClass} {...field('range')}>
          {RANGE_PRESETS.map((r) => (
            <option key={r} value={r}>
              {RANGE_LABELS[r]}
            </option>
          ))}
        </select>
      </div>
      <label className="flex flex-col gap-1 text-xs font-medium text-neutral-600">
        From
        <input type="date" name="from" defaultValue={from} key={`f${from}`} className={inputClass} {...field('from')} />
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-neutral-600">
        To
        <input type="date" name="to" defaultValue={to} key={`t${to}`} className={inputClass} {...field('to')} />
      </label>
      <button type="submit" className={secondaryAction}>
        Apply
      </button>
      <p className="w-full text-xs text-neutral-500">
        From and To apply to a custom range (at most {MAX_RANGE_DAYS} days). Days run midnight to midnight UTC; each
        figure is compared with the {home.range.days === 1 ? 'day' : `${home.range.days} days`} before.
      </p>
      {err && (
        <p id={errorId} role="alert" className="w-full text-sm font-medium text-red-700">
          {err.field === 'range' ? 'Date range' : err.field === 'from' ? 'From' : 'To'}: {err.message}. Showing the last
          30 days.
        </p>
      )}
    </Form>
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
    <section aria-label={title} className={`${cardClass} p-3 sm:p-4`}>
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
    <section aria-labelledby="cleanup-notice" className={`${cardClass} flex items-start gap-3 p-3 sm:p-4`}>
      <Broom aria-hidden className="mt-0.5 size-5 shrink-0 text-neutral-500" />
      <div className="min-w-0 text-sm">
        <h2 id="cleanup-notice" className="font-semibold text-neutral-900">
          Unpaid orders released
        </h2>
        <p className="text-neutral-600">
          The clean-up released {released === 1 ? '1 order' : `${released} orders`} whose payment never arrived in the
          last 7 days.{' '}
          <Link to="/manage-store/orders/cleanup" className="font-medium text-neutral-900 underline">
            See what and why
          </Link>
        </p>
      </div>
    </section>
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
        <CardEmpty icon={<BarChart3 className="size-6" />} title="Nothing sold in this range">
          Your best sellers show here, by revenue, once orders are paid.
        </CardEmpty>
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
    <Card
      title="Orders to fulfil"
      flush
      aside={
        count > 0 && (
          <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">{count}</span>
        )
      }
    >
      {orders.length === 0 ? (
        <CardEmpty icon={<PackageCheck className="size-6" />} title="No orders are waiting to be shipped">
          Paid orders show here until they are shipped. Share your store&rsquo;s link to bring in the next one.
        </CardEmpty>
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
        <CardEmpty icon={<Inbox className="size-6" />} title="Nothing is running low">
          Every product has more than {threshold} in stock. Products at {threshold} or fewer show here, so you can
          reorder in time.
        </CardEmpty>
      ) : (
        <ul className="divide-y divide-neutral-100 border-t border-neutral-100">
          {products.map((p) => (
            <li key={p.productId} className="flex items-center justify-between gap-3 px-4 py-2.5">
              <div className="min-w-0">
                <p className="truncate text-sm font-medium text-neutral-900">{p.productName}</p>
                <p className="text-xs text-neutral-500">{p.productId}</p>
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
  if (stock === 0) {
    return (
      <span className="shrink-0 rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800">
        Out of stock
      </span>
    );
  }
  return (
    <span className="shrink-0 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 tabular-nums">
      {stock} left
    </span>
  );
}

function Activity({ activity }: { activity: DashboardHome['activity'] }) {
  return (
    <Card title="Latest activity" flush>
      {!activity.available ? (
        <CardEmpty icon={<History className="size-6" />} title="Activity is kept for the settings permission">
          Every change you and your staff make is recorded, with who made it and when. Ask the store owner for the
          settings permission to see it here.
        </CardEmpty>
      ) : activity.entries.length === 0 ? (
        <CardEmpty icon={<History className="size-6" />} title="No changes yet">
          When you or your staff change the theme, pages, products or orders, it shows here. Start with your{' '}
          <Link to="/manage-store/settings/theme" className="font-medium text-neutral-900 underline">
            theme
          </Link>
          .
        </CardEmpty>
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
