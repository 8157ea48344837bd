import { categoryImage, categoryLabel } from '@app/contracts/client';
import { PackageOpen } from 'lucide-react';
import { data, Link } from 'react-router';
import { CatalogView } from '../../components/catalog/catalog-view';
import { CATEGORY_SORTS } from '../../components/catalog/sort-options';
import { NO_IMAGE } from '../../components/layout/category-bar';
import { Breadcrumbs, EmptyState, PageContainer } from '../../components/ui/page';
import { apiParams } from '../../lib/catalog-params';
import { mediaSrcSet } from '../../lib/media';
import { withRootMeta } from '../../lib/meta';
import type { loader as rootLoader } from '../../root';
import type { Route } from './+types/category';

const ID = /^[A-Za-z0-9_.-]{1,64}$/;

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const id = params.categoryId;
  if (!ID.test(id)) throw data(null, { status: 404 });
  const url = new URL(request.url);
  const [category, result] = await Promise.all([
    context.api.category(id),
    context.api.products({ ...apiParams(url.searchParams), productCategoryId: id }),
  ]);
  if (!category) throw data(null, { status: 404 });
  return { category, result };
}

export function meta({ data: d, matches }: Route.MetaArgs) {
  const root = matches.find((m) => m?.id === 'root')?.data as Awaited<ReturnType<typeof rootLoader>> | undefined;
  const storeName = root?.shell.store.storeName ?? '';
  if (!d) return withRootMeta(matches, [{ title: `Page not found | ${storeName}` }]);
  const c = d.category.category;
  const title = `${categoryLabel(c)} | ${storeName}`;
  const description = c.longDescription || c.description || categoryLabel(c);
  return withRootMeta(matches, [
    { title },
    { name: 'description', content: description },
    { property: 'og:title', content: title },
    { property: 'og:description', content: description },
  ]);
}

export default function CategoryPage({ loaderData }: Route.ComponentProps) {
  const { category: sub, result } = loaderData;
  const c = sub.category;
  const title = categoryLabel(c);
  const trail = sub.breadcrumb.slice(0, -1);
  const lead = c.longDescription || (c.description !== c.categoryName ? c.description : null);
  return (
    <PageContainer>
      <Breadcrumbs
        items={[
          { label: 'Home', to: '/' },
          ...trail.map((b) => ({ label: b.label, to: `/categories/${b.productCategoryId}` })),
          { label: title },
        ]}
      />
      <header className="mb-8 max-w-3xl">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 md:text-4xl">{title}</h1>
        {lead && <p className="mt-3 text-base leading-7 text-slate-600">{lead}</p>}
      </header>

      {sub.subcategories.length > 0 && (
        <nav aria-label={`Shop ${title} by type`} className="mb-10 -mx-4 overflow-x-auto px-4 pb-1">
          <ul className="flex gap-3">
            {sub.subcategories.map((s) => {
              const img = categoryImage(s);
              return (
                <li key={s.productCategoryId} className="shrink-0">
                  <Link
                    to={`/categories/${s.productCategoryId}`}
                    className="group flex items-center gap-3 rounded-full border border-slate-200 bg-white py-1.5 pr-5 pl-1.5 hover:border-slate-900"
                    data-testid="subcategory"
                  >
                    <img
                      src={img ?? NO_IMAGE}
                      srcSet={mediaSrcSet(img, [160])}
                      sizes="40px"
                      alt=""
                      width={40}
                      height={40}
                      className="size-10 rounded-full bg-slate-100 object-cover"
                    />
                    <span className="text-sm font-medium whitespace-nowrap text-slate-900">{categoryLabel(s)}</span>
                    <span className="text-xs text-slate-500">{s.productCount}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
      )}

      <CatalogView
        result={result}
        sorts={CATEGORY_SORTS}
        defaultSort="featured"
        empty={
          <EmptyState
            icon={<PackageOpen className="size-10" />}
            title="No products here yet"
            action={{ to: '/', label: 'Continue shopping' }}
          >
            This category has no products at the moment. Have a look around the rest of the store.
          </EmptyState>
        }
      />
    </PageContainer>
  );
}

export { ErrorBoundary } from './not-found';
