import type { ProductImport, ProductImportUploadResult } from '@app/contracts';
import {
  CSRF_HEADER,
  PRODUCT_CSV_COLUMN_HELP,
  PRODUCT_CSV_COLUMNS,
  PRODUCT_CSV_REQUIRED,
  PRODUCT_IMPORT_MAX_BYTES,
} from '@app/contracts/client';
import { Download, FileUp, LoaderCircle, Upload } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { data, Link, redirect, useNavigate, useNavigation, useRouteLoaderData } from 'react-router';
import { Banner } from '../../components/ui/banner';
import { Button, ButtonLink, buttonClass } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { DataTable } from '../../components/ui/data-table';
import { Field } from '../../components/ui/field';
import { JobProgress, useRevalidateWhileRunning } from '../../components/ui/job-progress';
import { AdminPage } from '../../components/ui/page-header';
import { PostForm } from '../../components/ui/post-form';
import { dashboardMeta, dashboardRead, formatDateTime } from '../../lib/dashboard-page';
import type { loader as rootLoader } from '../../root';
import type { Route } from './+types/products_.import';

const PATH = '/manage-store/products/import';
const API = '/skulocity/api/v1/catalog/products/import';
const TEMPLATE_URL = `${API}/template.csv`;
const MB = PRODUCT_IMPORT_MAX_BYTES / 1024 / 1024;

export async function loader({ context, request }: Route.LoaderArgs) {
  const id = new URL(request.url).searchParams.get('import');
  return dashboardRead(request, async () => ({ current: id ? await context.api.productImport(id) : null }));
}

export async function action({ request, context }: Route.ActionArgs) {
  return dashboardRead(request, async () => {
    const form = await request.formData();
    if (form.get('intent') === 'run') {
      const id = String(form.get('importId') ?? '');
      const started = await context.api.runProductImport(id);
      if (started.ok) return redirect(`${PATH}?import=${encodeURIComponent(started.import.importId)}`);
      return data({ upload: null, message: started.message }, { status: started.status });
    }
    const file = form.get('file');
    if (!file || typeof file === 'string' || file.size === 0) {
      const upload: ProductImportUploadResult = {
        ok: false,
        status: 400,
        message: 'The file cannot be imported.',
        fieldErrors: { file: 'Choose a CSV file to import.' },
      };
      return data({ upload, message: null }, { status: 400 });
    }
    const upload = await context.api.uploadProductImport(new Uint8Array(await file.arrayBuffer()), file.name);
    if (upload.ok) return redirect(`${PATH}?import=${encodeURIComponent(upload.import.importId)}`);
    return data({ upload, message: null }, { status: upload.status });
  });
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Import products');
}

const running = (i: ProductImport | null) => i?.status === 'queued' || i?.status === 'running';
const n = (x: number) => x.toLocaleString('en-US');

/** Import products from a CSV file: the format, upload, dry run, run with progress, and the error report. */
export default function ImportProductsPage({ loaderData, actionData }: Route.ComponentProps) {
  const current = loaderData.current;
  // While the run goes, read its progress again every second (without JavaScript: the page refreshes itself).
  useRevalidateWhileRunning(running(current));

  return (
    <AdminPage
      title="Import products"
      description="Add or update many products at once from a CSV file, the same format the product export writes. Nothing changes until you confirm the dry run."
      secondaryActions={
        <a href={TEMPLATE_URL} className={buttonClass('secondary')} download>
          <Download aria-hidden className="size-4" />
          Download template
        </a>
      }
    >
      <p className="text-sm">
        <Link to="/manage-store/products" className="font-medium text-neutral-700 underline underline-offset-2">
          ← Products
        </Link>
      </p>
      {actionData?.message && <Banner>{actionData.message}</Banner>}
      {current === null ? (
        <UploadCard result={actionData?.upload ?? null} />
      ) : current.status === 'checked' ? (
        <DryRun imp={current} />
      ) : running(current) ? (
        <Progress imp={current} />
      ) : (
        <Result imp={current} />
      )}
      <FormatCard />
    </AdminPage>
  );
}

function UploadCard({ result }: { result: ProductImportUploadResult | null }) {
  const navigation = useNavigation();
  const navigate = useNavigate();
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fieldError = error ?? (result && !result.ok ? (result.fieldErrors.file ?? null) : null);
  const pending = sending || (navigation.state !== 'idle' && navigation.formMethod === 'POST');

  // With JavaScript the file goes straight to the API as a stream (up to the full limit); without,
  // the form posts to this page's action.
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    const input = event.currentTarget.elements.namedItem('file') as HTMLInputElement | null;
    const file = input?.files?.[0];
    if (!file) return;
    event.preventDefault();
    if (file.size > PRODUCT_IMPORT_MAX_BYTES) {
      setError(`The file is larger than ${MB} MB; split it in parts.`);
      return;
    }
    setSending(true);
    setError(null);
    try {
      const res = await fetch(`${API}?fileName=${encodeURIComponent(file.name)}`, {
        method: 'POST',
        body: file,
        headers: { 'content-type': 'text/csv', [CSRF_HEADER]: root?.csrfToken ?? '' },
      });
      const body = (await res.json().catch(() => null)) as {
        data?: ProductImport;
        errors?: string[];
        message?: string;
      } | null;
      if (res.ok && body?.data) {
        navigate(`${PATH}?import=${encodeURIComponent(body.data.importId)}`);
        return;
      }
      const message = body?.errors?.[0] ?? body?.message ?? 'The file could not be uploaded. Try again.';
      setError(message.replace(/^file: /, ''));
    } catch {
      setError('The file could not be uploaded: check your connection and try again.');
    } finally {
      setSending(false);
    }
  }

  return (
    <Card title="Upload a CSV file">
      <PostForm encType="multipart/form-data" onSubmit={onSubmit} className="space-y-3">
        <Field
          id="file"
          label="CSV file"
          error={fieldError}
          testId="error-file"
          hint={`UTF-8, with or without BOM, up to ${MB} MB. Products are matched by SKU.`}
        >
          {(a11y) => (
            // The kit has no file picker: the browser's own, its button drawn in the kit's look.
            <input
              id="file"
              name="file"
              type="file"
              accept=".csv,text/csv"
              required
              {...a11y}
              className="block w-full text-sm text-neutral-700 file:mr-3 file:h-9 file:rounded-lg file:border file:border-neutral-300 file:bg-white file:px-3 file:text-sm file:font-semibold file:text-neutral-800 hover:file:bg-neutral-50"
            />
          )}
        </Field>
        <Button type="submit" variant="primary" disabled={pending}>
          {pending ? (
            <LoaderCircle aria-hidden className="size-4 animate-spin" />
          ) : (
            <Upload aria-hidden className="size-4" />
          )}
          {pending ? 'Checking…' : 'Upload and check'}
        </Button>
      </PostForm>
    </Card>
  );
}

function Figures({ items }: { items: [string, number][] }) {
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
      {items.map(([label, value]) => (
        <div key={label} className="rounded-lg bg-neutral-50 px-3 py-2">
          <dt className="text-xs text-neutral-500">{label}</dt>
          <dd
            className="text-base font-semibold text-neutral-900 tabular-nums"
            data-testid={`count-${label.toLowerCase()}`}
          >
            {n(value)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function DryRun({ imp }: { imp: ProductImport }) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const d = imp.dryRun;
  const applied = d.created + d.updated;
  return (
    <>
      <Card title="Dry run" aside={<span className="text-xs text-neutral-500">{imp.fileName}</span>}>
        <p className="mb-3 text-sm text-neutral-700" role="status">
          Checked {n(d.rows)} rows. Nothing has been changed yet.
        </p>
        <Figures
          items={[
            ['Created', d.created],
            ['Updated', d.updated],
            ['Unchanged', d.unchanged],
            ['Refused', d.refused],
          ]}
        />
        <div className="mt-4 flex flex-wrap items-center gap-2">
          <PostForm>
            <input type="hidden" name="intent" value="run" />
            <input type="hidden" name="importId" value={imp.importId} />
            <Button type="submit" variant="primary" disabled={pending || applied === 0}>
              {pending ? (
                <LoaderCircle aria-hidden className="size-4 animate-spin" />
              ) : (
                <FileUp aria-hidden className="size-4" />
              )}
              {applied === 0 ? 'Nothing to import' : `Import ${n(applied)} row${applied === 1 ? '' : 's'}`}
            </Button>
          </PostForm>
          <ButtonLink to={PATH}>Choose another file</ButtonLink>
        </div>
        {d.refused > 0 && (
          <p className="mt-3 text-sm text-neutral-600">
            Refused rows are skipped and change nothing; the report after the import lists each one.
          </p>
        )}
      </Card>
      {d.firstRefused.length > 0 && (
        <Card
          title="Refused rows"
          aside={
            <span className="text-xs text-neutral-500">
              first {d.firstRefused.length} of {n(d.refused)}
            </span>
          }
          flush
        >
          <RowTable
            head={['Row', 'SKU', 'Column', 'Problem']}
            rows={d.firstRefused.flatMap((r) =>
              r.errors.map((e, i) => [String(r.row), i === 0 ? (r.sku ?? '') : '', e.column, e.message]),
            )}
            testId="refused-rows"
          />
        </Card>
      )}
      {d.firstUpdated.length > 0 && (
        <Card
          title="Updates"
          aside={
            <span className="text-xs text-neutral-500">
              first {d.firstUpdated.length} of {n(d.updated)}
            </span>
          }
          flush
        >
          <RowTable
            head={['Row', 'SKU', 'Changes']}
            rows={d.firstUpdated.map((r) => [String(r.row), r.sku, r.changes.join(', ')])}
            testId="updated-rows"
          />
        </Card>
      )}
      {d.firstCreated.length > 0 && (
        <Card
          title="New products and variants"
          aside={
            <span className="text-xs text-neutral-500">
              first {d.firstCreated.length} of {n(d.created)}
            </span>
          }
          flush
        >
          <RowTable
            head={['Row', 'SKU', 'Name']}
            rows={d.firstCreated.map((r) => [String(r.row), r.sku, r.name])}
            testId="created-rows"
          />
        </Card>
      )}
      {(d.firstLeftOut ?? []).length > 0 && (
        <Card
          title="Variants not in the file"
          aside={
            <span className="text-xs text-neutral-500">
              first {(d.firstLeftOut ?? []).length} of {n(d.leftOut ?? 0)}
            </span>
          }
          flush
        >
          <p className="px-4 pt-3 text-sm text-neutral-600">
            These variants of products in the file are kept as they are: an import never removes a variant.
          </p>
          <RowTable
            head={['Row', 'Product', 'Variant', 'SKU']}
            rows={(d.firstLeftOut ?? []).map((r) => [String(r.row), r.product, r.title, r.sku])}
            testId="left-out-rows"
          />
        </Card>
      )}
    </>
  );
}

function RowTable({ head, rows, testId }: { head: string[]; rows: string[][]; testId: string }) {
  const keyed = rows.map((cells, i) => ({ key: String(i), cells }));
  return (
    <div data-testid={testId}>
      <DataTable
        label={head.join(', ')}
        rows={keyed}
        rowKey={(r) => r.key}
        minWidth="0"
        columns={head.map((h, j) => ({
          header: h,
          className: j === head.length - 1 ? 'min-w-48 align-top' : 'whitespace-nowrap align-top',
          cell: (r: (typeof keyed)[number]) => r.cells[j],
        }))}
      />
    </div>
  );
}

function Progress({ imp }: { imp: ProductImport }) {
  const total = imp.run.rows;
  const done = imp.run.rowsDone;
  return (
    <Card title="Importing">
      {/* Without JavaScript the page reads the progress again by itself. */}
      <noscript>
        <meta httpEquiv="refresh" content="2" />
      </noscript>
      <JobProgress
        label="Import progress"
        done={done}
        total={total}
        testId="import-progress"
        hint="You can leave this page; the import goes on."
        refreshTo={`${PATH}?import=${imp.importId}`}
      >
        {imp.status === 'queued' ? 'Waiting to start…' : `Imported ${n(done)} of ${n(total)} rows`}
      </JobProgress>
    </Card>
  );
}

function Result({ imp }: { imp: ProductImport }) {
  const failed = imp.status === 'failed';
  return (
    <Card title={failed ? 'Import stopped' : 'Import finished'}>
      <p className="mb-3 text-sm text-neutral-700" role="status" data-testid="import-result">
        {failed
          ? (imp.error ?? 'The import stopped.')
          : `Finished ${formatDateTime(imp.updatedAt)}: ${n(imp.run.created + imp.run.updated)} products created or updated.`}
      </p>
      <Figures
        items={[
          ['Created', imp.run.created],
          ['Updated', imp.run.updated],
          ['Unchanged', imp.run.unchanged],
          ['Refused', imp.run.refused],
        ]}
      />
      <div className="mt-4 flex flex-wrap gap-2">
        {imp.run.refused > 0 && (
          <a href={imp.errorReportUrl} className={buttonClass('primary')} download>
            <Download aria-hidden className="size-4" />
            Download error report ({n(imp.run.refused)} rows)
          </a>
        )}
        <ButtonLink to={PATH}>Import another file</ButtonLink>
      </div>
    </Card>
  );
}

function FormatCard() {
  return (
    <Card title="File format">
      <div className="space-y-3 text-sm text-neutral-700">
        <p>
          One row per variant (a product without options is one row), with a header row naming the columns (any order).
          A product’s columns are filled on its first row; the rows under it with them empty are its other variants.
          Required:{' '}
          {PRODUCT_CSV_REQUIRED.map((c, i) => (
            <span key={c}>
              {i > 0 && ', '}
              <code className="rounded bg-neutral-100 px-1">{c}</code>
            </span>
          ))}
          . Columns you leave out keep their values on update. Cells with commas, quotes or line breaks go in double
          quotes, with quotes doubled (<code className="rounded bg-neutral-100 px-1">"Lamp, 60""</code>
          ), as spreadsheets save them.
        </p>
        <div className="overflow-hidden rounded-lg border border-neutral-200">
          <DataTable
            label="Columns of the CSV file"
            rows={PRODUCT_CSV_COLUMNS}
            rowKey={(c) => c}
            minWidth="0"
            columns={[
              {
                header: 'Column',
                className: 'whitespace-nowrap align-top',
                cell: (c) => (
                  <>
                    <code className="font-medium text-neutral-900">{c}</code>
                    {PRODUCT_CSV_REQUIRED.includes(c) && (
                      <span className="ml-1 text-xs text-neutral-500">required</span>
                    )}
                  </>
                ),
              },
              { header: 'What it holds', className: 'align-top', cell: (c) => PRODUCT_CSV_COLUMN_HELP[c] },
            ]}
          />
        </div>
        <p className="text-xs text-neutral-500">Example rows (a lamp, then a pendant in two finishes):</p>
        {/* Wrapped rather than scrolled: a scrolling box would need its own tab stop to be read by keyboard. */}
        <pre className="rounded-lg bg-neutral-50 p-3 text-xs break-all whitespace-pre-wrap text-neutral-800">
          {
            'name,option1_name,option1_value,sku,list_price,sale_price,stock\n"Brass Floor Lamp, 60""",,,LAMP-001,129.00,99.50,12\nPendant,Finish,Brass,PEND-BRASS,89.00,,4\n,,Black,PEND-BLACK,79.00,,0'
          }
        </pre>
      </div>
    </Card>
  );
}
