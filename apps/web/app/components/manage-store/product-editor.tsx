import type { ProductEditorField, ProductEditorForm, ProductEditorPageData, ProductEditorView } from '@app/contracts';
import { decimalAmount, MEDIA_ACCEPT } from '@app/contracts/client';
import { ArrowDown, ArrowUp, Copy, FileText, GripVertical, ImagePlus, Trash2 } from 'lucide-react';
import { type DragEvent, type MouseEvent, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigation } from 'react-router';
import type { ProductEditorAnswer } from '../../lib/product-editor-action.server';
import { useActionToast } from '../../lib/use-action-toast';
import { PostForm } from '../ui/post-form';
import { CmsRichText } from './cms-rich-text';
import { Card, DashboardLayout, primaryAction, secondaryAction } from './dashboard-layout';

type Errors = Partial<Record<ProductEditorField, string>>;

const STATUSES = [
  { value: 'DRAFT', label: 'Draft', hint: 'Not on the storefront yet.' },
  { value: 'ACTIVE', label: 'Active', hint: 'For sale on the storefront.' },
  { value: 'ARCHIVED', label: 'Archived', hint: 'Kept for orders; shoppers do not see it.' },
] as const;

const inputClass = (error?: string) =>
  `h-9 w-full rounded-lg border bg-white px-3 text-sm focus:outline-none focus:ring-2 focus:ring-neutral-300 ${
    error ? 'border-red-600' : 'border-neutral-300'
  }`;
const textareaClass = (error?: string) =>
  `w-full rounded-lg border bg-white px-3 py-2 text-sm focus:outline-none focus:ring-2 focus:ring-neutral-300 ${
    error ? 'border-red-600' : 'border-neutral-300'
  }`;
const labelClass = 'mb-1.5 block text-sm font-medium text-neutral-800';

/** The form's values from the saved product (or blank for a new one), as the inputs show them. */
function formFromView(v: ProductEditorView | null, currency: string): ProductEditorForm {
  if (!v) return { status: 'DRAFT', currencyUomId: currency };
  const options = v.options.map((o) => ({
    name: o.optionName,
    choices: o.choices
      .map((c) =>
        c.priceDelta
          ? `${c.label} ${c.priceDelta > 0 ? '+' : '-'}${decimalAmount(Math.abs(c.priceDelta), v.currencyUomId)}`
          : c.label,
      )
      .join('\n'),
  }));
  return {
    productName: v.productName,
    slug: v.slug,
    sku: v.sku,
    brandName: v.brandName ?? '',
    shortDescription: v.shortDescription ?? '',
    description: v.description ?? '',
    listPrice: decimalAmount(v.listPrice, v.currencyUomId),
    salePrice: v.salePrice == null ? '' : decimalAmount(v.salePrice, v.currencyUomId),
    currencyUomId: v.currencyUomId,
    status: v.status,
    weightGrams: v.weightGrams == null ? '' : String(v.weightGrams),
    seoTitle: v.seoTitle ?? '',
    seoDescription: v.seoDescription ?? '',
    categoryIds: v.categoryIds,
    imageId: v.images.map((i) => i.mediaId),
    imageAlt: v.images.map((i) => i.altText ?? ''),
    featureLabel: v.features.map((f) => f.label),
    featureValue: v.features.map((f) => f.value),
    optionName: options.map((o) => o.name),
    optionChoices: options.map((o) => o.choices),
    relatedSkus: v.related.map((r) => r.sku).join(', '),
  };
}

const str = (values: ProductEditorForm, name: string) => {
  const v = values[name];
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
};
const list = (values: ProductEditorForm, name: string) => {
  const v = values[name];
  return Array.isArray(v) ? v : v ? [v] : [];
};

/**
 * The product editor (issue 16 point 3): one form, posted whole, that works without JavaScript.
 * Pictures are uploaded with the form, reordered by drag (with JavaScript) or Move up / Move down
 * (keyboard, and without JavaScript: the buttons post the form), each with its alt text.
 */
export function ProductEditor({
  page,
  answer,
  notice,
  confirmDelete = false,
}: {
  page: ProductEditorPageData;
  /** The delete confirmation is open (?delete=1: a link, so it works without JavaScript). */
  confirmDelete?: boolean;
  answer: ProductEditorAnswer | undefined;
  /** A message the loader carries over a redirect (created, copied). */
  notice: string | null;
}) {
  const { product, currency } = page;
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' ? String(navigation.formData?.get('intent') ?? 'save') : '';
  const save = answer?.kind === 'save' ? answer : null;
  const failed = save && !save.result.ok ? save.result : null;
  const errors: Errors = failed?.fieldErrors ?? {};
  const values = failed && save ? save.values : formFromView(product, currency);
  const noticeToast = useMemo(() => (notice ? { ok: true, message: notice } : null), [notice]);
  useActionToast(noticeToast);
  useActionToast(save?.result.ok ? save.result : null);
  const formKey = `${product?.updatedAt ?? 'new'}:${product?.images.map((i) => i.mediaId).join(',')}:${failed ? 'failed' : 'ok'}:${product?.contents.length ?? 0}`;
  const url = product ? `/${product.slug}/${product.productId}` : null;

  return (
    <DashboardLayout
      title={product ? product.productName : 'Add product'}
      description={
        product ? (
          <span className="inline-flex flex-wrap items-center gap-2">
            <StatusBadge status={product.status} />
            <span>SKU {product.sku}</span>
            {product.status === 'ACTIVE' && url && (
              <a className="underline" href={url} target="_blank" rel="noreferrer">
                View on your store
              </a>
            )}
          </span>
        ) : (
          'A new product. Save it as a draft until it is ready, or make it active to sell it.'
        )
      }
      action={
        <Link to="/manage-store/products" className={secondaryAction}>
          All products
        </Link>
      }
    >
      {answer?.kind === 'delete' && (
        <p
          role={answer.result.ok ? 'status' : 'alert'}
          className={`rounded-lg border px-3 py-2 text-sm ${answer.result.ok ? 'border-amber-300 bg-amber-50 text-amber-900' : 'border-red-300 bg-red-50 text-red-800'}`}
        >
          {answer.result.message}
        </p>
      )}
      <PostForm
        key={formKey}
        id="product-form"
        // The product's own address, without "?created=1": a later save must not say "created" again.
        action={product ? `/manage-store/products/${encodeURIComponent(product.productId)}` : undefined}
        encType="multipart/form-data"
        className="space-y-4 pb-20"
        aria-label="Product"
        noValidate
      >
        {failed && (
          <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
            {failed.message}
          </p>
        )}
        <div className="grid gap-4 lg:grid-cols-3">
          <div className="space-y-4 lg:col-span-2">
            <Card>
              <div className="space-y-4 pt-4">
                <TextField label="Title" name="productName" values={values} errors={errors} required />
                <TextField
                  label="Short description"
                  name="shortDescription"
                  values={values}
                  errors={errors}
                  hint="One or two sentences for product cards and search results."
                />
                <CmsRichText
                  name="description"
                  label="Description"
                  defaultValue={str(values, 'description')}
                  error={errors.description}
                />
              </div>
            </Card>
            <ImagesCard product={product} values={values} errors={errors} library={page.library} />
            <Card title="Pricing">
              <div className="grid gap-4 sm:grid-cols-2">
                <MoneyField label="Price" name="listPrice" currency={currency} values={values} errors={errors} />
                <MoneyField
                  label="Sale price"
                  name="salePrice"
                  currency={currency}
                  values={values}
                  errors={errors}
                  hint="Optional. Shoppers pay this instead of the price."
                />
              </div>
              <input type="hidden" name="currencyUomId" value={currency} />
            </Card>
            <Card title="Inventory">
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField
                  label="SKU"
                  name="sku"
                  values={values}
                  errors={errors}
                  required
                  hint="Unique in your store: letters, digits and . _ - /"
                />
                {product ? (
                  <div>
                    <p className={labelClass}>Stock</p>
                    <p className="text-sm text-neutral-700">
                      {product.stockQuantity} in stock. Stock changes with a reason on the inventory page.
                    </p>
                  </div>
                ) : (
                  <TextField
                    label="Stock received"
                    name="initialStock"
                    values={values}
                    errors={errors}
                    inputMode="numeric"
                    hint="Units you have now; recorded as received."
                  />
                )}
              </div>
            </Card>
            <OptionsCard values={values} errors={errors} currency={currency} />
            <FeaturesCard values={values} errors={errors} />
            {product && <DownloadsCard product={product} errors={errors} />}
            <Card title="Search engine listing">
              <div className="space-y-4">
                <div>
                  <label htmlFor="slug" className={labelClass}>
                    URL handle
                  </label>
                  <div className="flex items-stretch">
                    <span className="inline-flex items-center rounded-l-lg border border-r-0 border-neutral-300 bg-neutral-50 px-2 text-sm text-neutral-600">
                      /
                    </span>
                    <input
                      id="slug"
                      name="slug"
                      defaultValue={str(values, 'slug')}
                      autoCapitalize="none"
                      spellCheck={false}
                      aria-invalid={errors.slug ? true : undefined}
                      aria-describedby={errors.slug ? 'slug-error' : 'slug-hint'}
                      className={`${inputClass(errors.slug)} min-w-0 rounded-l-none`}
                    />
                  </div>
                  <FieldNote
                    name="slug"
                    error={errors.slug}
                    hint="Empty: made from the title. Changing it keeps the old address working."
                  />
                </div>
                <TextField
                  label="SEO title"
                  name="seoTitle"
                  values={values}
                  errors={errors}
                  hint="Up to 70 characters. Empty: the title."
                />
                <TextArea
                  label="SEO description"
                  name="seoDescription"
                  values={values}
                  errors={errors}
                  hint="Up to 320 characters."
                />
              </div>
            </Card>
          </div>
          <div className="space-y-4">
            <Card title="Status">
              <label htmlFor="status" className="sr-only">
                Status
              </label>
              <select
                id="status"
                name="status"
                defaultValue={str(values, 'status') || 'DRAFT'}
                aria-invalid={errors.status ? true : undefined}
                aria-describedby={errors.status ? 'status-error' : undefined}
                className={inputClass(errors.status)}
              >
                {STATUSES.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </select>
              <FieldNote
                name="status"
                error={errors.status}
                hint={STATUSES.map((s) => `${s.label}: ${s.hint}`).join(' ')}
              />
            </Card>
            <Card title="Organization">
              <div className="space-y-4">
                <TextField label="Brand" name="brandName" values={values} errors={errors} />
                <CategoriesField page={page} values={values} errors={errors} />
                <TextField
                  label="Related products"
                  name="relatedSkus"
                  errorName="relatedProductIds"
                  values={values}
                  errors={errors}
                  hint="SKUs of products shown under this one, separated by commas."
                />
                {product && product.related.length > 0 && (
                  <ul className="text-xs text-neutral-600">
                    {product.related.map((r) => (
                      <li key={r.productId}>
                        {r.sku}: {r.productName}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            </Card>
            <Card title="Shipping">
              <TextField
                label="Weight (grams)"
                name="weightGrams"
                values={values}
                errors={errors}
                inputMode="numeric"
              />
            </Card>
          </div>
        </div>
        <div className="fixed inset-x-0 bottom-0 z-20 border-t border-neutral-200 bg-white/95 px-4 py-3 backdrop-blur lg:sticky lg:-mx-0 lg:rounded-xl lg:border">
          <div className="mx-auto flex max-w-5xl items-center justify-end gap-3">
            <span aria-live="polite" className="text-sm text-neutral-600">
              {busy === 'save' ? 'Saving…' : ''}
            </span>
            <button
              type="submit"
              name="intent"
              value="save"
              className={`${primaryAction} disabled:opacity-60`}
              disabled={busy !== ''}
            >
              {busy === 'save' ? 'Saving…' : 'Save'}
            </button>
          </div>
        </div>
      </PostForm>
      {product && <MoreActions product={product} answer={answer} busy={busy} confirmDelete={confirmDelete} />}
    </DashboardLayout>
  );
}

function StatusBadge({ status }: { status: string }) {
  const cls =
    status === 'ACTIVE'
      ? 'bg-emerald-100 text-emerald-900'
      : status === 'DRAFT'
        ? 'bg-sky-100 text-sky-900'
        : 'bg-neutral-200 text-neutral-800';
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${cls}`}>
      {STATUSES.find((s) => s.value === status)?.label ?? status}
    </span>
  );
}

/** Pictures: the saved ones in order (drag or Move up / Move down), alt text each, add by upload or from the library. */
function ImagesCard({
  product,
  values,
  errors,
  library,
}: {
  product: ProductEditorView | null;
  values: ProductEditorForm;
  errors: Errors;
  library: ProductEditorPageData['library'];
}) {
  const byId = new Map(product?.images.map((i) => [i.mediaId, i]) ?? []);
  const libById = new Map(library.map((l) => [l.mediaId, l]));
  const ids = list(values, 'imageId').filter((id) => byId.has(id) || libById.has(id));
  const alts = list(values, 'imageAlt');
  const altOf = new Map(ids.map((id, n) => [id, alts[n] ?? '']));
  const [order, setOrder] = useState(ids);
  const [live, setLive] = useState('');
  const dragging = useRef<string | null>(null);
  const idsKey = ids.join(',');
  useEffect(() => setOrder(idsKey ? idsKey.split(',') : []), [idsKey]);
  const chosenFromLibrary = library.filter((l) => !ids.includes(l.mediaId));
  const [picked, setPicked] = useState<string[]>([]);

  function move(e: MouseEvent, id: string, by: -1 | 1) {
    // With JavaScript the move happens here (saved with the form); without, the button posts the form.
    e.preventDefault();
    const i = order.indexOf(id);
    const j = i + by;
    if (j < 0 || j >= order.length) return;
    const next = [...order];
    [next[i], next[j]] = [next[j] as string, next[i] as string];
    setOrder(next);
    setLive(`Picture moved to position ${j + 1} of ${order.length}. Save to keep the order.`);
  }
  function onDragOver(e: DragEvent, overId: string) {
    e.preventDefault();
    const from = dragging.current;
    if (!from || from === overId) return;
    setOrder((o) => {
      const next = o.filter((x) => x !== from);
      next.splice(next.indexOf(overId) + (o.indexOf(from) < o.indexOf(overId) ? 1 : 0), 0, from);
      return next;
    });
  }
  const urlOf = (id: string) => byId.get(id)?.url ?? libById.get(id)?.url ?? '';

  return (
    <Card title="Media" aside={<span className="text-xs text-neutral-500">The first picture is the main one.</span>}>
      <p aria-live="polite" className="sr-only">
        {live}
      </p>
      {errors.images && <FieldNote name="images" error={errors.images} />}
      {order.length > 0 && (
        <ul className="mb-4 space-y-2" aria-label="Pictures, in order">
          {order.map((id, n) => (
            <li
              key={id}
              draggable
              onDragStart={() => {
                dragging.current = id;
              }}
              onDragOver={(e) => onDragOver(e, id)}
              onDragEnd={() => {
                dragging.current = null;
              }}
              className="flex flex-wrap items-center gap-3 rounded-lg border border-neutral-200 bg-white p-2 sm:flex-nowrap"
            >
              <GripVertical aria-hidden className="size-4 shrink-0 cursor-grab text-neutral-400" />
              <img
                src={`${urlOf(id)}?w=160`}
                alt=""
                width={64}
                height={64}
                className="size-16 shrink-0 rounded-md border border-neutral-200 bg-neutral-100 object-cover"
              />
              <input type="hidden" name="imageId" value={id} />
              <div className="min-w-0 flex-1 basis-40">
                <label htmlFor={`alt-${id}`} className="mb-1 block text-xs font-medium text-neutral-700">
                  Alt text {n === 0 ? '(main picture)' : `(picture ${n + 1})`}
                </label>
                <input
                  id={`alt-${id}`}
                  name="imageAlt"
                  defaultValue={altOf.get(id) ?? ''}
                  placeholder="Describe the picture for people who cannot see it"
                  className={inputClass()}
                />
              </div>
              <div className="flex items-center gap-1">
                <button
                  type="submit"
                  name="intent"
                  value={`move-image:${id}:-1`}
                  onClick={(e) => move(e, id, -1)}
                  disabled={n === 0}
                  aria-label={`Move picture ${n + 1} up`}
                  className="rounded-md border border-neutral-300 p-1.5 text-neutral-700 hover:bg-neutral-50 disabled:opacity-40"
                >
                  <ArrowUp aria-hidden className="size-4" />
                </button>
                <button
                  type="submit"
                  name="intent"
                  value={`move-image:${id}:1`}
                  onClick={(e) => move(e, id, 1)}
                  disabled={n === order.length - 1}
                  aria-label={`Move picture ${n + 1} down`}
                  className="rounded-md border border-neutral-300 p-1.5 text-neutral-700 hover:bg-neutral-50 disabled:opacity-40"
                >
                  <ArrowDown aria-hidden className="size-4" />
                </button>
                <label className="ml-1 inline-flex items-center gap-1 text-xs text-neutral-700">
                  <input type="checkbox" name="imageRemove" value={id} className="size-4" />
                  Remove
                </label>
              </div>
            </li>
          ))}
        </ul>
      )}
      <div>
        <div className="flex flex-col items-center rounded-lg border-2 border-dashed border-neutral-300 px-4 py-5 text-center text-sm text-neutral-700 focus-within:ring-2 focus-within:ring-neutral-900">
          <ImagePlus aria-hidden className="mb-1 size-6 text-neutral-500" />
          <label htmlFor="newImages" className="font-semibold">
            Add pictures
          </label>
          <p id="newImages-hint" className="text-xs text-neutral-500">
            JPEG, PNG, WebP, AVIF or GIF, up to 10 MB in all; uploaded when you save.
          </p>
          <input
            id="newImages"
            name="newImages"
            type="file"
            multiple
            accept={MEDIA_ACCEPT}
            aria-invalid={errors.newImages ? true : undefined}
            aria-describedby={errors.newImages ? 'newImages-error' : 'newImages-hint'}
            className="mt-2 max-w-full text-xs"
          />
        </div>
        <FieldNote name="newImages" error={errors.newImages} />
      </div>
      {chosenFromLibrary.length > 0 && (
        <details className="mt-3">
          <summary className="cursor-pointer text-sm font-medium text-neutral-800">
            Choose from your library{picked.length ? ` (${picked.length} chosen)` : ''}
          </summary>
          <ul className="mt-2 grid grid-cols-3 gap-2 sm:grid-cols-6">
            {chosenFromLibrary.map((l) => (
              <li key={l.mediaId}>
                <label className="relative block cursor-pointer">
                  <input
                    type="checkbox"
                    name="libraryAdd"
                    value={l.mediaId}
                    onChange={(e) =>
                      setPicked((p) => (e.target.checked ? [...p, l.mediaId] : p.filter((x) => x !== l.mediaId)))
                    }
                    aria-label={l.altText ? `Add picture: ${l.altText}` : 'Add this picture'}
                    className="peer absolute top-1 left-1 size-4"
                  />
                  <img
                    src={`${l.url}?w=160`}
                    alt=""
                    loading="lazy"
                    className="aspect-square w-full rounded-md border border-neutral-200 object-cover peer-checked:ring-2 peer-checked:ring-neutral-900"
                  />
                </label>
              </li>
            ))}
          </ul>
        </details>
      )}
    </Card>
  );
}

function OptionsCard({ values, errors, currency }: { values: ProductEditorForm; errors: Errors; currency: string }) {
  const names = list(values, 'optionName');
  const choices = list(values, 'optionChoices');
  // Saved options, then blank ones to add; empty rows are ignored when saving.
  const rows = Math.max(names.length + 1, 1);
  const [shown, setShown] = useState(rows);
  return (
    <Card title="Options">
      <p className="mb-3 text-sm text-neutral-600">
        Choices shoppers pick, like a finish or a size. One choice per line; a price change after it, like{' '}
        <code className="rounded bg-neutral-100 px-1">Glass +12.50</code> ({currency}). A product with options is
        configurable.
      </p>
      {errors.options && <FieldNote name="options" error={errors.options} />}
      <div className="space-y-3">
        {Array.from({ length: shown }, (_, n) => (
          <fieldset key={n} className="grid gap-3 rounded-lg border border-neutral-200 p-3 sm:grid-cols-3">
            <legend className="sr-only">Option {n + 1}</legend>
            <div>
              <label htmlFor={`optionName-${n}`} className={labelClass}>
                Option name
              </label>
              <input
                id={`optionName-${n}`}
                name="optionName"
                defaultValue={names[n] ?? ''}
                placeholder="Shade"
                className={inputClass()}
              />
            </div>
            <div className="sm:col-span-2">
              <label htmlFor={`optionChoices-${n}`} className={labelClass}>
                Choices
              </label>
              <textarea
                id={`optionChoices-${n}`}
                name="optionChoices"
                rows={3}
                defaultValue={choices[n] ?? ''}
                placeholder={'Linen\nGlass +12.50'}
                className={textareaClass()}
              />
            </div>
          </fieldset>
        ))}
      </div>
      {shown < 10 && (
        <button type="button" onClick={() => setShown((s) => s + 1)} className={`${secondaryAction} mt-3`}>
          Add another option
        </button>
      )}
    </Card>
  );
}

function FeaturesCard({ values, errors }: { values: ProductEditorForm; errors: Errors }) {
  const labels = list(values, 'featureLabel');
  const vals = list(values, 'featureValue');
  const [shown, setShown] = useState(labels.length + 2);
  return (
    <Card title="Features">
      <p className="mb-3 text-sm text-neutral-600">Specifications shown on the product page, like Finish: Brass.</p>
      {errors.features && <FieldNote name="features" error={errors.features} />}
      <div className="space-y-2">
        {Array.from({ length: shown }, (_, n) => (
          <div key={n} className="grid grid-cols-2 gap-2">
            <input
              name="featureLabel"
              aria-label={`Feature ${n + 1} label`}
              placeholder="Label"
              defaultValue={labels[n] ?? ''}
              className={inputClass()}
            />
            <input
              name="featureValue"
              aria-label={`Feature ${n + 1} value`}
              placeholder="Value"
              defaultValue={vals[n] ?? ''}
              className={inputClass()}
            />
          </div>
        ))}
      </div>
      {shown < 50 && (
        <button type="button" onClick={() => setShown((s) => s + 1)} className={`${secondaryAction} mt-3`}>
          Add another feature
        </button>
      )}
    </Card>
  );
}

function DownloadsCard({ product, errors }: { product: ProductEditorView; errors: Errors }) {
  return (
    <Card title="Downloads">
      {product.contents.length > 0 && (
        <ul className="mb-3 divide-y divide-neutral-100 rounded-lg border border-neutral-200">
          {product.contents.map((c) => (
            <li key={c.contentId} className="flex items-center gap-2 px-3 py-2 text-sm">
              <FileText aria-hidden className="size-4 text-neutral-500" />
              <a href={c.url} className="min-w-0 flex-1 truncate underline">
                {c.title}
              </a>
              <span className="hidden text-xs text-neutral-500 sm:inline">{c.fileName}</span>
              <button
                type="submit"
                name="intent"
                value={`remove-content:${c.contentId}`}
                className="rounded-md border border-neutral-300 px-2 py-1 text-xs font-semibold text-neutral-700 hover:bg-neutral-50"
              >
                Remove<span className="sr-only"> {c.title}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor="contentTitle" className={labelClass}>
            Download title
          </label>
          <input id="contentTitle" name="contentTitle" placeholder="Spec sheet" className={inputClass()} />
        </div>
        <div>
          <label htmlFor="contentFile" className={labelClass}>
            File (PDF or ZIP)
          </label>
          <input
            id="contentFile"
            name="contentFile"
            type="file"
            accept=".pdf,.zip,application/pdf,application/zip"
            aria-invalid={errors.contentFile ? true : undefined}
            aria-describedby={errors.contentFile ? 'contentFile-error' : undefined}
            className="max-w-full text-sm"
          />
          <FieldNote name="contentFile" error={errors.contentFile} />
        </div>
      </div>
    </Card>
  );
}

function CategoriesField({
  page,
  values,
  errors,
}: {
  page: ProductEditorPageData;
  values: ProductEditorForm;
  errors: Errors;
}) {
  const chosen = new Set(list(values, 'categoryIds'));
  const [filter, setFilter] = useState('');
  const shown = page.categories.filter((c) => !filter || c.name.toLowerCase().includes(filter.toLowerCase()));
  return (
    <fieldset aria-describedby={errors.categoryIds ? 'categoryIds-error' : undefined}>
      <legend className={labelClass}>Categories</legend>
      <input
        type="search"
        aria-label="Filter categories"
        placeholder="Filter categories"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        className={`${inputClass()} mb-2`}
      />
      <div className="max-h-48 space-y-1 overflow-y-auto rounded-lg border border-neutral-200 p-2">
        {page.categories.map((c) => (
          <label
            key={c.productCategoryId}
            className={`flex items-center gap-2 text-sm ${shown.includes(c) ? '' : 'hidden'}`}
          >
            <input
              type="checkbox"
              name="categoryIds"
              value={c.productCategoryId}
              defaultChecked={chosen.has(c.productCategoryId)}
              className="size-4"
            />
            {c.name}
          </label>
        ))}
      </div>
      <FieldNote name="categoryIds" error={errors.categoryIds} />
    </fieldset>
  );
}

/** Duplicate and delete: forms of their own, below the editor. */
function MoreActions({
  product,
  answer,
  busy,
  confirmDelete,
}: {
  product: ProductEditorView;
  answer: ProductEditorAnswer | undefined;
  busy: string;
  confirmDelete: boolean;
}) {
  const dup = answer?.kind === 'duplicate' && !answer.result.ok ? answer.result : null;
  return (
    <Card title="More actions">
      <div className="space-y-4">
        <PostForm className="flex flex-wrap items-end gap-2" aria-label="Duplicate product">
          <input type="hidden" name="intent" value="duplicate" />
          <div className="min-w-0 flex-1 basis-48">
            <label htmlFor="copySku" className={labelClass}>
              SKU of the copy
            </label>
            <input
              id="copySku"
              name="copySku"
              placeholder={`${product.sku}-COPY`}
              aria-invalid={dup?.fieldErrors.sku ? true : undefined}
              aria-describedby={dup?.fieldErrors.sku ? 'copySku-error' : 'copySku-hint'}
              className={inputClass(dup?.fieldErrors.sku)}
            />
            <FieldNote
              name="copySku"
              error={dup ? (dup.fieldErrors.sku ?? dup.message) : undefined}
              hint="Empty: this SKU with -COPY. The copy is a draft."
            />
          </div>
          <button type="submit" className={secondaryAction} disabled={busy !== ''}>
            <Copy aria-hidden className="size-4" />
            {busy === 'duplicate' ? 'Duplicating…' : 'Duplicate'}
          </button>
        </PostForm>
        <div className="flex flex-wrap items-center justify-between gap-2 border-t border-neutral-100 pt-4 text-sm">
          {confirmDelete ? (
            <PostForm className="w-full" aria-label="Delete product">
              <input type="hidden" name="intent" value="delete" />
              <p className="font-semibold text-red-900">
                {product.hasOrders ? `Archive “${product.productName}”?` : `Delete “${product.productName}” for good?`}
              </p>
              <p className="mt-1 text-neutral-700">
                {product.hasOrders
                  ? 'Orders include this product, so it cannot be deleted: it is archived instead, and shoppers no longer see it.'
                  : 'The product, its options, features and downloads go; its pictures stay in your library.'}
              </p>
              <div className="mt-3 flex flex-wrap gap-2">
                <button
                  type="submit"
                  disabled={busy !== ''}
                  className="inline-flex h-9 items-center gap-1.5 rounded-lg bg-red-700 px-3.5 font-semibold text-white hover:bg-red-800"
                >
                  <Trash2 aria-hidden className="size-4" />
                  {product.hasOrders ? 'Archive product' : 'Delete product'}
                </button>
                <Link to="?" className={secondaryAction}>
                  Keep it
                </Link>
              </div>
            </PostForm>
          ) : (
            <>
              <p className="text-neutral-600">
                {product.hasOrders
                  ? 'Orders include this product, so it cannot be deleted: it can be archived instead.'
                  : 'Deletes the product. Products with orders are archived instead. You are asked to confirm.'}
              </p>
              <Link
                to="?delete=1"
                className="inline-flex h-9 items-center gap-1.5 rounded-lg border border-red-300 bg-white px-3.5 font-semibold text-red-700 hover:bg-red-50"
              >
                <Trash2 aria-hidden className="size-4" />
                {product.hasOrders ? 'Archive…' : 'Delete…'}
              </Link>
            </>
          )}
        </div>
      </div>
    </Card>
  );
}

function TextField({
  label,
  name,
  errorName,
  values,
  errors,
  hint,
  required,
  inputMode,
}: {
  label: string;
  name: string;
  /** The error's field when it differs from the input's name (related SKUs -> relatedProductIds). */
  errorName?: ProductEditorField;
  values: ProductEditorForm;
  errors: Errors;
  hint?: string;
  required?: boolean;
  inputMode?: 'numeric' | 'decimal';
}) {
  const error = errors[(errorName ?? name) as ProductEditorField];
  return (
    <div>
      <label htmlFor={name} className={labelClass}>
        {label}
      </label>
      <input
        id={name}
        name={name}
        defaultValue={str(values, name)}
        required={required}
        inputMode={inputMode}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${name}-error` : hint ? `${name}-hint` : undefined}
        className={inputClass(error)}
      />
      <FieldNote name={name} error={error} hint={hint} />
    </div>
  );
}

function TextArea({
  label,
  name,
  values,
  errors,
  hint,
}: {
  label: string;
  name: ProductEditorField;
  values: ProductEditorForm;
  errors: Errors;
  hint?: string;
}) {
  const error = errors[name];
  return (
    <div>
      <label htmlFor={name} className={labelClass}>
        {label}
      </label>
      <textarea
        id={name}
        name={name}
        rows={3}
        defaultValue={str(values, name)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${name}-error` : hint ? `${name}-hint` : undefined}
        className={textareaClass(error)}
      />
      <FieldNote name={name} error={error} hint={hint} />
    </div>
  );
}

function MoneyField({
  label,
  name,
  currency,
  values,
  errors,
  hint,
}: {
  label: string;
  name: 'listPrice' | 'salePrice';
  currency: string;
  values: ProductEditorForm;
  errors: Errors;
  hint?: string;
}) {
  const error = errors[name];
  return (
    <div>
      <label htmlFor={name} className={labelClass}>
        {label}
      </label>
      <div className="flex items-stretch">
        <span className="inline-flex items-center rounded-l-lg border border-r-0 border-neutral-300 bg-neutral-50 px-2 text-sm text-neutral-600">
          {currency}
        </span>
        <input
          id={name}
          name={name}
          inputMode="decimal"
          defaultValue={str(values, name)}
          placeholder="0.00"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${name}-error` : hint ? `${name}-hint` : undefined}
          className={`${inputClass(error)} min-w-0 rounded-l-none`}
        />
      </div>
      <FieldNote name={name} error={error} hint={hint} />
    </div>
  );
}

function FieldNote({ name, error, hint }: { name: string; error?: string; hint?: ReactNode }) {
  if (error) {
    return (
      <p id={`${name}-error`} className="mt-1.5 text-sm font-medium text-red-700" data-testid={`error-${name}`}>
        {error}
      </p>
    );
  }
  if (!hint) return null;
  return (
    <p id={`${name}-hint`} className="mt-1 text-xs text-neutral-500">
      {hint}
    </p>
  );
}
