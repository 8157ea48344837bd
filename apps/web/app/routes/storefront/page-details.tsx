import { data } from 'react-router';
import { Breadcrumbs, PageContainer } from '../../components/ui/page';
import { titleCase } from '../../lib/title-case';
import type { Route } from './+types/page-details';

export async function loader({ context, params }: Route.LoaderArgs) {
  const page = /^[a-z0-9][a-z0-9-]{0,99}$/.test(params.pageUrl) ? await context.api.cmsPage(params.pageUrl) : null;
  if (!page) throw data({ message: 'Page not found' }, { status: 404 });
  return { page };
}

export function meta({ data: d }: Route.MetaArgs) {
  return d ? [{ title: titleCase(d.page.pageTitle) }] : [{ title: 'Page not found' }];
}

export default function ContentPage({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  return (
    <PageContainer narrow>
      <Breadcrumbs items={[{ label: 'Home', to: '/' }, { label: titleCase(page.pageTitle) }]} />
      <article>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">{titleCase(page.pageTitle)}</h1>
        {/* Sanitised on the server before it is stored in the answer. */}
        <div className="prose-cms mt-6" dangerouslySetInnerHTML={{ __html: page.content ?? '' }} />
      </article>
    </PageContainer>
  );
}
export { ErrorBoundary } from './not-found';
