import { ArrowLeft, History } from 'lucide-react';
import { data, Link } from 'react-router';
import { adjustValues, StockAdjustForm, StockLevel } from '../../components/manage-store/stock-adjust-form';
import { Banner } from '../../components/ui/banner';
import { Card } from '../../components/ui/card';
import { DataTable } from '../../components/ui/data-table';
import { AdminEmptyState } from '../../components/ui/empty-state';
import { AdminPage } from '../../components/ui/page-header';
import { Pagination } from '../../components/ui/pagination';
import { dashboardMeta, dashboardRead, formatDateTime } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/inventory_.$productId';

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const cursor = new URL(request.url).searchParams.get('cursor')?.slice(0, 300) ?? null;
  const history = await dashboardRead(request, () => context.api.stockHistoryPage(params.productId, cursor));
  if (!history) throw data({ message: 'No such product in this store.' }, { status: 404 });
  return { ...history, cursor };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData();
  const values = adjustValues(form);
  const result = await dashboardRead(request, () => context.api.adjustStock(params.productId, values));
  return data({ result, values }, { status: result.ok ? 200 : result.status });
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return dashboardMeta(matches, loaderData ? `Stock of ${loaderData.product.productName}` : 'Stock history');
}

const signed = (n: number) => (n > 0 ? `+${n}` : `−${Math.abs(n)}`);

/** A product's stock and its books, newest first: who, when, before, after, why. */
export default function StockHistoryPage({ loaderData: h, actionData }: Route.ComponentProps) {
  useActionToast(actionData?.result);
  const failed = actionData && !actionData.result.ok ? actionData.result : null;
  return (
    <AdminPage
      title={h.product.productName}
      description={
        <>
          <Link
            to="/manage-store/inventory"
            className="inline-flex items-center gap-1 font-medium text-neutral-700 underline-offset-2 hover:underline"
          >
            <ArrowLeft aria-hidden className="size-4" /> Inventory
          </Link>{' '}
          · SKU {h.product.sku}
        </>
      }
    >
      {failed && Object.keys(failed.fieldErrors).length === 0 && <Banner>{failed.message}</Banner>}
      <Card title="Stock" aside={<StockLevel stock={h.product.stock} threshold={h.lowStockThreshold} />}>
        <p className="mb-3 text-sm text-neutral-700">
          <span className="text-2xl font-semibold tabular-nums text-neutral-900" data-testid="stock-now">
            {h.product.stock}
          </span>{' '}
          in stock
        </p>
        <StockAdjustForm
          productId={h.product.productId}
          productName={h.product.productName}
          reasons={h.adjustReasons}
          errors={failed?.fieldErrors}
          values={failed ? actionData?.values : undefined}
        />
      </Card>
      <Card title="History" flush>
        {h.movements.length === 0 ? (
          <AdminEmptyState icon={<History className="size-6" />} title="No stock changes yet">
            Orders, cancellations and adjustments will be listed here, newest first.
          </AdminEmptyState>
        ) : (
          <>
            {/* Narrow screens: one line per change, stacked; wide ones: the table. */}
            <ul
              className="divide-y divide-neutral-100 border-t border-neutral-100 sm:hidden"
              aria-label="Stock history"
            >
              {h.movements.map((m) => (
                <li key={m.movementId} className="space-y-0.5 px-4 py-2.5 text-sm">
                  <div className="flex items-baseline justify-between gap-2">
                    <span className="font-medium text-neutral-900">{h.reasonLabels[m.reason]}</span>
                    <span className={`font-medium tabular-nums ${m.delta < 0 ? 'text-red-700' : 'text-green-700'}`}>
                      {signed(m.delta)}{' '}
                      <span className="font-normal text-neutral-600">
                        ({m.before} → {m.after})
                      </span>
                    </span>
                  </div>
                  <p className="text-xs text-neutral-600">
                    <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time>
                    {` · ${m.actor.name ?? m.actor.id ?? 'Unknown'}`}
                    {m.orderId && ` · Order ${m.orderId}`}
                    {m.returnId && ` · Return ${m.returnId}`}
                  </p>
                  {m.note && <p className="text-neutral-700">{m.note}</p>}
                </li>
              ))}
            </ul>
            <div className="hidden sm:block">
              <DataTable
                label="Stock history, newest first"
                rows={h.movements}
                rowKey={(m) => m.movementId}
                columns={[
                  {
                    header: 'When',
                    className: 'whitespace-nowrap text-neutral-700',
                    cell: (m) => <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time>,
                  },
                  { header: 'Reason', cell: (m) => h.reasonLabels[m.reason] },
                  {
                    header: 'Change',
                    align: 'end',
                    className: 'font-medium tabular-nums',
                    cell: (m) => (
                      <span className={m.delta < 0 ? 'text-red-700' : 'text-green-700'}>{signed(m.delta)}</span>
                    ),
                  },
                  {
                    header: 'Before → after',
                    align: 'end',
                    className: 'whitespace-nowrap tabular-nums text-neutral-700',
                    cell: (m) => `${m.before} → ${m.after}`,
                  },
                  { header: 'Who', className: 'text-neutral-700', cell: (m) => m.actor.name ?? m.actor.id ?? '—' },
                  {
                    header: 'Note',
                    className: 'text-neutral-700',
                    cell: (m) => (
                      <>
                        {m.note}
                        {m.orderId && <span className="block text-xs text-neutral-500">Order {m.orderId}</span>}
                        {m.returnId && <span className="block text-xs text-neutral-500">Return {m.returnId}</span>}
                      </>
                    ),
                  },
                ]}
              />
            </div>
          </>
        )}
        <Pagination
          label="History pages"
          next={h.nextCursor && `?cursor=${encodeURIComponent(h.nextCursor)}`}
          first={h.cursor ? '.' : null}
        />
      </Card>
    </AdminPage>
  );
}
