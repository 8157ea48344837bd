import type { CategoriesActionResult, CategoryEditorData, MediaItem } from '@app/contracts';
import { ArrowLeft, Trash2 } from 'lucide-react';
import { useMemo } from 'react';
import { data, Link, redirect, useNavigation } from 'react-router';
import { CategoryForm } from '../../components/manage-store/category-form';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { AdminPage } from '../../components/ui/page-header';
import { PostForm } from '../../components/ui/post-form';
import { dashboardMeta, dashboardRead } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/categories_.$id';

const FIELDS = ['categoryName', 'description', 'linkTwoImageUrl', 'mediaId', 'seoTitle', 'seoDescription', 'place'];
const LIST = '/manage-store/categories';

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const isNew = params.id === 'new';
  const [editor, page] = await dashboardRead(request, () =>
    Promise.all([
      isNew ? Promise.resolve(null as CategoryEditorData | null) : context.api.categoryEditor(params.id),
      context.api.categoriesPage(),
    ]),
  );
  if (!isNew && !editor) throw data({ message: 'There is no such category in this store.' }, { status: 404 });
  // The library needs the settings permission (uploads, decision 029): staff without it link a picture by address.
  const library: MediaItem[] = await context.api
    .mediaLibrary()
    .then((p) => p.items)
    .catch(() => []);
  const places = [
    ...page.catalogs.map((c) => ({ value: `catalog:${c.prodCatalogId}`, label: `Top of ${c.catalogName}` })),
    ...page.all.map((c) => ({
      value: `parent:${c.productCategoryId}`,
      label: `Inside ${c.categoryName ?? c.productCategoryId}`,
    })),
  ];
  const wanted = url.searchParams.get('place') ?? '';
  return {
    editor,
    places,
    place: places.some((p) => p.value === wanted) ? wanted : (places[0]?.value ?? ''),
    library,
    saved: url.searchParams.get('saved') === '1',
  };
}

export function meta({ matches, data: d }: Route.MetaArgs) {
  const name = d?.editor?.category.categoryName;
  return dashboardMeta(matches, name ? `Edit ${name}` : 'Add category');
}

type ActionAnswer = { result: CategoriesActionResult; values: Record<string, string> | null };

export async function action({ context, request, params }: Route.ActionArgs) {
  return dashboardRead(request, async () => {
    const form = await request.formData();
    const intent = String(form.get('intent') ?? 'save');
    const isNew = params.id === 'new';
    const reply = (result: CategoriesActionResult, values: Record<string, string> | null) =>
      data<ActionAnswer>({ result, values }, { status: result.ok ? 200 : result.status });
    if (intent === 'delete' && !isNew) {
      const result = await context.api.categoriesAction({ intent: 'delete', productCategoryId: params.id });
      if (result.ok) throw redirect(`${LIST}?done=deleted`);
      return reply(result, null);
    }
    const values: Record<string, string> = Object.fromEntries(
      FIELDS.map((f) => [f, String(form.get(f) ?? '').slice(0, 2000)]),
    );
    if (form.get('removeImage')) values.removeImage = 'on';
    // Without JavaScript the picture arrives with the form: it goes through the one upload pipeline.
    const file = form.get('file');
    if (file && typeof file !== 'string' && file.size > 0) {
      const uploaded = await context.api.uploadMedia(new Uint8Array(await file.arrayBuffer()), values.categoryName);
      if (!uploaded.ok) return reply({ ...uploaded, fieldErrors: { mediaId: uploaded.fieldErrors.file } }, values);
      values.mediaId = uploaded.media.mediaId;
    }
    const result = await context.api.categoriesAction({
      ...values,
      intent: isNew ? 'create' : 'update',
      ...(isNew ? {} : { productCategoryId: params.id }),
    });
    if (result.ok && isNew) throw redirect(`${LIST}?done=created`);
    return reply(result, result.ok ? null : values);
  });
}

/** Add a category, or edit one: its fields, where it sits, and delete (refused while it holds anything). */
export default function CategoryPage({ loaderData, actionData }: Route.ComponentProps) {
  const { editor, places, place, library, saved } = loaderData;
  const navigation = useNavigation();
  const answer = actionData as ActionAnswer | undefined;
  const result = answer?.result;
  const toastFromParam = useMemo(() => (saved ? { ok: true, message: 'Category saved.' } : null), [saved]);
  useActionToast(result?.ok ? result : toastFromParam);
  const failure = result && !result.ok ? result : null;
  const deleting = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'delete';
  const category = editor?.category ?? null;
  const rollup = editor?.rollup;
  const where = rollup
    ? [
        ...rollup.catalogs.map((c) => `top of ${c.catalogName}`),
        ...rollup.parents.map((p) => `inside ${p.categoryName ?? p.productCategoryId}`),
      ]
    : [];

  return (
    <AdminPage
      title={category ? (category.categoryName ?? category.productCategoryId) : 'Add category'}
      description={
        <Link to={LIST} className="inline-flex items-center gap-1 font-medium text-neutral-700 hover:underline">
          <ArrowLeft aria-hidden className="size-4" />
          Categories
        </Link>
      }
    >
      {failure && !answer?.values && <Banner>{failure.message}</Banner>}
      <CategoryForm
        key={category?.productCategoryId ?? 'new'}
        category={category}
        places={places}
        place={place}
        library={library}
        values={answer?.values ?? null}
        errors={failure?.fieldErrors ?? {}}
        message={failure && answer?.values ? failure.message : null}
      />
      {category && (
        <Card title="In your store">
          <dl className="grid gap-2 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-neutral-500">Id</dt>
              <dd className="font-medium break-all text-neutral-900">{category.productCategoryId}</dd>
            </div>
            <div>
              <dt className="text-neutral-500">Products</dt>
              <dd className="font-medium text-neutral-900">{category.productCount}</dd>
            </div>
            <div>
              <dt className="text-neutral-500">Subcategories</dt>
              <dd className="font-medium text-neutral-900">{category.childCount}</dd>
            </div>
          </dl>
          <p className="mt-3 text-sm text-neutral-600">
            {where.length ? `Shown ${where.join(', ')}.` : 'Not in any catalog: shoppers do not see it in the menus.'}{' '}
            <Link to={LIST} className="font-medium underline">
              Move it on the Categories page
            </Link>
            .
          </p>
        </Card>
      )}
      {category && (
        <Card>
          <p className="mb-3 text-sm text-neutral-600">
            A category can be deleted once it has no products and no subcategories. Its links in catalogs go with it.
          </p>
          <ConfirmDialog
            trigger={
              <>
                <Trash2 aria-hidden className="size-4" />
                {deleting ? 'Deleting…' : 'Delete category'}
              </>
            }
            title={`Delete ${category.categoryName ?? category.productCategoryId}?`}
            confirm={
              <PostForm>
                <Button type="submit" name="intent" value="delete" variant="critical" disabled={deleting}>
                  Delete {category.categoryName ?? category.productCategoryId}
                </Button>
              </PostForm>
            }
          >
            Shoppers no longer find it in the menus. This cannot be undone.
          </ConfirmDialog>
        </Card>
      )}
    </AdminPage>
  );
}
