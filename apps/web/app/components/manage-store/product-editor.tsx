import type { ProductEditorPageData } from '@app/contracts';
import { TAX_CLASS_LABELS, TAX_CLASSES } from '@app/contracts/client';
import { useMemo, useState } from 'react';
import { useNavigation } from 'react-router';
import type { ProductEditorAnswer } from '../../lib/product-editor-action.server';
import { useActionToast } from '../../lib/use-action-toast';
import { Badge } from '../ui/badge';
import { Banner } from '../ui/banner';
import { ButtonLink } from '../ui/button';
import { Card } from '../ui/card';
import { MoneyField } from '../ui/money-field';
import { AdminPage } from '../ui/page-header';
import { PostForm } from '../ui/post-form';
import { SaveBar } from '../ui/save-bar';
import { SelectField } from '../ui/select-field';
import { NumberField, TextAreaField, TextField } from '../ui/text-field';
import { CmsRichText } from './cms-rich-text';
import { type Errors, formFromView, STATUSES, str } from './product-editor-form';
import { ImagesCard } from './product-editor-media';
import { DownloadsCard, MoreActions } from './product-editor-more';
import { CategoriesField, FeaturesCard, OptionsCard } from './product-editor-rows';
import { priceRange, VariantsCards } from './product-editor-variants';

/**
 * The product editor: one form, posted whole, that works without JavaScript. Its save bar comes
 * first (sticky, the first Save in the tab order, and the button Enter presses); the cards follow
 * (product-editor-media.tsx for pictures, -rows.tsx for options, features and categories, -more.tsx
 * for downloads, duplicate and delete; the values in product-editor-form.ts).
 */
export function ProductEditor({
  page,
  answer,
  notice,
}: {
  page: ProductEditorPageData;
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
  // The form is drawn anew when the saved product changes, never on a refused save: its fields then
  // already hold what was posted, and anything typed while the save was on its way (the refusal
  // arrives later) would be lost. Without JavaScript the server draws the refused values itself.
  const formKey = `${product?.updatedAt ?? 'new'}:${product?.images.map((i) => i.mediaId).join(',')}:${product?.contents.length ?? 0}`;
  const url = product ? `/${product.slug}/${product.productId}` : null;
  const status = STATUSES.find((s) => s.value === product?.status);
  // With options the variants carry SKU, prices and stock: the product's own fields only show them.
  const [perVariant, setPerVariant] = useState(
    () => (page.variants?.options.length ?? 0) > 0 || (failed ? str(values, 'gridOptions').length > 2 : false),
  );
  const range = priceRange(page.variants, currency);

  return (
    <AdminPage
      title={product ? product.productName : 'Add product'}
      description={
        product ? (
          <span className="inline-flex flex-wrap items-center gap-2">
            <Badge tone={product.status === 'ACTIVE' ? 'success' : product.status === 'DRAFT' ? 'info' : 'neutral'}>
              {status?.label ?? product.status}
            </Badge>
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
      secondaryActions={<ButtonLink to="/manage-store/products">All products</ButtonLink>}
    >
      {answer?.kind === 'delete' && (
        <Banner tone={answer.result.ok ? 'warning' : 'critical'}>{answer.result.message}</Banner>
      )}
      <PostForm
        key={formKey}
        id="product-form"
        // The product's own address, without "?created=1": a later save must not say "created" again.
        action={product ? `/manage-store/products/${encodeURIComponent(product.productId)}` : undefined}
        encType="multipart/form-data"
        className="kit-stack"
        aria-label="Product"
        noValidate
      >
        <SaveBar
          busy={busy === 'save'}
          disabled={busy !== ''}
          message={failed ? 'Not saved: see the fields marked.' : product ? undefined : 'New product'}
          failure={failed}
          discard={product ? undefined : '/manage-store/products'}
        />
        {failed && <Banner>{failed.message}</Banner>}
        <div className="kit-layout">
          <div className="kit-stack">
            <Card>
              <div className="kit-stack">
                <TextField
                  label="Title"
                  name="productName"
                  defaultValue={str(values, 'productName')}
                  error={errors.productName}
                  required
                />
                <TextField
                  label="Short description"
                  name="shortDescription"
                  defaultValue={str(values, 'shortDescription')}
                  error={errors.shortDescription}
                  hint="One or two sentences for product cards and search results."
                />
                <CmsRichText
                  name="description"
                  label="Description"
                  paragraphsFromText
                  defaultValue={str(values, 'description')}
                  error={errors.description}
                />
              </div>
            </Card>
            <ImagesCard product={product} values={values} errors={errors} library={page.library} />
            {perVariant ? (
              <Card title="Pricing and inventory">
                {/* Read-only: with options each variant has its own, edited in the Variants card. */}
                <dl className="grid gap-2 text-sm sm:grid-cols-3" data-testid="per-variant-fields">
                  <div>
                    <dt className="kit-label">Price</dt>
                    <dd>{range ?? 'Set per variant'}</dd>
                  </div>
                  <div>
                    <dt className="kit-label">SKU</dt>
                    <dd>Set per variant</dd>
                  </div>
                  <div>
                    <dt className="kit-label">Stock</dt>
                    <dd>{product ? `${product.stockQuantity} across the variants` : 'Set per variant'}</dd>
                  </div>
                </dl>
                <p className="kit-hint mt-2">Sale price, SKU and stock are set per variant, in the Variants card.</p>
                <input type="hidden" name="currencyUomId" value={currency} />
              </Card>
            ) : (
              <>
                <Card title="Pricing">
                  <div className="kit-fields-row">
                    <MoneyField
                      label="Price"
                      name="listPrice"
                      currency={currency}
                      text={str(values, 'listPrice')}
                      error={errors.listPrice}
                      required
                    />
                    <MoneyField
                      label="Sale price"
                      name="salePrice"
                      currency={currency}
                      text={str(values, 'salePrice')}
                      error={errors.salePrice}
                      hint="Optional. Shoppers pay this instead of the price."
                    />
                  </div>
                  <input type="hidden" name="currencyUomId" value={currency} />
                </Card>
                <Card title="Inventory">
                  <div className="kit-fields-row">
                    <TextField
                      label="SKU"
                      name="sku"
                      defaultValue={str(values, 'sku')}
                      error={errors.sku}
                      required
                      hint="Unique in your store: letters, digits and . _ - /"
                    />
                    {product ? (
                      <div>
                        <p className="kit-label">Stock</p>
                        <p className="text-sm text-neutral-700">
                          {product.stockQuantity} in stock. Stock changes with a reason on the inventory page.
                        </p>
                      </div>
                    ) : (
                      <NumberField
                        label="Stock received"
                        name="initialStock"
                        defaultValue={str(values, 'initialStock')}
                        error={errors.initialStock}
                        hint="Units you have now; recorded as received."
                      />
                    )}
                  </div>
                </Card>
              </>
            )}
            <VariantsCards page={page} values={values} errors={errors} onOptionsChange={setPerVariant} />
            <OptionsCard values={values} errors={errors} currency={currency} />
            <FeaturesCard values={values} errors={errors} />
            {product && <DownloadsCard product={product} errors={errors} />}
            <Card title="Search engine listing">
              <div className="kit-stack">
                <TextField
                  label="URL handle"
                  name="slug"
                  prefix="/"
                  defaultValue={str(values, 'slug')}
                  autoCapitalize="none"
                  spellCheck={false}
                  error={errors.slug}
                  hint="Empty: made from the title. Changing it keeps the old address working."
                />
                <TextField
                  label="SEO title"
                  name="seoTitle"
                  defaultValue={str(values, 'seoTitle')}
                  error={errors.seoTitle}
                  hint="Up to 70 characters. Empty: the title."
                />
                <TextAreaField
                  label="SEO description"
                  name="seoDescription"
                  defaultValue={str(values, 'seoDescription')}
                  error={errors.seoDescription}
                  hint="Up to 320 characters."
                />
              </div>
            </Card>
          </div>
          <div className="kit-stack">
            <Card title="Status">
              <SelectField
                label="Status"
                labelHidden
                name="status"
                defaultValue={str(values, 'status') || 'DRAFT'}
                error={errors.status}
                options={STATUSES}
                hint={STATUSES.map((s) => `${s.label}: ${s.hint}`).join(' ')}
              />
            </Card>
            <Card title="Organization">
              <div className="kit-stack">
                <TextField
                  label="Brand"
                  name="brandName"
                  defaultValue={str(values, 'brandName')}
                  error={errors.brandName}
                />
                <CategoriesField page={page} values={values} errors={errors} />
                <TextField
                  label="Related products"
                  name="relatedSkus"
                  defaultValue={str(values, 'relatedSkus')}
                  error={errors.relatedProductIds}
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
              <NumberField
                label="Weight (grams)"
                name="weightGrams"
                defaultValue={str(values, 'weightGrams')}
                error={errors.weightGrams}
              />
            </Card>
            <Card title="Tax">
              <SelectField
                label="Tax class"
                name="taxClass"
                defaultValue={product?.taxClass ?? 'standard'}
                options={TAX_CLASSES.map((c) => ({ value: c, label: TAX_CLASS_LABELS[c] }))}
                hint="Which of your tax rates it pays; rates are set in Taxes."
              />
            </Card>
          </div>
        </div>
      </PostForm>
      {product && <MoreActions product={product} answer={answer} busy={busy} />}
    </AdminPage>
  );
}
