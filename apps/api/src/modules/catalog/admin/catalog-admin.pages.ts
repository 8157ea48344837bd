import {
  type CatalogAdminPages,
  type CategoriesActionResult,
  type CategoryFormField,
  categoryMoveSchema,
  createProductStoreCatalogSchema,
  formNumbers,
} from '@app/contracts';
import { fieldFailure, nullIfNotFound, type PageModule, submitForm } from '../../../lib/page-request';
import { formRefusal } from '../../../lib/result';
import type { CatalogAdminService, CategoryPlace } from './catalog-admin.service';

const FIELDS: readonly CategoryFormField[] = [
  'categoryName',
  'description',
  'linkTwoImageUrl',
  'mediaId',
  'seoTitle',
  'seoDescription',
  'productCategoryId',
  'catalogName',
  'prodCatalogId',
  'to',
];

/** "catalog:GRD_PLANTS" or "parent:GRD_HOUSEPLANTS", as the forms post a place. */
function placeOf(value: string | undefined): CategoryPlace | null {
  const m = /^(catalog|parent):(.+)$/.exec(value ?? '');
  if (!m) return null;
  return { kind: m[1] as 'catalog' | 'parent', id: m[2] as string };
}

function placeFields(prefix: 'from' | 'to', place: CategoryPlace | null) {
  if (!place) return {};
  return place.kind === 'catalog'
    ? { [`${prefix}ProdCatalogId`]: place.id }
    : { [`${prefix}ParentProductCategoryId`]: place.id };
}

/** The Categories pages (dashboard); the service checks the 'catalog' permission. */
export function catalogAdminPages(deps: { catalogAdmin: CatalogAdminService }): PageModule<CatalogAdminPages> {
  const svc = deps.catalogAdmin;
  return (page) => ({
    categoriesPage: () => svc.page(page.ctx),

    async categoryEditor(productCategoryId) {
      try {
        const [category, rollup] = await Promise.all([
          svc.category(page.ctx, productCategoryId),
          svc.rollup(page.ctx, productCategoryId),
        ]);
        return { category, rollup };
      } catch (err) {
        return nullIfNotFound(err);
      }
    },

    async categoriesAction(form): Promise<CategoriesActionResult> {
      return submitForm(FIELDS, async (): Promise<CategoriesActionResult> => {
        page.assertFormFromStore();
        const ctx = page.ctx;
        const id = form.productCategoryId ?? '';
        const text = (k: string) => form[k] ?? '';
        switch (form.intent) {
          case 'create': {
            const place = placeOf(form.place);
            const created = await svc.createCategory(ctx, {
              categoryName: text('categoryName'),
              description: text('description'),
              linkTwoImageUrl: text('linkTwoImageUrl'),
              mediaId: text('mediaId'),
              seoTitle: text('seoTitle'),
              seoDescription: text('seoDescription'),
              ...(form.productCategoryId ? { productCategoryId: form.productCategoryId } : {}),
              ...(place?.kind === 'catalog' ? { prodCatalogId: place.id } : {}),
              ...(place?.kind === 'parent' ? { parentProductCategoryId: place.id } : {}),
            });
            if (!created.ok) return formRefusal(created, FIELDS);
            return {
              ok: true,
              message: `Category “${created.value.categoryName}” created.`,
              productCategoryId: created.value.productCategoryId,
            };
          }
          case 'update': {
            const saved = await svc.updateCategory(ctx, {
              productCategoryId: id,
              categoryName: text('categoryName'),
              description: text('description'),
              linkTwoImageUrl: text('linkTwoImageUrl'),
              mediaId: text('mediaId'),
              removeImage: form.removeImage === 'on' || form.removeImage === 'true',
              seoTitle: text('seoTitle'),
              seoDescription: text('seoDescription'),
            });
            return { ok: true, message: 'Category saved.', productCategoryId: saved.productCategoryId };
          }
          case 'delete': {
            const deleted = await svc.deleteCategory(ctx, id);
            if (!deleted.ok) return formRefusal(deleted, FIELDS);
            return { ok: true, message: 'Category deleted.' };
          }
          case 'move': {
            const to = placeOf(form.to);
            if (!to) {
              return {
                ok: false,
                status: 400,
                message: 'Choose where to move it.',
                fieldErrors: { to: 'Choose where to move it.' },
              };
            }
            const parsed = categoryMoveSchema.safeParse({
              productCategoryId: id,
              ...placeFields('from', placeOf(form.from)),
              ...placeFields('to', to),
              ...formNumbers({ position: form.position }, ['position']),
            });
            if (!parsed.success) return fieldFailure(parsed.error, FIELDS);
            const moved = await svc.move(ctx, parsed.data);
            if (!moved.ok) return formRefusal(moved, FIELDS);
            return { ok: true, message: 'Category moved.', productCategoryId: id };
          }
          case 'move-up':
          case 'move-down': {
            const from = placeOf(form.from);
            if (!from) return { ok: false, status: 400, message: 'Unknown place.', fieldErrors: {} };
            await svc.moveStep(ctx, id, from, form.intent === 'move-up' ? -1 : 1);
            return {
              ok: true,
              message: form.intent === 'move-up' ? 'Moved up.' : 'Moved down.',
              productCategoryId: id,
            };
          }
          case 'create-catalog':
          case 'link-catalog': {
            const parsed = createProductStoreCatalogSchema.safeParse(
              form.intent === 'create-catalog'
                ? { catalogName: text('catalogName') }
                : { prodCatalogId: text('prodCatalogId') },
            );
            if (!parsed.success) return fieldFailure(parsed.error, FIELDS);
            const linked = await svc.linkCatalog(ctx, parsed.data);
            if (!linked.ok) return formRefusal(linked, FIELDS);
            return {
              ok: true,
              message: form.intent === 'create-catalog' ? 'Catalog created.' : 'Catalog linked to the store.',
            };
          }
          case 'unlink-catalog': {
            await svc.unlinkCatalog(ctx, { prodCatalogId: text('prodCatalogId') });
            return { ok: true, message: 'Catalog removed from the store. It is kept under “Not in the store”.' };
          }
          default:
            return { ok: false, status: 400, message: 'Unknown action.', fieldErrors: {} };
        }
      });
    },
  });
}
