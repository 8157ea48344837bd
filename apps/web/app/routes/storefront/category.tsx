import { categoryImage, categoryLabel } from '@app/contracts/client';
import { data, Link, useRouteLoaderData } from 'react-router';
import { NO_IMAGE } from '../../components/layout/category-bar';
import { Breadcrumbs, EmptyState, PageContainer } from '../../components/ui/page';
import type { loader as rootLoader } from '../../root';
import type { Route } from './+types/category';

export async function loader({ context, params }: Route.LoaderArgs) {
  const shell = await context.api.shell();
  const catalog = shell?.main.catalogCol.find((c) =>
    c.categoryList.some((x) => x.productCategoryId === params.categoryId),
  );
  const category = catalog?.categoryList.find((x) => x.productCategoryId === params.categoryId);
  if (!catalog || !category) throw data({ message: 'Category not found' }, { status: 404 });
  return {
    catalog: { prodCatalogId: catalog.prodCatalogId, catalogName: catalog.catalogName },
    category,
    siblings: catalog.categoryList.filter((c) => c !== category),
  };
}

export function meta({ data: d, matches }: Route.MetaArgs) {
  const root = matches.find((m) => m?.id === 'root')?.data as Awaited<ReturnType<typeof rootLoader>> | undefined;
  if (!d) return [{ title: 'Category not found' }];
  return [{ title: `${categoryLabel(d.category)} | ${root?.shell.store.storeName ?? ''}` }];
}

export default function CategoryPage({ loaderData }: Route.ComponentProps) {
  const { category, catalog, siblings } = loaderData;
  const img = categoryImage(category);
  useRouteLoaderData('root');
  return (
    <PageContainer>
      <Breadcrumbs
        items={[{ label: 'Home', to: '/' }, { label: catalog.catalogName }, { label: categoryLabel(category) }]}
      />
      <div className="flex flex-col gap-6 md:flex-row md:items-center">
        <img
          src={img ?? NO_IMAGE}
          alt=""
          width={240}
          height={160}
          className="h-40 w-full rounded-xl bg-slate-100 object-cover md:w-60"
        />
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 md:text-3xl">{categoryLabel(category)}</h1>
          {category.description && category.description !== category.categoryName && (
            <p className="mt-2 max-w-2xl text-slate-600">{category.description}</p>
          )}
        </div>
      </div>
      <div className="mt-10">
        <EmptyState title="Products are on their way">
          This category's product list is being prepared. Browse the other categories of {catalog.catalogName}{' '}
          meanwhile.
        </EmptyState>
      </div>
      {siblings.length > 0 && (
        <section className="mt-12" aria-labelledby="more-categories">
          <h2 id="more-categories" className="mb-4 text-lg font-semibold text-slate-900">
            More in {catalog.catalogName}
          </h2>
          <ul className="flex flex-wrap gap-2">
            {siblings.map((c) => (
              <li key={c.productCategoryId}>
                <Link
                  to={`/categories/${c.productCategoryId}`}
                  className="inline-flex rounded-full border border-slate-300 px-4 py-2 text-sm text-slate-700 hover:border-brand hover:text-brand"
                >
                  {categoryLabel(c)}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </PageContainer>
  );
}
export { ErrorBoundary } from './not-found';
