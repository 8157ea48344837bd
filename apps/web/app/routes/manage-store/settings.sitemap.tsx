import type { SitemapJob, SitemapStore } from '@app/contracts';
import { ExternalLink, FileSearch, LoaderCircle, RefreshCw } from 'lucide-react';
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
import type { Route } from './+types/settings.sitemap';

export async function loader({ context, request }: Route.LoaderArgs) {
  return dashboardRead(request, () => context.api.sitemapStatus());
}

export async function action({ context }: Route.ActionArgs) {
  const result = await context.api.generateSitemap();
  return data({ result }, { status: result.ok ? 202 : result.status });
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Search engines');
}

const active = (job: SitemapJob | null) => job?.status === 'pending' || job?.status === 'running';

/** Where the owner sees what search engines are offered: the sitemap of each store host and robots.txt. */
export default function SearchEnginesPage({ loaderData: status, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const result = actionData?.result;
  useActionToast(result);
  const running = active(status.job);
  // While a generation runs, read its progress again every second (without JavaScript: the Refresh link).
  useRevalidateWhileRunning(running);
  const indexed = status.stores.some((s) => s.indexed);
  return (
    <AdminPage
      title="Search engines"
      description="Your sitemap lists your store’s products, categories and pages for search engines; robots.txt tells them what to skip."
      primaryAction={
        <PostForm>
          <Button variant="primary" type="submit" disabled={pending || running}>
            {pending || running ? (
              <LoaderCircle aria-hidden className="size-4 animate-spin" />
            ) : (
              <RefreshCw aria-hidden className="size-4" />
            )}
            {pending ? 'Starting…' : running ? 'Generating…' : 'Generate sitemap'}
          </Button>
        </PostForm>
      }
    >
      {result && !result.ok && <Banner>{result.message}</Banner>}
      {!indexed && status.stores.length > 0 && (
        <Banner tone="warning" testId="private-notice">
          Your store is private, so it has no sitemap and robots.txt asks search engines to stay away. Make it public in
          Access to be found in search.
        </Banner>
      )}
      <Generation job={status.job} />
      <Card title="Sitemaps" flush>
        {status.stores.every((s) => !s.generatedAt) ? (
          <AdminEmptyState icon={<FileSearch className="size-6" />} title="No sitemap yet">
            Generate one so search engines find every product, category and page. It is kept up to date by itself after
            that, a few minutes after you change your catalog or pages.
          </AdminEmptyState>
        ) : (
          <ul className="divide-y divide-neutral-100">
            {status.stores.map((s) => (
              <StoreSitemap key={s.productStoreId} store={s} />
            ))}
          </ul>
        )}
      </Card>
      <Card title="robots.txt">
        <p className="text-sm text-neutral-600">
          {indexed
            ? 'Search engines may visit your store, except the cart, checkout, sign-in, customer accounts, search results and this dashboard. It points them to your sitemap.'
            : 'Search engines are asked not to visit any page of your store.'}{' '}
          <a href="/robots.txt" className="font-medium text-neutral-900 underline underline-offset-2">
            View robots.txt
          </a>
        </p>
      </Card>
    </AdminPage>
  );
}

function Generation({ job }: { job: SitemapJob | null }) {
  if (!job) return null;
  const running = active(job);
  const total = job.progress?.total ?? 0;
  const done = job.progress?.done ?? 0;
  return (
    <Card title="Last generation">
      {running ? (
        <JobProgress label="Sitemap generation" done={done} total={total} refreshTo="." testId="sitemap-progress">
          {job.status === 'pending' ? 'Waiting to start…' : `Generating: ${done} of ${total} stores done`}
        </JobProgress>
      ) : (
        <p className="text-sm text-neutral-700" data-testid="sitemap-last">
          {job.status === 'succeeded' ? (
            <>
              Generated{' '}
              <time dateTime={job.finishedAt ?? job.createdAt}>{formatDateTime(job.finishedAt ?? job.createdAt)}</time>.
            </>
          ) : (
            <>
              The last generation failed
              {job.finishedAt ? (
                <>
                  {' '}
                  (<time dateTime={job.finishedAt}>{formatDateTime(job.finishedAt)}</time>)
                </>
              ) : null}
              . Try again; if it keeps failing, contact support.
            </>
          )}
        </p>
      )}
    </Card>
  );
}

function StoreSitemap({ store }: { store: SitemapStore }) {
  const figures: [string, number][] = [
    ['Products', store.urls.products],
    ['Categories', store.urls.categories],
    ['Pages', store.urls.pages],
    ['All URLs', store.urls.total],
  ];
  return (
    <li className="px-4 py-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="truncate text-sm font-semibold text-neutral-900">{store.hostName}</p>
          <p className="text-xs text-neutral-500">
            {store.generatedAt ? (
              <>
                Updated <time dateTime={store.generatedAt}>{formatDateTime(store.generatedAt)}</time>
                {store.files > 1 ? ` · an index and ${store.files - 1} files` : ''}
              </>
            ) : store.indexed ? (
              'Not generated yet'
            ) : (
              'Private: no sitemap'
            )}
          </p>
        </div>
        {store.generatedAt && (
          <a href={store.sitemapUrl} className={buttonClass('secondary', true)} target="_blank" rel="noreferrer">
            <ExternalLink aria-hidden className="size-4" />
            View sitemap
            <span className="sr-only"> of {store.hostName} (opens in a new tab)</span>
          </a>
        )}
      </div>
      {store.generatedAt && (
        <dl className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-4">
          {figures.map(([label, n]) => (
            <div key={label} className="rounded-lg bg-neutral-50 px-3 py-2">
              <dt className="text-xs text-neutral-500">{label}</dt>
              <dd className="text-base font-semibold text-neutral-900 tabular-nums">{n.toLocaleString('en-US')}</dd>
            </div>
          ))}
        </dl>
      )}
    </li>
  );
}
