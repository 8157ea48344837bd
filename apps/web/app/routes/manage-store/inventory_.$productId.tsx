import { ArrowLeft, History } from 'lucide-react';
import { data, Link } from 'react-router';
import { Card, CardEmpty, DashboardLayout } from '../../components/manage-store/dashboard-layout';
import { adjustValues, StockAdjustForm, StockLevel } from '../../components/manage-store/stock-adjust-form';
import { FormAlert } from '../../components/ui/form-field';
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
    <DashboardLayout
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
      <FormAlert message={failed && Object.keys(failed.fieldErrors).length === 0 ? failed.message : null} />
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
          <CardEmpty icon={<History className="size-6" />} title="No stock changes yet">
            Orders, cancellations and adjustments will be listed here, newest first.
          </CardEmpty>
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
            <div className="hidden overflow-x-auto border-t border-neutral-100 sm:block">
              <table className="w-full min-w-[36rem] text-left text-sm">
                <caption className="sr-only">Stock history, newest first</caption>
                <thead className="bg-neutral-50 text-xs text-neutral-600">
                  <tr>
                    <th scope="col" className="px-4 py-2 font-medium">
                      When
                    </th>
                    <th scope="col" className="px-2 py-2 font-medium">
                      Reason
                    </th>
                    <th scope="col" className="px-2 py-2 text-right font-medium">
                      Change
                    </th>
                    <th scope="col" className="px-2 py-2 text-right font-medium">
                      Before → after
                    </th>
                    <th scope="col" className="px-2 py-2 font-medium">
                      Who
                    </th>
                    <th scope="col" className="px-4 py-2 font-medium">
                      Note
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-neutral-100">
                  {h.movements.map((m) => (
                    <tr key={m.movementId}>
                      <td className="whitespace-nowrap px-4 py-2 text-neutral-700">
                        <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time>
                      </td>
                      <td className="px-2 py-2 text-neutral-900">{h.reasonLabels[m.reason]}</td>
                      <td
                        className={`px-2 py-2 text-right font-medium tabular-nums ${m.delta < 0 ? 'text-red-700' : 'text-green-700'}`}
                      >
                        {signed(m.delta)}
                      </td>
                      <td className="whitespace-nowrap px-2 py-2 text-right tabular-nums text-neutral-700">
                        {m.before} → {m.after}
                      </td>
                      <td className="px-2 py-2 text-neutral-700">{m.actor.name ?? m.actor.id ?? '—'}</td>
                      <td className="px-4 py-2 text-neutral-700">
                        {m.note}
                        {m.orderId && <span className="block text-xs text-neutral-500">Order {m.orderId}</span>}
                        {m.returnId && <span className="block text-xs text-neutral-500">Return {m.returnId}</span>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
        {(h.nextCursor || h.cursor) && (
          <nav aria-label="Pages" className="flex justify-between gap-3 border-t border-neutral-100 px-4 py-3 text-sm">
            {h.cursor ? (
              <Link to="." className="font-medium underline">
                Newest
              </Link>
            ) : (
              <span />
            )}
            {h.nextCursor && (
              <Link to={`?cursor=${encodeURIComponent(h.nextCursor)}`} className="font-medium underline">
                Older
              </Link>
            )}
          </nav>
        )}
      </Card>
    </DashboardLayout>
  );
}
