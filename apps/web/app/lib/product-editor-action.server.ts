import type { FormOutcome, ProductEditorForm, ProductEditorSaveResult, StorefrontApi } from '@app/contracts';
import { CSRF_FIELD } from '@app/contracts/client';
import { redirect } from 'react-router';
import { dashboardRead } from './dashboard-page';

export type ProductEditorAnswer =
  | { kind: 'save'; result: ProductEditorSaveResult; values: ProductEditorForm }
  | { kind: 'duplicate'; result: ProductEditorSaveResult }
  | {
      kind: 'delete';
      result: { ok: true; outcome: 'deleted' | 'archived'; message: string } | FormOutcome<'productId'>;
    };

const FILE_FIELDS = new Set(['newImages', 'contentFile', CSRF_FIELD]);

/** The form's text fields as the page function takes them: a name posted twice is a list. */
function textValues(form: FormData): ProductEditorForm {
  const out: ProductEditorForm = {};
  for (const [name, value] of form.entries()) {
    if (FILE_FIELDS.has(name) || typeof value !== 'string') continue;
    const have = out[name];
    const v = value.slice(0, 100_000);
    out[name] = have === undefined ? v : Array.isArray(have) ? [...have, v] : [have, v];
  }
  // Parallel lists stay lists even with one row, so row n of each belongs together.
  for (const list of [
    'imageId',
    'imageAlt',
    'featureLabel',
    'featureValue',
    'optionName',
    'optionChoices',
    'variantRow',
    'variantSku',
    'variantPrice',
    'variantSalePrice',
    'variantStock',
    'variantStockSeen',
    'variantImage',
    'variantEnabled',
  ]) {
    const v = out[list];
    if (v !== undefined && !Array.isArray(v)) out[list] = [v];
  }
  return out;
}

/** "Move up" / "Move down" of a picture without JavaScript: the lists are reordered, then saved. */
function moveImage(values: ProductEditorForm, mediaId: string, by: number) {
  const ids = (values.imageId as string[] | undefined) ?? [];
  const alts = (values.imageAlt as string[] | undefined) ?? [];
  const i = ids.indexOf(mediaId);
  const j = i + by;
  if (i < 0 || j < 0 || j >= ids.length) return;
  [ids[i], ids[j]] = [ids[j] as string, ids[i] as string];
  [alts[i], alts[j]] = [alts[j] ?? '', alts[i] ?? ''];
}

/**
 * The product editor's action (new and edit pages): save, duplicate, delete, remove a download.
 * Works as a plain form post; pictures and a download file may arrive with the form.
 */
export async function productEditorAction(
  request: Request,
  api: StorefrontApi,
  productId: string | null,
): Promise<ProductEditorAnswer> {
  return dashboardRead(request, async () => {
    const form = await request.formData();
    const intent = String(form.get('intent') ?? 'save');
    if (productId && intent === 'duplicate') {
      const result = await api.duplicateProduct(productId, String(form.get('copySku') ?? '').trim() || null);
      if (result.ok) throw redirect(`/manage-store/products/${encodeURIComponent(result.productId)}?copied=1`);
      return { kind: 'duplicate', result };
    }
    if (productId && intent === 'delete') {
      const result = await api.deleteProduct(productId);
      if (result.ok && result.outcome === 'deleted') throw redirect('/manage-store/products?deleted=1');
      return { kind: 'delete', result };
    }
    const values = textValues(form);
    if (productId && intent.startsWith('remove-content:')) {
      const result = await api.removeProductContent(productId, intent.slice('remove-content:'.length));
      return { kind: 'save', result, values };
    }
    const move = /^move-image:([0-9a-f]{32}):(-1|1)$/.exec(intent);
    if (move) moveImage(values, move[1] as string, Number(move[2]));

    const images: Uint8Array[] = [];
    for (const f of form.getAll('newImages')) {
      if (typeof f !== 'string' && f.size > 0) images.push(new Uint8Array(await f.arrayBuffer()));
    }
    const file = form.get('contentFile');
    const content =
      productId && file && typeof file !== 'string' && file.size > 0
        ? {
            bytes: new Uint8Array(await file.arrayBuffer()),
            fileName: file.name,
            title: String(form.get('contentTitle') ?? ''),
          }
        : null;
    const result = await api.saveProductForm(productId, values, { images, content });
    // The tax class is the tax module's column (decision 116): written after the product's own save.
    const taxClass = form.get('taxClass');
    if (result.ok && typeof taxClass === 'string') await api.setProductTaxClass(result.productId, taxClass);
    if (result.ok && !productId) {
      throw redirect(`/manage-store/products/${encodeURIComponent(result.productId)}?created=1`);
    }
    return { kind: 'save', result, values };
  });
}
