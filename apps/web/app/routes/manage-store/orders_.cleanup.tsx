import type { CleanupRun } from '@app/contracts';
import { orderHref } from '@app/contracts/client';
import { Broom } from 'lucide-react';
import { Link } from 'react-router';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Card } from '../../components/ui/card';
import { AdminEmptyState } from '../../components/ui/empty-state';
import { AdminPage } from '../../components/ui/page-header';
import { dashboardMeta, dashboardRead, formatDateTime } from '../../lib/dashboard-page';
import type { Route } from './+types/orders_.cleanup';

export async function loader({ context, request }: Route.LoaderArgs) {
  return dashboardRead(request, () => context.api.ordersCleanup());
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Unpaid-order clean-up');
}

const ACTION: Record<CleanupRun['orders'][number]['action'], { text: string; tone: BadgeTone }> = {
  cancelled: { text: 'Cancelled, stock released', tone: 'neutral' },
  paid: { text: 'Completed, payment found', tone: 'success' },
  left: { text: 'Left for the next run', tone: 'warning' },
};

/** What the unpaid-order clean-up (the `orders.sweep-stuck` job) did in each run, and why. */
export default function OrdersCleanupPage({ loaderData: cleanup }: Route.ComponentProps) {
  return (
    <AdminPage
      title="Unpaid-order clean-up"
      description={
        <>
          Every night, and shortly after the store restarts, orders still waiting for payment {cleanup.afterMinutes}{' '}
          minutes after they were placed are settled: completed if the payment provider took the money, otherwise
          cancelled and their stock and promo code released.
        </>
      }
    >
      {cleanup.runs.length === 0 ? (
        <Card>
          <AdminEmptyState icon={<Broom className="size-6" />} title="Nothing has been released yet">
            No unpaid order has needed it so far. When a payment never comes back, the order shows here with what the
            clean-up did with it.
            {cleanup.idleRuns > 0 && ` The last ${cleanup.idleRuns} runs found nothing to do.`}
          </AdminEmptyState>
        </Card>
      ) : (
        <>
          {cleanup.runs.map((run) => (
            <Run key={run.jobId} run={run} />
          ))}
          {cleanup.idleRuns > 0 && (
            <p className="text-sm text-neutral-600">
              {cleanup.idleRuns === 1 ? 'One other run' : `${cleanup.idleRuns} other runs`} found nothing to do.
            </p>
          )}
        </>
      )}
      <p className="text-sm text-neutral-600">
        <Link to="/manage-store/orders" className="font-medium text-neutral-900 underline">
          Back to orders
        </Link>
      </p>
    </AdminPage>
  );
}

function Run({ run }: { run: CleanupRun }) {
  const title = `Run of ${formatDateTime(run.at)}`;
  return (
    <Card
      title={title}
      flush
      aside={
        run.status === 'failed' ? (
          <Badge tone="critical">Failed</Badge>
        ) : (
          <span className="text-xs text-neutral-500">
            {run.orders.length === 1 ? '1 order' : `${run.orders.length} orders`}
          </span>
        )
      }
    >
      <ul className="divide-y divide-neutral-100 border-t border-neutral-100">
        {run.orders.map((o) => (
          <li
            key={`${o.orderId}:${o.action}`}
            className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1 px-4 py-2.5"
          >
            <div className="min-w-0">
              <Link to={orderHref(o.orderId)} className="text-sm font-semibold text-neutral-900 hover:underline">
                {o.orderId}
              </Link>
              <p className="text-sm text-neutral-600">Why: {o.why}</p>
            </div>
            <Badge tone={ACTION[o.action].tone}>{ACTION[o.action].text}</Badge>
          </li>
        ))}
        {run.errors.map((e) => (
          <li key={e} className="px-4 py-2.5 text-sm text-red-800">
            Not settled, tried again next run: {e}
          </li>
        ))}
      </ul>
    </Card>
  );
}
