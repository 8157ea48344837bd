import {
  decimalAmount,
  type FormOutcome,
  PRODUCT_EDITOR_FIELDS,
  type ProductEditorField,
  type ProductEditorForm,
  type ProductEditorPages,
  type ProductEditorPayload,
  parseDecimalMoney,
  productEditorInputSchema,
  productVariantWriteSchema,
  type VariantGridCell,
  variantGridErrorKey,
  variantIdSchema,
  variantOptionsInputSchema,
} from '@app/contracts';
import { z } from 'zod';
import { requireAccess } from '../../../lib/access';
import type { PageModule } from '../../../lib/page-request';
import { submitForm } from '../../../lib/page-request';
import { formRefusal } from '../../../lib/result';
import type { ProductAdminService } from './product-admin.service';
import type { VariantGridInput, VariantGridRow } from './variant-grid';

const FIELDS_MESSAGE = 'Please check the fields marked below.';

/** The editor's labels, for schema messages that name a field by its API name. */
const FIELD_LABELS: Record<string, string> = {
  productName: 'Title',
  sku: 'SKU',
  listPrice: 'Price',
  salePrice: 'Sale price',
  seoTitle: 'SEO title',
  seoDescription: 'SEO description',
  shortDescription: 'Short description',
  brandName: 'Brand',
  slug: 'URL handle',
  weightGrams: 'Weight',
};

/**
 * A field of the posted form. A browser sends every line break of a form as CRLF, whatever the text
 * held: read as LF, so a form saved unchanged writes what was there (and the activity feed records
 * no edit nobody made). The API and a spreadsheet's import store line breaks as sent.
 */
const one = (form: ProductEditorForm, name: string): string => {
  const v = form[name];
  return (Array.isArray(v) ? (v[0] ?? '') : (v ?? '')).trim().replace(/\r\n?/g, '\n');
};
const many = (form: ProductEditorForm, name: string): string[] => {
  const v = form[name];
  return Array.isArray(v) ? v : v === undefined ? [] : [v];
};

/** "Brass +12.50", "Chrome", "Small -5" -> label and price change in minor units. */
export function parseChoiceLine(
  line: string,
  currency: string,
): { ok: true; label: string; priceDelta: number } | { ok: false; message: string } {
  const m = /^(.*?)(?:\s+([+-])\s*(\d[\d,]*(?:\.\d*)?))?\s*$/.exec(line.trim());
  const label = (m?.[1] ?? '').trim();
  if (!label) return { ok: false, message: `"${line.trim()}" has no label` };
  if (!m?.[2]) return { ok: true, label, priceDelta: 0 };
  const money = parseDecimalMoney(m[3] as string, currency);
  if (!money.ok) return { ok: false, message: `${label}: ${money.message}` };
  return { ok: true, label, priceDelta: m[2] === '-' ? -money.minor : money.minor };
}

/**
 * The editor form (strings, as a browser posts them without JavaScript) -> the API's payload, or the
 * fields at fault. Prices are decimals in the store's currency; lists come as parallel inputs.
 */
export function editorPayloadFromForm(
  form: ProductEditorForm,
  opts: { currency: string; creating: boolean; relatedIds: Map<string, string> },
):
  | { ok: true; payload: ProductEditorPayload }
  | { ok: false; fieldErrors: Partial<Record<ProductEditorField, string>> } {
  const errors: Partial<Record<ProductEditorField, string>> = {};
  const currency = opts.currency;
  const price = (name: 'listPrice' | 'salePrice', required: boolean): number | null | undefined => {
    const text = one(form, name);
    if (!text) {
      if (required) errors[name] = 'Enter a price, like 12.50.';
      return null;
    }
    const parsed = parseDecimalMoney(text, currency);
    if (!parsed.ok) {
      errors[name] = parsed.message.charAt(0).toUpperCase() + parsed.message.slice(1);
      return undefined;
    }
    return parsed.minor;
  };
  const listPrice = price('listPrice', true);
  const salePrice = price('salePrice', false);
  const whole = (name: 'weightGrams' | 'initialStock'): number | undefined => {
    const text = one(form, name);
    if (!text) return undefined;
    if (!/^\d{1,9}$/.test(text)) {
      errors[name] = 'Enter a whole number, like 250.';
      return undefined;
    }
    return Number(text);
  };
  const weightGrams = whole('weightGrams');
  const initialStock = opts.creating ? whole('initialStock') : undefined;

  const removed = new Set(many(form, 'imageRemove'));
  const ids = many(form, 'imageId');
  const alts = many(form, 'imageAlt');
  const images = ids
    .map((mediaId, n) => ({ mediaId, altText: alts[n]?.trim() || null }))
    .filter((i) => i.mediaId && !removed.has(i.mediaId));
  for (const mediaId of many(form, 'libraryAdd')) {
    if (mediaId && !images.some((i) => i.mediaId === mediaId)) images.push({ mediaId, altText: null });
  }

  const labels = many(form, 'featureLabel');
  const values = many(form, 'featureValue');
  const features: { label: string; value: string }[] = [];
  labels.forEach((label, n) => {
    const value = values[n]?.trim() ?? '';
    if (!label.trim() && !value) return; // an empty row is no feature
    if (!label.trim() || !value) {
      errors.features = `Feature ${n + 1} needs both a label and a value.`;
      return;
    }
    features.push({ label: label.trim(), value });
  });

  const optionNames = many(form, 'optionName');
  const optionChoices = many(form, 'optionChoices');
  const options: { optionName: string; choices: { label: string; priceDelta: number }[] }[] = [];
  optionNames.forEach((name, n) => {
    const lines = (optionChoices[n] ?? '')
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
    if (!name.trim() && !lines.length) return;
    if (!name.trim()) {
      errors.options = `Option ${n + 1} needs a name.`;
      return;
    }
    if (!lines.length) {
      errors.options = `${name.trim()} needs at least one choice.`;
      return;
    }
    const choices: { label: string; priceDelta: number }[] = [];
    for (const line of lines) {
      const c = parseChoiceLine(line, currency);
      if (!c.ok) {
        errors.options = `${name.trim()}: ${c.message}.`;
        return;
      }
      choices.push({ label: c.label, priceDelta: c.priceDelta });
    }
    options.push({ optionName: name.trim(), choices });
  });

  const skus = one(form, 'relatedSkus')
    .split(/[\s,]+/)
    .filter(Boolean);
  const unknown = skus.filter((s) => !opts.relatedIds.has(s));
  if (unknown.length) errors.relatedProductIds = `No product with SKU ${unknown.join(', ')} in this store.`;
  const relatedProductIds = skus.map((s) => opts.relatedIds.get(s)).filter((id): id is string => !!id);

  const payload: ProductEditorPayload = {
    fields: {
      productName: one(form, 'productName'),
      slug: one(form, 'slug'),
      sku: one(form, 'sku'),
      brandName: one(form, 'brandName') || null,
      shortDescription: one(form, 'shortDescription') || null,
      description: one(form, 'description') || null,
      listPrice: listPrice ?? 0,
      salePrice: salePrice ?? null,
      currencyUomId: currency,
      status: one(form, 'status') as 'ACTIVE',
      weightGrams: weightGrams ?? null,
      seoTitle: one(form, 'seoTitle') || null,
      seoDescription: one(form, 'seoDescription') || null,
      categoryIds: many(form, 'categoryIds').filter(Boolean),
    },
    images,
    features,
    options,
    relatedProductIds,
    ...(initialStock !== undefined ? { initialStock } : {}),
  };
  const parsed = productEditorInputSchema.safeParse(payload);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.map(String);
      const field = (path[0] === 'fields' ? path[1] : path[0]) as ProductEditorField;
      if (!(PRODUCT_EDITOR_FIELDS as readonly string[]).includes(field) || errors[field]) continue;
      // "salePrice cannot be more than listPrice" reads "Sale price cannot be more than Price" next to the field.
      const message = issue.message
        .replace(/^[a-zA-Z]+: /, '')
        .replace(
          /\b(productName|sku|listPrice|salePrice|seoTitle|seoDescription|shortDescription|brandName|slug|weightGrams)\b/g,
          (f) => FIELD_LABELS[f] ?? f,
        );
      errors[field] = message.charAt(0).toUpperCase() + message.slice(1);
    }
  }
  if (Object.keys(errors).length) return { ok: false, fieldErrors: errors };
  return { ok: true, payload };
}

const gridRowSchema = z.strictObject({
  variantId: variantIdSchema.optional(),
  values: z.array(z.string().max(60)).max(3),
});
const GRID_CELL_OF: Record<string, VariantGridCell> = {
  sku: 'sku',
  listPrice: 'listPrice',
  salePrice: 'salePrice',
  stock: 'stock',
  imageIds: 'imageIds',
  values: 'values',
};
type GridErrors = Record<string, string>;
const sentence = (m: string) => {
  const text = m
    .replace(/^[a-zA-Z]+: /, '')
    .replace(/\blistPrice\b/g, 'Price')
    .replace(/\bsalePrice\b/g, 'Sale price');
  return text.charAt(0).toUpperCase() + text.slice(1);
};

/**
 * The variant grid of the editor form -> the options and rows the variant writer takes, or the cells at
 * fault ("variants.3.sku"). The options come as one JSON field (`gridOptions`, the Options card's
 * state); each row as parallel inputs (variantRow: its variant and value labels; variantSku,
 * variantPrice, variantSalePrice, variantStock, variantStockSeen, variantImage; variantEnabled lists
 * the enabled rows' numbers), so the grid's cells post as plain fields. No `gridOptions`: no grid.
 */
export function gridFromForm(
  form: ProductEditorForm,
  currency: string,
): { ok: true; grid: VariantGridInput | null } | { ok: false; fieldErrors: GridErrors } {
  const raw = one(form, 'gridOptions');
  if (!raw) return { ok: true, grid: null };
  const errors: GridErrors = {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, fieldErrors: { variants: 'The options could not be read; reload the page.' } };
  }
  const options = variantOptionsInputSchema.safeParse(json);
  if (!options.success) {
    return { ok: false, fieldErrors: { variants: sentence(options.error.issues[0]?.message ?? 'Check the options.') } };
  }
  const rowsRaw = many(form, 'variantRow');
  const col = (name: string) => many(form, name);
  const [skus, prices, sales, stocks, seen, images] = [
    'variantSku',
    'variantPrice',
    'variantSalePrice',
    'variantStock',
    'variantStockSeen',
    'variantImage',
  ].map(col) as [string[], string[], string[], string[], string[], string[]];
  const enabled = new Set(many(form, 'variantEnabled'));
  const rows: VariantGridRow[] = [];
  rowsRaw.forEach((text, n) => {
    let head: z.infer<typeof gridRowSchema>;
    try {
      head = gridRowSchema.parse(JSON.parse(text));
    } catch {
      errors[variantGridErrorKey(n, 'values')] = 'This row could not be read; reload the page.';
      return;
    }
    const cell = (c: VariantGridCell, m: string) => {
      errors[variantGridErrorKey(n, c)] ??= m;
    };
    const money = (text: string | undefined, c: 'listPrice' | 'salePrice') => {
      const t = (text ?? '').trim();
      if (!t) {
        if (c === 'listPrice') cell(c, 'Enter a price, like 12.50.');
        return null;
      }
      const parsed = parseDecimalMoney(t, currency);
      if (!parsed.ok) {
        cell(c, sentence(parsed.message));
        return null;
      }
      return parsed.minor;
    };
    const whole = (text: string | undefined): number | undefined | null => {
      const t = (text ?? '').trim();
      if (!t) return undefined;
      return /^\d{1,9}$/.test(t) ? Number(t) : null;
    };
    const listPrice = money(prices[n], 'listPrice');
    const salePrice = money(sales[n], 'salePrice');
    const stock = whole(stocks[n]);
    if (stock === null) cell('stock', 'Enter a whole number, like 12.');
    const stockSeen = whole(seen[n]);
    const image = (images[n] ?? '').trim();
    const candidate = {
      ...(head.variantId ? { variantId: head.variantId } : {}),
      values: head.values,
      sku: (skus[n] ?? '').trim(),
      listPrice: listPrice ?? 0,
      salePrice,
      enabled: enabled.has(String(n)),
      imageIds: image ? [image] : [],
      ...(typeof stock === 'number' ? { stock } : {}),
      ...(typeof stockSeen === 'number' && head.variantId ? { stockSeen } : {}),
    };
    const parsed = productVariantWriteSchema.safeParse(candidate);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        cell(GRID_CELL_OF[String(issue.path[0])] ?? 'sku', sentence(issue.message));
      }
      return;
    }
    rows.push({ ...parsed.data, values: head.values });
  });
  // Two rows with one SKU would be refused by the writer on the second; say so before writing.
  const seenSku = new Map<string, number>();
  skus.forEach((sku, n) => {
    const key = sku.trim().toLowerCase();
    if (!key) return;
    const first = seenSku.get(key);
    if (first !== undefined) errors[variantGridErrorKey(n, 'sku')] ??= `Row ${first + 1} has this SKU too.`;
    else seenSku.set(key, n);
  });
  if (options.data.length && !rowsRaw.length) errors.variants = 'Keep at least one variant.';
  if (Object.keys(errors).length) {
    errors.variants ??= 'Check the variants marked below.';
    return { ok: false, fieldErrors: errors };
  }
  return { ok: true, grid: { options: options.data, rows } };
}

/** The product's own SKU and prices for a product whose variants carry them: kept as the variants make them. */
function withVariantFields(
  form: ProductEditorForm,
  grid: VariantGridInput,
  current: { sku: string; listPrice: number; salePrice: number | null } | null,
  currency: string,
): ProductEditorForm {
  const first = grid.rows[0];
  const own = current ?? {
    sku: first?.sku ?? '',
    listPrice: first?.listPrice ?? 0,
    salePrice: first?.salePrice ?? null,
  };
  const { initialStock: _initialStock, ...rest } = form;
  return {
    ...rest,
    sku: own.sku,
    listPrice: decimalAmount(own.listPrice, currency),
    salePrice: own.salePrice == null ? '' : decimalAmount(own.salePrice, currency),
  };
}

/** The product editor page's functions; each checks the catalog permission itself. */
export function productAdminPages(deps: { productAdmin: ProductAdminService }): PageModule<ProductEditorPages> {
  const { productAdmin } = deps;
  return (page) => {
    const { ctx } = page;
    const fail = (fieldErrors: Partial<Record<ProductEditorField, string>>): FormOutcome<ProductEditorField> => ({
      ok: false,
      status: 400,
      message: FIELDS_MESSAGE,
      fieldErrors,
    });
    return {
      async productEditor(productId) {
        requireAccess(ctx, 'catalog');
        const [product, categories, currency, library, variants] = await Promise.all([
          productId ? productAdmin.view(ctx, productId) : null,
          productAdmin.categories(ctx),
          productAdmin.currency(ctx),
          productAdmin.library(ctx),
          productId ? productAdmin.variants(ctx, productId) : null,
        ]);
        if (productId && !product) return null;
        return {
          product,
          categories,
          currency: product?.currencyUomId ?? currency,
          library: library.items.map((i) => ({ mediaId: i.mediaId, url: i.url, altText: i.altText })),
          variants,
        };
      },

      saveProductForm(productId, form, files) {
        requireAccess(ctx, 'catalog');
        return submitForm(PRODUCT_EDITOR_FIELDS, async () => {
          page.assertFormFromStore();
          const current = productId ? await productAdmin.view(ctx, productId) : null;
          const currency = current?.currencyUomId ?? (await productAdmin.currency(ctx));
          const skus = one(form, 'relatedSkus')
            .split(/[\s,]+/)
            .filter(Boolean);
          const relatedIds = await productAdmin.idsForSkus(ctx, skus);
          const grid = gridFromForm(form, currency);
          // With options, the variants carry the SKU and prices: the product's own are not posted.
          const posted =
            grid.ok && grid.grid?.options.length ? withVariantFields(form, grid.grid, current, currency) : form;
          const parsed = editorPayloadFromForm(posted, { currency, creating: !productId, relatedIds });
          if (!parsed.ok || !grid.ok) {
            return fail({
              ...(parsed.ok ? {} : parsed.fieldErrors),
              ...(grid.ok ? {} : grid.fieldErrors),
            } as Partial<Record<ProductEditorField, string>>);
          }
          // Pictures posted with the form go through the media library's one pipeline, then join the list.
          for (const bytes of files.images) {
            try {
              const media = await productAdmin.uploadImage(ctx, Buffer.from(bytes));
              parsed.payload.images?.push({ mediaId: media.mediaId, altText: null });
            } catch (err) {
              const field = (err as { field?: string }).field;
              if (field === 'file') return fail({ newImages: (err as { fieldMessage?: string }).fieldMessage });
              throw err;
            }
          }
          const saved = await productAdmin.save(
            ctx,
            productId,
            productEditorInputSchema.parse(parsed.payload),
            grid.grid ?? undefined,
          );
          if (!saved.ok) {
            // A refused grid cell ("variants.3.sku") is marked in its row, and the card says why.
            if (saved.field?.startsWith('variants.')) {
              return {
                ok: false as const,
                status: saved.status,
                message: saved.formMessage ?? FIELDS_MESSAGE,
                fieldErrors: { variants: saved.formMessage, [saved.field]: saved.fieldMessage } as Partial<
                  Record<ProductEditorField, string>
                >,
              };
            }
            return formRefusal(saved, PRODUCT_EDITOR_FIELDS);
          }
          const view = saved.value;
          if (files.content) {
            try {
              await productAdmin.addContent(ctx, view.productId, files.content.bytes, {
                fileName: files.content.fileName,
                title: files.content.title,
              });
            } catch (err) {
              const e = err as { field?: string; fieldMessage?: string };
              if (e.field === 'contentFile') {
                return {
                  ok: false as const,
                  status: 422 as const,
                  message: 'The product was saved, but the download was not added.',
                  fieldErrors: { contentFile: e.fieldMessage },
                };
              }
              throw err;
            }
          }
          return {
            ok: true as const,
            productId: view.productId,
            message: productId ? 'Product saved.' : 'Product created.',
          };
        });
      },

      duplicateProduct(productId, sku) {
        requireAccess(ctx, 'catalog');
        return submitForm(PRODUCT_EDITOR_FIELDS, async () => {
          page.assertFormFromStore();
          const copied = await productAdmin.duplicate(ctx, productId, { sku: sku || undefined });
          if (!copied.ok) return formRefusal(copied, PRODUCT_EDITOR_FIELDS);
          return {
            ok: true as const,
            productId: copied.value.productId,
            message: `Copied as a draft with SKU ${copied.value.sku}.`,
          };
        });
      },

      deleteProduct(productId) {
        requireAccess(ctx, 'catalog');
        return submitForm(['productId'] as const, async () => {
          page.assertFormFromStore();
          const r = await productAdmin.remove(ctx, productId);
          return {
            ok: true as const,
            outcome: r.outcome,
            message:
              r.outcome === 'deleted'
                ? 'Product deleted.'
                : 'Orders include this product, so it was archived instead of deleted. Shoppers no longer see it.',
          };
        });
      },

      removeProductContent(productId, contentId) {
        requireAccess(ctx, 'catalog');
        return submitForm(PRODUCT_EDITOR_FIELDS, async () => {
          page.assertFormFromStore();
          await productAdmin.removeContent(ctx, productId, contentId);
          return { ok: true as const, productId, message: 'Download removed.' };
        });
      },
    };
  };
}
