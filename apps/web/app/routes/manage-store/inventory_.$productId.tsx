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
  const url = new URL(request.url);
  const cursor = url.searchParams.get('cursor')?.slice(0, 300) ?? null;
  // One variant's count and books (`?variant=`), or the whole product's.
  const variant = url.searchParams.get('variant')?.slice(0, 64) || null;
  const history = await dashboardRead(request, () => context.api.stockHistoryPage(params.productId, cursor, variant));
  if (!history) throw data({ message: 'No such product in this store.' }, { status: 404 });
  return { ...history, cursor, variant };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData();
  const values = adjustValues(form);
  const result = await dashboardRead(request, () => context.api.adjustStock(params.productId, values));
  return data({ result, values }, { status: result.ok ? 200 : result.status });
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  const p = loaderData?.product;
  return dashboardMeta(
    matches,
    p ? `Stock of ${p.variantTitle ? `${p.productName} · ${p.variantTitle}` : p.productName}` : 'Stock history',
  );
}

const signed = (n: number) => (n > 0 ? `+${n}` : `−${Math.abs(n)}`);

/** This page for one variant, or for the whole product (`null`), keeping nothing else of the address. */
const variantHref = (variantId: string | null) => (variantId ? `?variant=${encodeURIComponent(variantId)}` : '.');

/**
 * A product's stock and its books, newest first: who, when, before, after, why, and which variant.
 * A product with several variants lists them with their counts; choosing one shows its count, its
 * books and the form that adjusts it (the whole product has no one count to adjust).
 */
export default function StockHistoryPage({ loaderData: h, actionData }: Route.ComponentProps) {
  useActionToast(actionData?.result);
  const failed = actionData && !actionData.result.ok ? actionData.result : null;
  const several = h.variants.length > 1;
  const chosen = h.product.variantId !== null;
  const shownName = h.product.variantTitle
    ? `${h.product.productName} · ${h.product.variantTitle}`
    : h.product.productName;
  const pageQuery = (cursor: string | null) => {
    const q = new URLSearchParams();
    if (h.variant) q.set('variant', h.variant);
    if (cursor) q.set('cursor', cursor);
    const text = q.toString();
    return text ? `?${text}` : '.';
  };
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
          {chosen ? ` · SKU ${h.product.sku}` : ` · ${h.variants.length} variants`}
        </>
      }
    >
      {failed && Object.keys(failed.fieldErrors).length === 0 && <Banner>{failed.message}</Banner>}
      <Card
        title={several && chosen ? `Stock of ${h.product.variantTitle}` : 'Stock'}
        aside={<StockLevel stock={h.product.stock} threshold={h.lowStockThreshold} />}
      >
        <p className="mb-3 text-sm text-neutral-700">
          <span className="text-2xl font-semibold tabular-nums text-neutral-900" data-testid="stock-now">
            {h.product.stock}
          </span>{' '}
          {chosen ? 'in stock' : `in stock across ${h.variants.length} variants`}
        </p>
        {chosen ? (
          <StockAdjustForm
            productId={h.product.productId}
            variantId={several ? (h.product.variantId ?? undefined) : undefined}
            productName={shownName}
            reasons={h.adjustReasons}
            errors={failed?.fieldErrors}
            values={failed ? actionData?.values : undefined}
          />
        ) : (
          <p className="text-sm text-neutral-700">
            Choose a variant below to adjust its stock and see its own history.
          </p>
        )}
      </Card>
      {several && (
        <Card
          title="Variants"
          flush
          aside={
            chosen ? (
              <Link to={variantHref(null)} className="text-sm font-medium underline-offset-2 hover:underline">
                All variants
              </Link>
            ) : undefined
          }
        >
          <DataTable
            label="Variants and their stock"
            minWidth="18rem"
            rows={h.variants}
            rowKey={(v) => v.variantId}
            columns={[
              {
                header: 'Variant',
                rowHeader: true,
                cell: (v) => {
                  const current = v.variantId === h.product.variantId;
                  return (
                    <span className="block min-w-0">
                      <Link
                        to={variantHref(v.variantId)}
                        aria-current={current ? 'page' : undefined}
                        className={`underline underline-offset-2 ${current ? 'font-semibold' : 'font-medium'}`}
                      >
                        {v.title}
                      </Link>
                      {current && <span className="text-xs text-neutral-600"> · shown</span>}
                      {/* The SKU under the title keeps the table two columns wide at 375 px. */}
                      <span className="block text-xs text-neutral-600">
                        SKU {v.sku}
                        {!v.enabled && ' · Disabled'}
                      </span>
                    </span>
                  );
                },
              },
              {
                header: 'Stock',
                align: 'end',
                cell: (v) => <StockLevel stock={v.stock} threshold={h.lowStockThreshold} />,
              },
            ]}
          />
        </Card>
      )}
      <Card title={several && chosen ? `History of ${h.product.variantTitle}` : 'History'} flush>
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
                    <span className="font-medium text-neutral-900">
                      {h.reasonLabels[m.reason]}
                      {several && !chosen && m.variantTitle && (
                        <span className="font-normal text-neutral-700"> · {m.variantTitle}</span>
                      )}
                    </span>
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
                  ...(several && !chosen
                    ? [{ header: 'Variant', cell: (m: (typeof h.movements)[number]) => m.variantTitle || '—' }]
                    : []),
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
          next={h.nextCursor && pageQuery(h.nextCursor)}
          first={h.cursor ? pageQuery(null) : null}
        />
      </Card>
    </AdminPage>
  );
}
