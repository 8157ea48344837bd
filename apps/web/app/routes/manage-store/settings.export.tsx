import type { StoreExport } from '@app/contracts';
import { Archive, Download, LoaderCircle } from 'lucide-react';
import { data, useNavigation } from 'react-router';
import { Banner } from '../../components/ui/banner';
import { Button, buttonClass } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { AdminEmptyState } from '../../components/ui/empty-state';
import { JobProgress, useRevalidateWhileRunning } from '../../components/ui/job-progress';
import { AdminPage } from '../../components/ui/page-header';
import { PostForm } from '../../components/ui/post-form';
import { dashboardMeta, dashboardRead, formatDateTime } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/settings.export';

export async function loader({ context, request }: Route.LoaderArgs) {
  return dashboardRead(request, () => context.api.storeExportCard());
}

export async function action({ context }: Route.ActionArgs) {
  const result = await context.api.startStoreExport();
  return data({ result }, { status: result.ok ? 202 : result.status });
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Export store');
}

const active = (job: StoreExport | null) => job?.status === 'pending' || job?.status === 'running';

/** Megabytes with one decimal, or kilobytes for a small store: what a download size reads as. */
function size(bytes: number) {
  return bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1000))} KB`;
}

/**
 * The owner takes the whole store home as one archive (decision 122): built by a job, followed here
 * with its progress, downloaded when done. The same archive imports into an empty store.
 */
export default function ExportStorePage({ loaderData: card, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const result = actionData?.result;
  useActionToast(result);
  const job = card.latest;
  const running = active(job);
  // While the export runs, read its progress again every second (without JavaScript: the Refresh link).
  useRevalidateWhileRunning(running);
  return (
    <AdminPage
      title="Export store"
      description="Download everything your store holds as one archive: products with variants and pictures, categories, pages, banners, theme and settings, customers and their addresses, orders with payments, refunds and returns, reviews, promo codes, subscribers and the activity log."
      primaryAction={
        <PostForm>
          <Button variant="primary" type="submit" disabled={pending || running}>
            {pending || running ? (
              <LoaderCircle aria-hidden className="size-4 animate-spin" />
            ) : (
              <Archive aria-hidden className="size-4" />
            )}
            {pending ? 'Starting…' : running ? 'Exporting…' : 'Export store'}
          </Button>
        </PostForm>
      }
    >
      {result && !result.ok && <Banner>{result.message}</Banner>}
      <Card title="Latest export">
        {!job ? (
          <AdminEmptyState icon={<Archive className="size-6" />} title="No export yet">
            An export is a .tar.gz file with a manifest that lists every file it holds and its checksum. Passwords,
            payment credentials and carts are never included.
          </AdminEmptyState>
        ) : running ? (
          <JobProgress label="Store export" done={job.done} total={job.total} refreshTo="." testId="export-progress">
            {job.status === 'pending'
              ? 'Waiting to start…'
              : `Exporting: ${job.done.toLocaleString('en-US')} of ${job.total.toLocaleString('en-US')} records`}
          </JobProgress>
        ) : job.status === 'succeeded' && job.downloadUrl ? (
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-neutral-700" data-testid="export-done">
              Exported{' '}
              <time dateTime={job.finishedAt ?? ''}>{job.finishedAt ? formatDateTime(job.finishedAt) : ''}</time>:{' '}
              {job.total.toLocaleString('en-US')} records{job.bytes !== null ? `, ${size(job.bytes)}` : ''}.
            </p>
            <a href={job.downloadUrl} download className={buttonClass('secondary')}>
              <Download aria-hidden className="size-4" />
              Download archive
            </a>
          </div>
        ) : (
          <p className="text-sm text-neutral-700" data-testid="export-failed">
            The last export did not finish{job.error ? ` (${job.error})` : ''}. Try again; if it keeps failing, contact
            support.
          </p>
        )}
      </Card>
    </AdminPage>
  );
}
