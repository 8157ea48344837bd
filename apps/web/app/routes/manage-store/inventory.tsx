import { Boxes, History, LoaderCircle } from 'lucide-react';
import { data, Form, Link, useNavigation } from 'react-router';
import { Card, CardEmpty, DashboardLayout, secondaryAction } from '../../components/manage-store/dashboard-layout';
import { adjustValues, StockAdjustForm, StockLevel } from '../../components/manage-store/stock-adjust-form';
import { FormAlert } from '../../components/ui/form-field';
import { PostForm } from '../../components/ui/post-form';
import { dashboardMeta, dashboardRead } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/inventory';

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const get = (k: string) => url.searchParams.get(k)?.slice(0, 300) ?? undefined;
  return dashboardRead(request, () =>
    context.api.inventoryPage({ q: get('q'), stock: get('stock'), sort: get('sort'), cursor: get('cursor') }),
  );
}

/** One action, by intent: a row's adjustment, or the store's low-stock threshold. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  if (form.get('intent') === 'threshold') {
    const value = String(form.get('lowStockThreshold') ?? '').slice(0, 20);
    // A refusal of access (a session that ended, a staff member without catalog) is the guard's page.
    const result = await dashboardRead(request, () => context.api.saveLowStockThreshold({ lowStockThreshold: value }));
    return data(
      { intent: 'threshold' as const, productId: null, result, values: { lowStockThreshold: value } },
      { status: result.ok ? 200 : result.status },
    );
  }
  const productId = String(form.get('productId') ?? '').slice(0, 64);
  const values = adjustValues(form);
  const result = await dashboardRead(request, () => context.api.adjustStock(productId, values));
  return data({ intent: 'adjust' as const, productId, result, values }, { status: result.ok ? 200 : result.status });
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Inventory');
}

const FILTERS = [
  { value: '', label: 'All stock' },
  { value: 'in', label: 'In stock' },
  { value: 'low', label: 'Low stock' },
  { value: 'out', label: 'Out of stock' },
];

/** Stock per product: find it, adjust it with a reason, see its history; the store's low-stock line. */
export default function InventoryPage({ loaderData: page, actionData }: Route.ComponentProps) {
  useActionToast(actionData?.result);
  const navigation = useNavigation();
  const { query } = page;
  const filtered = Boolean(query.q || query.stock);
  const next = new URLSearchParams();
  if (query.q) next.set('q', query.q);
  if (query.stock) next.set('stock', query.stock);
  if (query.sort) next.set('sort', query.sort);
  const first = next.toString();
  if (page.nextCursor) next.set('cursor', page.nextCursor);
  const adjustAnswer = actionData?.intent === 'adjust' ? actionData : null;
  const failedRow = adjustAnswer && !adjustAnswer.result.ok ? adjustAnswer : null;
  const searching = navigation.state === 'loading' && navigation.location?.pathname === '/manage-store/inventory';
  return (
    <DashboardLayout
      title="Inventory"
      description="Stock of every product. Adjust it with a reason; each change is kept in the product’s stock history."
    >
      <FormAlert
        message={
          failedRow && !failedRow.result.ok && Object.keys(failedRow.result.fieldErrors).length === 0
            ? failedRow.result.message
            : null
        }
      />
      <Card title="Products" flush>
        <Form method="get" className="flex flex-wrap items-end gap-2 px-4 pb-3" role="search">
          <div className="flex min-w-48 flex-1 flex-col">
            <label htmlFor="inventory-q" className="mb-1 text-xs font-medium text-neutral-600">
              Search by name or SKU
            </label>
            <input
              id="inventory-q"
              name="q"
              type="search"
              defaultValue={query.q ?? ''}
              className="h-9 rounded-lg border border-neutral-300 px-2.5 text-sm focus:outline-none focus:ring-2 focus:ring-neutral-300"
            />
          </div>
          <div className="flex flex-col">
            <label htmlFor="inventory-stock" className="mb-1 text-xs font-medium text-neutral-600">
              Stock
            </label>
            <select
              id="inventory-stock"
              name="stock"
              defaultValue={query.stock ?? ''}
              className="h-9 rounded-lg border border-neutral-300 bg-white px-2.5 text-sm"
            >
              {FILTERS.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col">
            <label htmlFor="inventory-sort" className="mb-1 text-xs font-medium text-neutral-600">
              Sort
            </label>
            <select
              id="inventory-sort"
              name="sort"
              defaultValue={query.sort ?? 'stock-asc'}
              className="h-9 rounded-lg border border-neutral-300 bg-white px-2.5 text-sm"
            >
              <option value="stock-asc">Fewest in stock first</option>
              <option value="stock-desc">Most in stock first</option>
            </select>
          </div>
          <button type="submit" className={secondaryAction}>
            {searching && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
            Show
          </button>
        </Form>
        {page.items.length === 0 ? (
          <CardEmpty icon={<Boxes className="size-6" />} title={filtered ? 'No products match' : 'No products yet'}>
            {filtered ? (
              <Link to="/manage-store/inventory" className="underline underline-offset-2">
                Show all products
              </Link>
            ) : (
              'Products you add show here with their stock.'
            )}
          </CardEmpty>
        ) : (
          <ul className="divide-y divide-neutral-100 border-t border-neutral-100" aria-label="Products and their stock">
            {page.items.map((item) => {
              const mine = failedRow?.productId === item.productId && !failedRow.result.ok ? failedRow : null;
              return (
                <li key={item.productId} className="space-y-2 px-4 py-3" data-testid={`stock-row-${item.productId}`}>
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <div className="flex min-w-0 items-center gap-3">
                      {item.imageUrl ? (
                        <img
                          src={item.imageUrl}
                          alt=""
                          width={36}
                          height={36}
                          loading="lazy"
                          className="size-9 shrink-0 rounded-md border border-neutral-200 object-cover"
                        />
                      ) : (
                        <span
                          aria-hidden
                          className="size-9 shrink-0 rounded-md border border-neutral-200 bg-neutral-50"
                        />
                      )}
                      <div className="min-w-0">
                        <p className="truncate text-sm font-medium text-neutral-900">{item.productName}</p>
                        <p className="text-xs text-neutral-500">
                          SKU {item.sku}
                          {item.status !== 'ACTIVE' && ` · ${item.status === 'DRAFT' ? 'Draft' : 'Archived'}`}
                        </p>
                      </div>
                    </div>
                    <div className="flex items-center gap-3">
                      <StockLevel stock={item.stock} threshold={page.lowStockThreshold} />
                      <Link
                        to={`/manage-store/inventory/${encodeURIComponent(item.productId)}`}
                        className="inline-flex items-center gap-1 text-sm font-medium text-neutral-700 underline-offset-2 hover:underline"
                        aria-label={`Stock history of ${item.productName}`}
                      >
                        <History aria-hidden className="size-4" />
                        History
                      </Link>
                    </div>
                  </div>
                  <StockAdjustForm
                    productId={item.productId}
                    productName={item.productName}
                    reasons={page.adjustReasons}
                    errors={mine && !mine.result.ok ? mine.result.fieldErrors : undefined}
                    values={mine ? mine.values : undefined}
                  />
                </li>
              );
            })}
          </ul>
        )}
        {(page.nextCursor || query.cursor) && (
          <nav aria-label="Pages" className="flex justify-between gap-3 border-t border-neutral-100 px-4 py-3 text-sm">
            {query.cursor ? (
              <Link to={`/manage-store/inventory${first ? `?${first}` : ''}`} className="font-medium underline">
                First page
              </Link>
            ) : (
              <span />
            )}
            {page.nextCursor && (
              <Link to={`/manage-store/inventory?${next.toString()}`} className="font-medium underline">
                Next page
              </Link>
            )}
          </nav>
        )}
      </Card>
      <Threshold threshold={page.lowStockThreshold} answer={actionData} />
    </DashboardLayout>
  );
}

function Threshold({ threshold, answer }: { threshold: number; answer: Route.ComponentProps['actionData'] }) {
  const mine = answer?.intent === 'threshold' ? answer : null;
  const error = mine && !mine.result.ok ? mine.result.fieldErrors.lowStockThreshold : undefined;
  const value = mine && !mine.result.ok ? mine.values.lowStockThreshold : String(threshold);
  return (
    <Card title="Low stock">
      <PostForm className="flex flex-wrap items-end gap-2" preventScrollReset>
        <input type="hidden" name="intent" value="threshold" />
        <div className="flex flex-col">
          <label htmlFor="lowStockThreshold" className="mb-1 text-sm font-medium text-neutral-800">
            Low-stock threshold
          </label>
          <input
            id="lowStockThreshold"
            name="lowStockThreshold"
            inputMode="numeric"
            required
            defaultValue={value}
            key={value}
            aria-invalid={error ? true : undefined}
            aria-describedby="lowStockThreshold-hint"
            className={`h-9 w-28 rounded-lg border px-2.5 text-sm tabular-nums ${error ? 'border-red-600' : 'border-neutral-300'}`}
          />
        </div>
        <button type="submit" className={secondaryAction}>
          Save
        </button>
        <p id="lowStockThreshold-hint" className="basis-full text-sm text-neutral-600">
          {error ? (
            <span className="font-medium text-red-700" data-testid="error-lowStockThreshold">
              {error}
            </span>
          ) : (
            'Products with this many or fewer left count as low: Home lists them and shoppers see “Only N left”. 0 turns it off.'
          )}
        </p>
      </PostForm>
    </Card>
  );
}
