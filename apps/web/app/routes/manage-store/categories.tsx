import type { CategoriesActionResult } from '@app/contracts';
import { FolderTree, Plus } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { data, Link, useNavigation, useSearchParams } from 'react-router';
import { CatalogDropZone, CategoryTree, CategoryTreeProvider } from '../../components/manage-store/category-tree';
import { Banner } from '../../components/ui/banner';
import { Button, ButtonLink } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { AdminEmptyState } from '../../components/ui/empty-state';
import { AdminPage } from '../../components/ui/page-header';
import { PostForm } from '../../components/ui/post-form';
import { TextField } from '../../components/ui/text-field';
import { dashboardMeta, dashboardRead } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/categories';

const DONE: Record<string, string> = {
  created: 'Category created.',
  deleted: 'Category deleted.',
};

export async function loader({ context, request }: Route.LoaderArgs) {
  const done = new URL(request.url).searchParams.get('done') ?? '';
  return dashboardRead(request, async () => ({ page: await context.api.categoriesPage(), done }));
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Categories');
}

export async function action({ request, context }: Route.ActionArgs) {
  return dashboardRead(request, async () => {
    const form = await request.formData();
    const values: Record<string, string> = {};
    for (const [k, v] of form) if (typeof v === 'string') values[k] = v.slice(0, 2000);
    const result = await context.api.categoriesAction(values);
    return data<CategoriesActionResult>(result, { status: result.ok ? 200 : result.status });
  });
}

/** The store's catalogs and their category trees: reorder, re-parent, link and unlink catalogs. */
export default function CategoriesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { page, done } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const fromParam = useMemo(() => (DONE[done] ? { ok: true, message: DONE[done] as string } : null), [done]);
  useActionToast(actionData?.ok ? actionData : fromParam);
  const [params, setParams] = useSearchParams();
  useEffect(() => {
    // Said once: a reload of the page does not say "created" again.
    if (params.get('done')) setParams({}, { replace: true, preventScrollReset: true });
  }, [params, setParams]);
  const failure = actionData && !actionData.ok ? actionData : null;
  const total = page.all.length;

  return (
    <AdminPage
      title="Categories"
      description="The catalogs across the top of your store and the categories in each. Drag a category by its handle, or use Move."
      primaryAction={
        <ButtonLink to="/manage-store/categories/new" variant="primary">
          <Plus aria-hidden className="size-4" />
          Add category
        </ButtonLink>
      }
    >
      {failure && (
        <Banner>
          {failure.message}
          {failure.fieldErrors.to ? ` ${failure.fieldErrors.to}` : ''}
        </Banner>
      )}
      <CategoryTreeProvider catalogs={page.catalogs} all={page.all}>
        {page.catalogs.length === 0 && (
          <Card>
            <AdminEmptyState icon={<FolderTree className="size-8" />} title="No catalogs in your store yet">
              <p>Create a catalog below: it becomes a tab of your store's category bar.</p>
            </AdminEmptyState>
          </Card>
        )}
        {page.catalogs.map((c) => (
          <Card
            key={c.prodCatalogId}
            title={c.catalogName}
            aside={
              <span className="flex items-center gap-2 text-xs text-neutral-500">
                <span className="hidden sm:inline">
                  {c.tree.length} top {c.tree.length === 1 ? 'category' : 'categories'}
                </span>
                <PostForm>
                  <input type="hidden" name="prodCatalogId" value={c.prodCatalogId} />
                  <Button type="submit" name="intent" value="unlink-catalog" disabled={busy} variant="plain" slim>
                    Remove from store
                  </Button>
                </PostForm>
              </span>
            }
            flush
          >
            <CatalogDropZone prodCatalogId={c.prodCatalogId}>
              {c.tree.length === 0 ? (
                <p className="px-4 py-6 text-center text-sm text-neutral-600">
                  No categories in this catalog. Drop one here, or{' '}
                  <Link
                    className="font-medium underline"
                    to={`/manage-store/categories/new?place=${encodeURIComponent(`catalog:${c.prodCatalogId}`)}`}
                  >
                    add a category
                  </Link>
                  .
                </p>
              ) : (
                <CategoryTree
                  nodes={c.tree}
                  place={`catalog:${c.prodCatalogId}`}
                  label={`${c.catalogName} categories`}
                />
              )}
            </CatalogDropZone>
          </Card>
        ))}
        {(page.orphans.length > 0 || page.unlinked.length > 0) && (
          <Card title="Not in the store" flush>
            <p className="px-4 pb-2 text-sm text-neutral-600">
              Shoppers do not see these. Link a catalog to show it again, or move a category into a catalog.
            </p>
            {page.unlinked.length > 0 && (
              <ul className="divide-y divide-neutral-100 border-t border-neutral-100">
                {page.unlinked.map((c) => (
                  <li key={c.prodCatalogId} className="flex items-center gap-3 px-4 py-2">
                    <div className="min-w-0 flex-1">
                      <p className="truncate text-sm font-semibold text-neutral-900">{c.catalogName}</p>
                      <p className="text-xs text-neutral-500">
                        Catalog · {c.categoryCount} top {c.categoryCount === 1 ? 'category' : 'categories'}
                      </p>
                    </div>
                    <PostForm>
                      <input type="hidden" name="prodCatalogId" value={c.prodCatalogId} />
                      <Button type="submit" name="intent" value="link-catalog" disabled={busy}>
                        Link to store
                      </Button>
                    </PostForm>
                  </li>
                ))}
              </ul>
            )}
            {page.orphans.length > 0 && (
              <CategoryTree nodes={page.orphans} place={null} label="Categories in no catalog" />
            )}
          </Card>
        )}
      </CategoryTreeProvider>
      <Card title="New catalog">
        <PostForm className="flex flex-wrap items-end gap-2">
          <input type="hidden" name="intent" value="create-catalog" />
          <TextField
            label="Catalog name"
            name="catalogName"
            className="min-w-48 flex-1"
            required
            maxLength={100}
            error={failure?.fieldErrors.catalogName}
          />
          <Button type="submit" disabled={busy}>
            Create catalog
          </Button>
        </PostForm>
        <p className="mt-2 text-xs text-neutral-500">
          {total} {total === 1 ? 'category' : 'categories'} in all. A new catalog is added as the last tab.
        </p>
      </Card>
    </AdminPage>
  );
}
