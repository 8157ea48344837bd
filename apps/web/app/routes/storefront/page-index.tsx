import { Link, useRouteLoaderData } from 'react-router';
import { PageContainer, PageTitle } from '../../components/ui/page';
import { titleCase } from '../../lib/title-case';
import type { loader as rootLoader } from '../../root';

export default function PagesIndex() {
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const pages = root?.shell.pages ?? [];
  return (
    <PageContainer narrow>
      <PageTitle>Store information</PageTitle>
      <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200">
        {pages.map((p) => (
          <li key={p.id}>
            <Link
              to={`/page/details/${p.pageUrl}`}
              className="block px-5 py-4 font-medium text-slate-800 hover:bg-brand-xlight hover:text-brand"
            >
              {titleCase(p.pageTitle)}
            </Link>
          </li>
        ))}
      </ul>
    </PageContainer>
  );
}
