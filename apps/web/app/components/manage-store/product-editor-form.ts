import type { ProductEditorField, ProductEditorForm, ProductEditorView } from '@app/contracts';
import { decimalAmount } from '@app/contracts/client';

/** The product editor's form values and rows (product-editor*.tsx); plain functions, tested alone. */

export type Errors = Partial<Record<ProductEditorField, string>>;

export const STATUSES = [
  { value: 'DRAFT', label: 'Draft', hint: 'Not on the storefront yet.' },
  { value: 'ACTIVE', label: 'Active', hint: 'For sale on the storefront.' },
  { value: 'ARCHIVED', label: 'Archived', hint: 'Kept for orders; shoppers do not see it.' },
] as const;

/** The form's values from the saved product (or blank for a new one), as the inputs show them. */
export function formFromView(v: ProductEditorView | null, currency: string): ProductEditorForm {
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

export const str = (values: ProductEditorForm, name: string) => {
  const v = values[name];
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
};

export const list = (values: ProductEditorForm, name: string) => {
  const v = values[name];
  return Array.isArray(v) ? v : v ? [v] : [];
};

/**
 * How many rows of a repeated pair (option name + choices, feature label + value) to show: every row
 * up to the last one with something in it, then `blank` empty ones to add. A refused save comes back
 * with the blank rows it was sent with; counting them as rows added more blanks at every refusal.
 */
export function rowsToShow(first: readonly string[], second: readonly string[], blank: number): number {
  let filled = 0;
  for (let i = 0; i < Math.max(first.length, second.length); i++) {
    if ((first[i] ?? '').trim() || (second[i] ?? '').trim()) filled = i + 1;
  }
  return filled + blank;
}
