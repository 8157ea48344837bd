import { data } from 'react-router';
import { Breadcrumbs, PageContainer } from '../../components/ui/page';
import { withRootMeta } from '../../lib/meta';
import { titleCase } from '../../lib/title-case';
import type { loader as rootLoader } from '../../root';
import type { Route } from './+types/page-details';

export async function loader({ context, params }: Route.LoaderArgs) {
  const page = /^[a-z0-9][a-z0-9-]{0,99}$/.test(params.pageUrl) ? await context.api.cmsPage(params.pageUrl) : null;
  if (!page) throw data(null, { status: 404 });
  return { page };
}

export function meta({ data: d, matches }: Route.MetaArgs) {
  const root = matches.find((m) => m?.id === 'root')?.data as Awaited<ReturnType<typeof rootLoader>> | undefined;
  const storeName = root?.shell.store.storeName ?? '';
  const title = d
    ? `${d.page.seoTitle || titleCase(d.page.pageTitle)} | ${storeName}`
    : `Page not found | ${storeName}`;
  // The owner's SEO description for the page, when they wrote one.
  const description = d?.page.seoDescription
    ? [
        { name: 'description', content: d.page.seoDescription },
        { property: 'og:description', content: d.page.seoDescription },
      ]
    : [];
  return withRootMeta(matches, [{ title }, { property: 'og:title', content: title }, ...description]);
}

export default function ContentPage({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  const title = titleCase(page.pageTitle);
  return (
    <PageContainer narrow>
      <Breadcrumbs items={[{ label: 'Home', to: '/' }, { label: title }]} />
      <article>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 md:text-4xl">{title}</h1>
        {/* Sanitised on the server before it is stored in the answer. */}
        <div className="prose-cms mt-8" dangerouslySetInnerHTML={{ __html: page.content ?? '' }} />
      </article>
    </PageContainer>
  );
}

export { ErrorBoundary } from './not-found';
