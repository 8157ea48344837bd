import type { ProductBulkFormResult, ProductBulkJob, ProductListRow } from '@app/contracts';
import {
  adminProductDefaultDir,
  formatMoney,
  PRODUCT_LIST_COLUMN_LABELS,
  PRODUCT_LIST_COLUMNS,
  PRODUCT_LIST_SORT_LABELS,
  PRODUCT_LIST_SORTS,
  PRODUCT_STATUS_LABELS,
  type ProductListColumn,
  parseProductListColumns,
  STOCK_ADJUST_REASON_LABELS,
} from '@app/contracts/client';
import { Columns3, Download, ImageIcon, Plus, Search, Tag } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { data, Form, Link, redirect, useLocation, useNavigation } from 'react-router';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Banner } from '../../components/ui/banner';
import { Button, ButtonLink, buttonClass } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Checkbox } from '../../components/ui/checkbox';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { type Column, DataTable, useRowSelection } from '../../components/ui/data-table';
import { AdminEmptyState } from '../../components/ui/empty-state';
import { JobProgress, useRevalidateWhileRunning } from '../../components/ui/job-progress';
import { AdminPage } from '../../components/ui/page-header';
import { cursorHref, Pagination } from '../../components/ui/pagination';
import { PostForm } from '../../components/ui/post-form';
import { SelectField, type SelectOption } from '../../components/ui/select-field';
import { TextField } from '../../components/ui/text-field';
import { useToast } from '../../components/ui/toast';
import { dashboardMeta, dashboardRead, formatDateTime } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/products._index';

/** The columns a staff member chose, remembered in this browser for a year (decision 036). */
const COLUMNS_COOKIE = 'sf_product_columns';
const FILTER_KEYS = ['q', 'category', 'brand', 'status', 'stock', 'sort', 'dir'] as const;

function cookieValue(request: Request, name: string): string | null {
  const header = request.headers.get('cookie') ?? '';
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  return dashboardRead(request, async () => {
    const url = new URL(request.url);
    const params = Object.fromEntries(url.searchParams);
    // The sort menu sends "name:asc"; the list takes sort and dir.
    if (params.order) {
      const [sort, dir] = params.order.split(':');
      params.sort = sort ?? '';
      params.dir = dir ?? '';
      delete params.order;
    }
    const jobId = url.searchParams.get('job');
    const [list, job] = await Promise.all([
      context.api.productListPage(params),
      jobId ? context.api.productBulkJob(jobId.slice(0, 64)) : Promise.resolve(null),
    ]);
    return { ...list, job, columns: parseProductListColumns(cookieValue(request, COLUMNS_COOKIE)) };
  });
}

export async function action({ request, context }: Route.ActionArgs) {
  return dashboardRead(request, async () => {
    const form = await request.formData();
    if (form.get('intent') === 'columns') {
      const chosen = PRODUCT_LIST_COLUMNS.filter((c) => form.getAll('column').includes(c));
      return data(
        { result: { ok: true, message: 'Columns saved.', jobId: null, result: null } as ProductBulkFormResult },
        {
          headers: {
            'set-cookie': `${COLUMNS_COOKIE}=${chosen.join(',')}; Path=/manage-store; Max-Age=31536000; SameSite=Lax`,
          },
        },
      );
    }
    const fields: Record<string, string> = {};
    for (const [k, v] of form.entries()) if (typeof v === 'string' && k !== 'productId') fields[k] = v.slice(0, 200);
    const ids = form.getAll('productId').map(String).slice(0, 1000);
    const result = await context.api.productBulkAction(fields, ids);
    if (result.ok && result.jobId) {
      // A large change runs in the background: the page follows its progress (?job=).
      const url = new URL(request.url);
      url.searchParams.delete('cursor');
      url.searchParams.set('job', result.jobId);
      throw redirect(`${url.pathname}${url.search}`);
    }
    return data({ result, values: fields }, { status: result.ok ? 200 : result.status });
  });
}

/** The columns cookie set by the action reaches the browser on a document post as on a data request. */
export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  return actionHeaders.has('set-cookie') ? actionHeaders : loaderHeaders;
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Products');
}

const running = (job: ProductBulkJob | null) => job?.status === 'pending' || job?.status === 'running';
const STATUS_TONE: Record<string, BadgeTone> = { ACTIVE: 'success', DRAFT: 'info', ARCHIVED: 'neutral' };
/** The bulk bar's actions, grouped as the menu shows them. */
const BULK_ACTIONS: SelectOption[] = [
  { value: '', label: 'Choose an action…' },
  { value: 'status:ACTIVE', label: 'Set as active', group: 'Status' },
  { value: 'status:DRAFT', label: 'Set as draft', group: 'Status' },
  { value: 'status:ARCHIVED', label: 'Archive', group: 'Status' },
  { value: 'category.add', label: 'Add to category…', group: 'Categories' },
  { value: 'category.remove', label: 'Remove from category…', group: 'Categories' },
  { value: 'price', label: 'Change price…', group: 'Price and stock' },
  { value: 'stock', label: 'Adjust stock…', group: 'Price and stock' },
  { value: 'delete', label: 'Delete (archive if ordered)' },
];
/** The sort menu: each sort one way and the other, named for what comes first. */
const SORT_OPTIONS: SelectOption[] = PRODUCT_LIST_SORTS.flatMap((s) => [
  {
    value: `${s}:desc`,
    label: `${PRODUCT_LIST_SORT_LABELS[s]} ${s === 'name' ? '(Z–A)' : s === 'updated' || s === 'created' ? '(newest)' : '(highest)'}`,
  },
  {
    value: `${s}:asc`,
    label: `${PRODUCT_LIST_SORT_LABELS[s]} ${s === 'name' ? '(A–Z)' : s === 'updated' || s === 'created' ? '(oldest)' : '(lowest)'}`,
  },
]);

/** The store's products: search, filter, sort, choose some or all, change them at once, export. */
export default function ProductsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { query, page, categories, brands, columns, job } = loaderData;
  const result = actionData && 'result' in actionData ? actionData.result : null;
  useActionToast(result);
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  // The selection belongs to the rows on screen: another page, or the rows after a change, start afresh.
  const selection = useRowSelection(page.rows.map((r) => r.productId));
  const selected = selection.selected;
  const clearSelection = selection.clear;
  // A new page of data (after a bulk change) starts the selection afresh.
  useEffect(() => clearSelection(), [page]);
  const [kind, setKind] = useState('');
  const [scope, setScope] = useState<'selected' | 'all'>('selected');
  // Without JavaScript every field of the bulk form is there and Apply always posts; with it, only the
  // chosen action's fields show and Apply waits for a choice.
  const [js, setJs] = useState(false);
  useEffect(() => setJs(true), []);
  const needs = (k: string) => !js || kind === k;
  const show = new Set<ProductListColumn>(columns);

  const filters = FILTER_KEYS.flatMap((k) => (query[k] ? [[k, String(query[k])] as const] : []));
  const filterQuery = new URLSearchParams(filters as [string, string][]).toString();
  const filtered = filters.some(([k]) => k !== 'sort' && k !== 'dir');
  const fieldError = (f: string) => (result && !result.ok ? (result.fieldErrors as Record<string, string>)[f] : null);
  const sortValue = `${query.sort}:${query.dir ?? adminProductDefaultDir(query.sort)}`;

  return (
    <AdminPage
      title="Products"
      primaryAction={
        <ButtonLink to="/manage-store/products/new" variant="primary">
          <Plus aria-hidden className="size-4" />
          Add product
        </ButtonLink>
      }
    >
      <BulkJobProgress job={job} />
      <Card flush>
        <Form
          method="get"
          className="flex flex-wrap items-end gap-2 px-3 pt-3 pb-2"
          role="search"
          aria-label="Filter products"
        >
          <TextField
            id="products-q"
            className="flex-[1_1_12rem]"
            label="Search products"
            labelHidden
            type="search"
            name="q"
            defaultValue={query.q ?? ''}
            placeholder="Search by name, SKU or brand"
            prefix={<Search className="size-4" />}
          />
          <Select
            label="Filter by status"
            name="status"
            value={query.status}
            options={Object.entries(PRODUCT_STATUS_LABELS)}
            any="Any status"
          />
          <Select
            label="Filter by stock"
            name="stock"
            value={query.stock}
            options={[
              ['in', 'In stock'],
              ['low', `Low (≤ ${page.lowStockThreshold})`],
              ['out', 'Out of stock'],
            ]}
            any="Any stock"
          />
          <Select
            label="Filter by category"
            name="category"
            value={query.category}
            options={categories.map((c) => [c.id, c.name])}
            any="Any category"
          />
          <Select
            label="Filter by brand"
            name="brand"
            value={query.brand}
            options={brands.map((b) => [b, b])}
            any="Any brand"
          />
          <SelectField
            id="products-order"
            label="Sort by"
            labelHidden
            name="order"
            defaultValue={sortValue}
            options={SORT_OPTIONS}
          />
          <Button type="submit">Filter</Button>
          {filtered && (
            <Link
              to="."
              className="h-9 px-1 text-sm leading-9 font-medium text-neutral-700 underline underline-offset-2"
            >
              Clear
            </Link>
          )}
        </Form>
        {/* Outside the filter form: the columns menu is a form of its own (forms cannot nest). */}
        <div className="flex flex-wrap justify-end gap-2 px-3 pb-2">
          <a
            href={`/api/v1/product-list/export.csv${filterQuery ? `?${filterQuery}` : ''}`}
            download
            className={buttonClass()}
          >
            <Download aria-hidden className="size-4" />
            Export
          </a>
          <ColumnsMenu columns={show} />
        </div>

        <PostForm
          id="bulk"
          className="border-t border-neutral-100 bg-neutral-50 px-3 py-2"
          aria-label="Change products"
        >
          {FILTER_KEYS.map((k) =>
            query[k] ? <input key={k} type="hidden" name={`f_${k}`} value={String(query[k])} /> : null,
          )}
          <fieldset className="flex flex-wrap items-end gap-2">
            <legend className="sr-only">Change the chosen products</legend>
            <p className="mr-1 h-9 text-sm leading-9 text-neutral-700" aria-live="polite" data-testid="selected-count">
              {selected.size ? `${selected.size} selected` : 'None selected'}
            </p>
            <SelectField
              id="bulk-scope"
              label="Which products"
              labelHidden
              name="scope"
              value={scope}
              onChange={(e) => setScope(e.currentTarget.value as 'selected')}
              options={[
                { value: 'selected', label: 'Selected products' },
                { value: 'all', label: `All ${filtered ? 'filtered ' : ''}products` },
              ]}
            />
            <SelectField
              id="bulk-action"
              label="Action"
              labelHidden
              name="action"
              value={kind}
              onChange={(e) => setKind(e.currentTarget.value)}
              aria-invalid={fieldError('action') ? true : undefined}
              options={BULK_ACTIONS}
            />
            {(needs('category.add') || needs('category.remove')) && (
              <SelectField
                id="bulk-category"
                label="Category"
                labelHidden
                name="categoryId"
                defaultValue=""
                options={[
                  { value: '', label: 'Choose a category…' },
                  ...categories.map((c) => ({ value: c.id, label: c.name })),
                ]}
              />
            )}
            {needs('price') && (
              <>
                <SelectField
                  id="bulk-price-field"
                  label="Which price"
                  labelHidden
                  name="priceField"
                  defaultValue="list"
                  options={[
                    { value: 'list', label: 'Price' },
                    { value: 'sale', label: 'Sale price' },
                  ]}
                />
                <SelectField
                  id="bulk-price-mode"
                  label="Price change"
                  labelHidden
                  name="priceMode"
                  defaultValue="percent"
                  options={[
                    { value: 'percent', label: 'Change by %' },
                    { value: 'amount', label: 'Change by amount' },
                    { value: 'set', label: 'Set to' },
                  ]}
                />
              </>
            )}
            {needs('stock') && (
              <>
                <SelectField
                  id="bulk-stock-mode"
                  label="Stock change"
                  labelHidden
                  name="stockMode"
                  defaultValue="delta"
                  options={[
                    { value: 'delta', label: 'Add (or − to remove)' },
                    { value: 'set', label: 'Set to' },
                  ]}
                />
                <SelectField
                  id="bulk-reason"
                  label="Reason"
                  labelHidden
                  name="reason"
                  defaultValue="RECEIVED"
                  options={Object.entries(STOCK_ADJUST_REASON_LABELS).map(([value, label]) => ({ value, label }))}
                />
              </>
            )}
            {(needs('price') || needs('stock')) && (
              <TextField
                id="bulk-value"
                className="w-32"
                label="Value"
                labelHidden
                name="value"
                inputMode="decimal"
                autoComplete="off"
                placeholder={kind === 'price' ? 'e.g. -10 or 12.50' : 'e.g. 20'}
                aria-invalid={fieldError('value') ? true : undefined}
                aria-describedby={fieldError('value') ? 'bulk-value-error' : undefined}
              />
            )}
            {(needs('price') || needs('stock')) && (
              // Variants (decision 112): prices move on every variant, stock is counted per variant.
              <p className="basis-full text-xs text-neutral-600" data-testid="bulk-variants-hint">
                {needs('price') && 'Prices: every variant of a product changes by the same rule. '}
                {needs('stock') && 'Stock: a product with several variants is left as it is; count each in Inventory.'}
              </p>
            )}
            {js && kind === 'delete' && (scope === 'all' || selected.size > 0) ? (
              // Deleting asks first; without JavaScript Apply posts the choice as the other actions do.
              <ConfirmDialog
                trigger="Delete…"
                title={
                  scope === 'all'
                    ? `Delete all ${filtered ? 'filtered ' : ''}products?`
                    : `Delete ${selected.size === 1 ? 'the selected product' : `${selected.size} selected products`}?`
                }
                confirm={
                  <Button type="submit" variant="critical" disabled={busy}>
                    {busy ? 'Deleting…' : 'Delete products'}
                  </Button>
                }
              >
                Products with orders are archived instead, so their orders keep them.
              </ConfirmDialog>
            ) : (
              <Button type="submit" disabled={js && (busy || !kind || (scope === 'selected' && selected.size === 0))}>
                {busy ? 'Applying…' : 'Apply'}
              </Button>
            )}
          </fieldset>
          {result && !result.ok && (
            <div className="mt-2" id="bulk-value-error">
              <Banner>{Object.values(result.fieldErrors as Record<string, string>)[0] ?? result.message}</Banner>
            </div>
          )}
        </PostForm>

        {page.rows.length === 0 ? (
          <AdminEmptyState icon={<Tag className="size-6" />} title={filtered ? 'No products match' : 'No products yet'}>
            {filtered ? (
              <>
                Try other words or fewer filters.{' '}
                <Link to="." className="font-medium underline underline-offset-2">
                  Clear filters
                </Link>
              </>
            ) : (
              'Add your first product to start selling.'
            )}
          </AdminEmptyState>
        ) : (
          <DataTable
            label="Products"
            rows={page.rows}
            rowKey={(r) => r.productId}
            minWidth="0"
            columns={productColumns(show, page.lowStockThreshold)}
            selection={{ ...selection, name: 'productId', form: 'bulk', rowLabel: (r) => r.name }}
          />
        )}
        <Pagination
          summary={`${page.rows.length} product${page.rows.length === 1 ? '' : 's'} on this page`}
          next={page.nextCursor && cursorHref(new URLSearchParams(filterQuery), page.nextCursor)}
          first={query.cursor ? cursorHref(new URLSearchParams(filterQuery), null) : null}
        />
      </Card>
    </AdminPage>
  );
}

function Select({
  label,
  name,
  value,
  options,
  any,
}: {
  label: string;
  name: string;
  value: string | undefined;
  options: (readonly [string, string])[];
  any: string;
}) {
  return (
    <SelectField
      id={`products-${name}`}
      className="max-w-[11rem]"
      label={label}
      labelHidden
      name={name}
      defaultValue={value ?? ''}
      options={[{ value: '', label: any }, ...options.map(([v, l]) => ({ value: v, label: l }))]}
    />
  );
}

/**
 * The table's columns: the product's name always, the others as the staff member chose. On a phone
 * the chosen status, price and stock fold in under the name (as Shopify's app lists products) and
 * the other columns wait for a wider screen: the rows fit 375 px whole.
 */
function productColumns(show: Set<ProductListColumn>, low: number): Column<ProductListRow>[] {
  const phoneOnly = (r: ProductListRow) =>
    (show.has('status') || show.has('price') || show.has('stock')) && (
      <span className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-neutral-700 sm:hidden">
        {show.has('status') && statusBadge(r)}
        {show.has('price') && <span className="tabular-nums">{priceText(r)}</span>}
        {show.has('stock') && (
          <span className={stockTone(r, low)}>
            {r.stock === 0 ? 'Out of stock' : `${r.stock.toLocaleString('en-US')} in stock`}
            {r.variantCount !== undefined && ` for ${r.variantCount} variants`}
          </span>
        )}
      </span>
    );
  const cols: (Column<ProductListRow> | false)[] = [
    show.has('image') && {
      header: <span className="sr-only">Picture</span>,
      className: 'w-12',
      cell: (r) =>
        r.image ? (
          <img
            src={r.image}
            alt=""
            width={32}
            height={32}
            loading="lazy"
            className="size-8 rounded border border-neutral-200 object-cover"
          />
        ) : (
          <span className="flex size-8 items-center justify-center rounded border border-neutral-200 bg-neutral-50 text-neutral-500">
            <ImageIcon aria-hidden className="size-4" />
          </span>
        ),
    },
    {
      header: 'Product',
      rowHeader: true,
      className: 'max-w-[14rem] sm:max-w-[16rem]',
      cell: (r) => (
        <>
          <Link
            to={`/manage-store/products/${encodeURIComponent(r.productId)}`}
            className="block truncate font-medium hover:underline"
          >
            {r.name}
          </Link>
          {phoneOnly(r)}
        </>
      ),
    },
    show.has('status') && {
      header: 'Status',
      className: 'hidden sm:table-cell',
      cell: statusBadge,
    },
    show.has('sku') && {
      header: 'SKU',
      className: 'hidden max-w-[9rem] truncate font-mono text-xs text-neutral-600 sm:table-cell',
      cell: (r) => r.sku,
    },
    show.has('brand') && {
      header: 'Brand',
      className: 'hidden max-w-[8rem] truncate sm:table-cell',
      cell: (r) => r.brand ?? '—',
    },
    show.has('categories') && {
      header: 'Categories',
      className: 'hidden max-w-[10rem] truncate sm:table-cell',
      cell: (r) =>
        `${r.categories.join(', ') || '—'}${r.categoryCount > r.categories.length ? ` +${r.categoryCount - r.categories.length}` : ''}`,
    },
    show.has('price') && {
      header: 'Price',
      align: 'end',
      className: 'hidden tabular-nums whitespace-nowrap sm:table-cell',
      cell: priceText,
    },
    show.has('stock') && {
      header: 'Stock',
      align: 'end',
      className: 'hidden tabular-nums sm:table-cell',
      cell: (r) => (
        <span className={stockTone(r, low)}>
          {r.stock === 0 ? 'Out' : r.stock.toLocaleString('en-US')}
          {r.variantCount !== undefined && (
            <span className="block text-xs font-normal text-neutral-600">{r.variantCount} variants</span>
          )}
        </span>
      ),
    },
    show.has('updated') && {
      header: 'Updated',
      className: 'hidden whitespace-nowrap text-xs text-neutral-600 sm:table-cell',
      cell: (r) => <time dateTime={r.updatedAt}>{formatDateTime(r.updatedAt)}</time>,
    },
  ];
  return cols.filter((c): c is Column<ProductListRow> => Boolean(c));
}

const statusBadge = (r: ProductListRow) => (
  <Badge tone={STATUS_TONE[r.status]}>{PRODUCT_STATUS_LABELS[r.status]}</Badge>
);

/** Variants at different prices: the range, cheapest (sale price if any) to dearest. */
const priceText = (r: ProductListRow) =>
  r.priceMax !== undefined ? (
    `${formatMoney(r.salePrice ?? r.listPrice, r.currency)} – ${formatMoney(r.priceMax, r.currency)}`
  ) : r.salePrice != null ? (
    <>
      {formatMoney(r.salePrice, r.currency)}{' '}
      <s className="text-xs text-neutral-600">{formatMoney(r.listPrice, r.currency)}</s>
    </>
  ) : (
    formatMoney(r.listPrice, r.currency)
  );

const stockTone = (r: ProductListRow, low: number) =>
  r.stock === 0 ? 'font-medium text-red-700' : r.stock <= low ? 'font-medium text-amber-800' : undefined;

/** The columns to show, as a small menu (a native disclosure: keyboard and no-JavaScript friendly). */
function ColumnsMenu({ columns }: { columns: Set<ProductListColumn> }) {
  const ref = useRef<HTMLDetailsElement>(null);
  return (
    <details ref={ref} className="relative">
      <summary className={`${buttonClass()} list-none`}>
        <Columns3 aria-hidden className="size-4" />
        Columns
      </summary>
      <div className="absolute right-0 z-20 mt-1 w-52 rounded-lg border border-neutral-200 bg-white p-3 shadow-lg">
        <PostForm onSubmit={() => ref.current?.removeAttribute('open')}>
          <input type="hidden" name="intent" value="columns" />
          <fieldset>
            <legend className="mb-1 text-xs font-semibold text-neutral-700">Show columns</legend>
            {PRODUCT_LIST_COLUMNS.map((c) => (
              <div key={c} className="py-0.5">
                <Checkbox
                  id={`column-${c}`}
                  name="column"
                  value={c}
                  defaultChecked={columns.has(c)}
                  label={PRODUCT_LIST_COLUMN_LABELS[c]}
                />
              </div>
            ))}
          </fieldset>
          <Button type="submit" className="mt-2 w-full">
            Save columns
          </Button>
        </PostForm>
      </div>
    </details>
  );
}

/** A background change's progress, read again every second while it runs (without JavaScript: Refresh). */
function BulkJobProgress({ job }: { job: ProductBulkJob | null }) {
  const location = useLocation();
  const toast = useToast();
  const active = running(job);
  const announced = useRef<string | null>(null);
  useRevalidateWhileRunning(active);
  useEffect(() => {
    if (job?.status === 'succeeded' && announced.current !== job.jobId) {
      announced.current = job.jobId;
      toast('success', `Done: ${job.result?.changed ?? 0} products changed.`);
    }
  }, [job, toast]);
  if (!job) return null;
  return (
    <Card title="Bulk change">
      {active ? (
        <JobProgress
          label="Bulk change"
          done={job.done}
          total={job.total}
          testId="bulk-progress"
          refreshTo={`${location.pathname}${location.search}`}
          reloadDocument
        >
          {job.status === 'pending' ? 'Waiting to start…' : `Changing products: ${job.done} of ${job.total} done`}
        </JobProgress>
      ) : job.status === 'succeeded' ? (
        <p role="status" className="text-sm text-neutral-700" data-testid="bulk-done">
          Done: {job.result?.changed ?? 0} of {job.total} products changed
          {job.result?.archivedInstead
            ? `, ${job.result.archivedInstead} archived instead of deleted (they have orders)`
            : ''}
          .{job.result?.notes.length ? ` ${job.result.notes.join('; ')}.` : ''}
        </p>
      ) : (
        <p role="alert" className="text-sm text-red-800">
          {job.error ?? 'The change failed.'} {job.done} of {job.total} were changed.
        </p>
      )}
    </Card>
  );
}
