import { Boxes, History, LoaderCircle } from 'lucide-react';
import { data, Form, Link, useNavigation } from 'react-router';
import { StockLevel } from '../../components/manage-store/stock-adjust-form';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { DataTable } from '../../components/ui/data-table';
import { AdminEmptyState } from '../../components/ui/empty-state';
import { AdminPage } from '../../components/ui/page-header';
import { cursorHref, Pagination } from '../../components/ui/pagination';
import { PostForm } from '../../components/ui/post-form';
import { SaveBar } from '../../components/ui/save-bar';
import { SelectField } from '../../components/ui/select-field';
import { NumberField, TextField } from '../../components/ui/text-field';
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

/**
 * One action, by intent: the page's counts, or the store's low-stock threshold.
 *
 * Counts: one form for the whole page, a number per row ("on hand") and one reason and note for the
 * batch. A row is a variant (`count.<variantId>`, its product in `product.<variantId>`; a product
 * with one variant has one row, keyed by the product id). A row whose number changed becomes one
 * adjustment of that variant by the difference from the count the page showed (`was.<variantId>`), so a
 * sale between loading the page and saving is not undone; a number that is not a count goes to the
 * server as a count, which names what is wrong. Rows are saved one by one: the refused ones come back
 * with their error and what was typed, the others are saved.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  if (form.get('intent') === 'threshold') {
    const value = String(form.get('lowStockThreshold') ?? '').slice(0, 20);
    // A refusal of access (a session that ended, a staff member without catalog) is the guard's page.
    const result = await dashboardRead(request, () => context.api.saveLowStockThreshold({ lowStockThreshold: value }));
    return data(
      { intent: 'threshold' as const, result, values: { lowStockThreshold: value }, rows: {} as RowAnswers },
      { status: result.ok ? 200 : result.status },
    );
  }
  const reason = String(form.get('reason') ?? '').slice(0, 40);
  const note = String(form.get('note') ?? '').slice(0, 600);
  const rows: RowAnswers = {};
  const savedProducts = new Set<string>();
  let formError: string | null = null;
  for (const [key, raw] of form.entries()) {
    if (!key.startsWith('count.') || typeof raw !== 'string') continue;
    const variantId = key.slice('count.'.length, 70);
    const productId = String(form.get(`product.${variantId}`) ?? variantId).slice(0, 64);
    const typed = raw.trim().slice(0, 20);
    const was = Number(form.get(`was.${variantId}`));
    if (typed === String(was)) continue;
    const count = /^\d{1,9}$/.test(typed) ? Number(typed) : null;
    const fields =
      count === null || !Number.isSafeInteger(was)
        ? { reason, mode: 'set', quantity: typed, note, variantId }
        : { reason, mode: 'delta', quantity: String(count - was), note, variantId };
    const result = await dashboardRead(request, () => context.api.adjustStock(productId, fields));
    if (result.ok) savedProducts.add(productId);
    else if (result.status === 401 || result.status === 403) {
      // A refusal of access is the whole form's answer, with its own status, not a row's error.
      return data(
        {
          intent: 'counts' as const,
          result: { ok: false as const, message: result.message },
          values: { reason, note },
          rows: {} as RowAnswers,
        },
        { status: result.status },
      );
    } else {
      rows[variantId] = { typed, error: result.fieldErrors.quantity ?? null };
      formError ??=
        result.fieldErrors.reason ?? result.fieldErrors.note ?? (result.fieldErrors.quantity ? null : result.message);
    }
  }
  const refused = Object.keys(rows).length;
  const saved = savedProducts.size;
  const result =
    refused > 0 || formError
      ? {
          ok: false as const,
          message:
            formError ??
            `${refused} count${refused === 1 ? ' was' : 's were'} not saved: see the rows marked.${saved ? ` ${saved} saved.` : ''}`,
        }
      : {
          ok: true as const,
          message: saved ? `Stock saved for ${saved} product${saved === 1 ? '' : 's'}.` : 'No counts changed.',
        };
  return data({ intent: 'counts' as const, result, values: { reason, note }, rows }, { status: result.ok ? 200 : 422 });
}

type RowAnswers = Record<string, { typed: string; error: string | null }>;

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Inventory');
}

const SORTS = [
  { value: 'stock-asc', label: 'Fewest in stock first' },
  { value: 'stock-desc', label: 'Most in stock first' },
];

const FILTERS = [
  { value: '', label: 'All stock' },
  { value: 'in', label: 'In stock' },
  { value: 'low', label: 'Low stock' },
  { value: 'out', label: 'Out of stock' },
];

/** "Pendant · Brass / 3000 K", or the product's name alone for its only variant. */
const rowName = (item: { productName: string; variantTitle: string }) =>
  item.variantTitle ? `${item.productName} · ${item.variantTitle}` : item.productName;

/** The history page of a row: its variant's, or the product's for its only variant. */
const historyHref = (item: { productId: string; variantId: string | null; variantTitle: string }) =>
  `/manage-store/inventory/${encodeURIComponent(item.productId)}${
    item.variantTitle && item.variantId ? `?variant=${encodeURIComponent(item.variantId)}` : ''
  }`;

/** Stock per variant: find it, count it (a number per row, one save), see its history; the low-stock line. */
export default function InventoryPage({ loaderData: page, actionData }: Route.ComponentProps) {
  useActionToast(actionData?.intent === 'counts' && actionData.result.ok ? actionData.result : null);
  const navigation = useNavigation();
  const { query } = page;
  const filtered = Boolean(query.q || query.stock);
  const filters = { q: query.q, stock: query.stock, sort: query.sort };
  const counts = actionData?.intent === 'counts' ? actionData : null;
  const refused = counts && !counts.result.ok ? counts : null;
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'counts';
  const searching = navigation.state === 'loading' && navigation.location?.pathname === '/manage-store/inventory';
  // A new answer or page resets the boxes to what the page shows.
  const formKey = `${page.items.map((i) => `${i.variantId}:${i.stock}`).join(',')}:${refused ? 'refused' : ''}`;
  return (
    <AdminPage
      title="Inventory"
      description="Stock of every product, a row per variant. Type the new counts, give a reason, and save once; each change is kept in the product’s stock history."
    >
      {refused && <Banner>{refused.result.message}</Banner>}
      <Card title="Products" flush>
        <Form method="get" className="flex flex-wrap items-end gap-2 px-4 pb-3" role="search">
          <TextField
            className="min-w-48 flex-1"
            id="inventory-q"
            name="q"
            type="search"
            label="Search by name or SKU"
            defaultValue={query.q ?? ''}
          />
          <SelectField
            id="inventory-stock"
            name="stock"
            label="Stock"
            defaultValue={query.stock ?? ''}
            options={FILTERS}
          />
          <SelectField
            id="inventory-sort"
            name="sort"
            label="Sort"
            defaultValue={query.sort ?? 'stock-asc'}
            options={SORTS}
          />
          <Button type="submit">
            {searching && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
            Show
          </Button>
        </Form>
        {page.items.length === 0 ? (
          <AdminEmptyState
            icon={<Boxes className="size-6" />}
            title={filtered ? 'No products match' : 'No products yet'}
          >
            {filtered ? (
              <Link to="/manage-store/inventory" className="underline underline-offset-2">
                Show all products
              </Link>
            ) : (
              'Products you add show here with their stock.'
            )}
          </AdminEmptyState>
        ) : (
          <PostForm key={formKey} aria-label="Stock counts" preventScrollReset noValidate>
            <div className="px-4 pb-3">
              <SaveBar busy={saving} value="counts" saveLabel="Save counts">
                <SelectField
                  id="counts-reason"
                  name="reason"
                  label="Reason"
                  labelHidden
                  defaultValue={counts?.values.reason || 'CORRECTION'}
                  options={page.adjustReasons}
                />
                <TextField
                  id="counts-note"
                  name="note"
                  label="Note"
                  labelHidden
                  placeholder="Note (optional)"
                  maxLength={500}
                  defaultValue={counts && !counts.result.ok ? counts.values.note : ''}
                />
              </SaveBar>
            </div>
            <DataTable
              label="Products and their stock"
              rows={page.items}
              rowKey={(i) => i.variantId ?? i.productId}
              testId={(i) => `stock-row-${i.variantId ?? i.productId}`}
              // On a phone the stock level and the history link fold in under the name, so the count
              // to type is beside it, not a sideways scroll away.
              minWidth="0"
              columns={[
                {
                  header: 'Product',
                  rowHeader: true,
                  cell: (item) => (
                    <span className="flex min-w-0 items-center gap-3">
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
                      <span className="min-w-0 max-w-[11rem] sm:max-w-none">
                        <span className="block truncate font-medium">{rowName(item)}</span>
                        <span className="block text-xs text-neutral-600">
                          SKU {item.sku}
                          {item.status !== 'ACTIVE' && ` · ${item.status === 'DRAFT' ? 'Draft' : 'Archived'}`}
                          {!item.enabled && ' · Variant disabled'}
                        </span>
                        <span className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 sm:hidden">
                          <StockLevel stock={item.stock} threshold={page.lowStockThreshold} />
                          <HistoryLink item={item} />
                        </span>
                      </span>
                    </span>
                  ),
                },
                {
                  header: 'Stock',
                  className: 'hidden sm:table-cell',
                  cell: (item) => <StockLevel stock={item.stock} threshold={page.lowStockThreshold} />,
                },
                {
                  header: 'On hand',
                  className: 'w-24 sm:w-32',
                  cell: (item) => {
                    const key = item.variantId ?? item.productId;
                    const mine = refused?.rows[key];
                    return (
                      <>
                        <input type="hidden" name={`was.${key}`} value={item.stock} />
                        <input type="hidden" name={`product.${key}`} value={item.productId} />
                        <NumberField
                          id={`count-${key}`}
                          name={`count.${key}`}
                          label={`On hand: ${rowName(item)}`}
                          labelHidden
                          defaultValue={mine ? mine.typed : String(item.stock)}
                          error={mine?.error ?? (mine ? 'Not saved' : null)}
                        />
                      </>
                    );
                  },
                },
                {
                  header: <span className="sr-only">History</span>,
                  align: 'end',
                  className: 'hidden sm:table-cell',
                  cell: (item) => <HistoryLink item={item} />,
                },
              ]}
            />
          </PostForm>
        )}
        <Pagination
          next={page.nextCursor && `/manage-store/inventory${cursorHref(filters, page.nextCursor)}`}
          first={query.cursor ? `/manage-store/inventory${cursorHref(filters, null)}` : null}
        />
      </Card>
      <Threshold threshold={page.lowStockThreshold} answer={actionData} />
    </AdminPage>
  );
}

function HistoryLink({ item }: { item: Parameters<typeof historyHref>[0] & Parameters<typeof rowName>[0] }) {
  return (
    <Link
      to={historyHref(item)}
      className="inline-flex items-center gap-1 text-sm font-medium underline-offset-2 hover:underline"
      aria-label={`Stock history of ${rowName(item)}`}
    >
      <History aria-hidden className="size-4" />
      History
    </Link>
  );
}

function Threshold({ threshold, answer }: { threshold: number; answer: Route.ComponentProps['actionData'] }) {
  const mine = answer?.intent === 'threshold' ? answer : null;
  useActionToast(mine?.result.ok ? mine.result : null);
  const error = mine && !mine.result.ok ? mine.result.fieldErrors.lowStockThreshold : undefined;
  const value = mine && !mine.result.ok ? mine.values.lowStockThreshold : String(threshold);
  return (
    <Card title="Low stock">
      <PostForm className="flex flex-wrap items-start gap-2" preventScrollReset noValidate>
        <input type="hidden" name="intent" value="threshold" />
        <NumberField
          key={value}
          className="w-72 max-w-full"
          name="lowStockThreshold"
          label="Low-stock threshold"
          required
          defaultValue={value}
          error={error}
          hint="Products (each variant on its own) with this many or fewer left count as low: Home lists them and shoppers see “Only N left”. 0 turns it off."
        />
        <Button type="submit" className="sm:mt-[1.625rem]">
          Save
        </Button>
      </PostForm>
    </Card>
  );
}
