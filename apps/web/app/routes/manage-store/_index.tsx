import type { DashboardHome } from '@app/contracts';
import { formatMoney } from '@app/contracts/client';
import { ExternalLink, History, Inbox, PackageCheck } from 'lucide-react';
import { Link } from 'react-router';
import {
  Card,
  CardEmpty,
  cardClass,
  cardId,
  DashboardLayout,
  secondaryAction,
} from '../../components/manage-store/dashboard-layout';
import { dashboardMeta, dashboardRead, formatDateTime } from '../../lib/dashboard-page';
import type { Route } from './+types/_index';

export async function loader({ context, request }: Route.LoaderArgs) {
  return dashboardRead(request, () => context.api.dashboardHome());
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Home');
}

/** The owner's first screen: the day's takings, what is waiting for them, and what changed. */
export default function DashboardHomePage({ loaderData: home }: Route.ComponentProps) {
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
      <div className="grid grid-cols-2 gap-3 sm:gap-4">
        <Figure label="Sales today" amount={money(home.sales.today.total)} orders={home.sales.today.orders} />
        <Figure
          label="Sales, last 30 days"
          amount={money(home.sales.last30Days.total)}
          orders={home.sales.last30Days.orders}
        />
      </div>
      <p className="-mt-1 text-xs text-neutral-500">
        Paid orders, in {home.currency}, counted by the day they were placed (days run midnight to midnight UTC).
      </p>

      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <ToFulfil home={home} money={money} />
        <LowStock home={home} />
      </div>
      <Activity activity={home.activity} />
    </DashboardLayout>
  );
}

function Figure({ label, amount, orders }: { label: string; amount: string; orders: number }) {
  return (
    <section aria-labelledby={cardId(label)} className={`${cardClass} p-3 sm:p-4`}>
      <h2 id={cardId(label)} className="text-sm font-medium text-neutral-600">
        {label}
      </h2>
      <p className="mt-1 text-xl font-bold tracking-tight break-words text-neutral-900 tabular-nums sm:text-2xl">
        {amount}
      </p>
      <p className="mt-0.5 text-sm text-neutral-600">
        {orders === 0 ? 'No orders' : orders === 1 ? '1 order' : `${orders.toLocaleString('en-US')} orders`}
      </p>
    </section>
  );
}

function ToFulfil({ home, money }: { home: DashboardHome; money: (n: number) => string }) {
  const { count, orders } = home.toFulfil;
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
                  <p className="text-sm font-semibold text-neutral-900">{o.orderId}</p>
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

const ACTIONS: Record<string, string> = {
  create: 'created',
  update: 'changed',
  delete: 'deleted',
  publish: 'published',
};

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
                <span className="font-semibold text-neutral-900">{e.actor.name}</span> {ACTIONS[e.action] ?? e.action}{' '}
                {e.entity} <span className="text-neutral-500">{e.entityId}</span>
                {e.changedFields.length > 0 && (
                  <span className="text-neutral-500"> ({e.changedFields.join(', ')})</span>
                )}
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
