import {
  MAX_STOCK,
  PRODUCT_STATUSES,
  type ProductFields,
  type ProductStatus,
  parseDecimalMoney,
  productFieldsSchema,
} from './product-admin';
import {
  CSV_CATEGORY_SEPARATOR,
  CSV_IMAGE_SEPARATOR,
  CSV_OPTION_COLUMNS,
  PRODUCT_CSV_COLUMNS,
  PRODUCT_CSV_PRODUCT_COLUMNS,
  PRODUCT_CSV_REQUIRED,
  type ProductCsvColumn,
} from './product-csv';
import { TAX_CLASSES, type TaxClass } from './tax-display';

/**
 * Reading the product CSV (the format of product-csv.ts, which the export writes): the header, then
 * each row into the product fields writeProduct takes. Tokenising (quotes, newlines in fields, BOM)
 * is the CSV library's, on the server; this file turns cells into fields, the same for the dry run
 * and the real run, so the dry run refuses exactly what the run will refuse.
 */

/** One problem of one row, as the error report lists it (row 1 = the first row after the header). */
export interface ProductCsvProblem {
  row: number;
  column: string;
  message: string;
}

export type ProductCsvHeader =
  | { ok: true; columns: ProductCsvColumn[] }
  | { ok: false; problems: { column: string; message: string }[] };

/** Checks the header row: every column known, none twice, the required ones present. */
export function parseProductCsvHeader(cells: readonly string[]): ProductCsvHeader {
  const problems: { column: string; message: string }[] = [];
  const known = new Set<string>(PRODUCT_CSV_COLUMNS);
  const seen = new Set<string>();
  const columns: ProductCsvColumn[] = [];
  cells.forEach((raw, i) => {
    const name = raw.trim().toLowerCase();
    if (!known.has(name)) {
      problems.push({
        column: raw.trim() || `column ${i + 1}`,
        message: `Unknown column "${raw.trim()}" (column ${i + 1}). The columns are: ${PRODUCT_CSV_COLUMNS.join(', ')}.`,
      });
      return;
    }
    if (seen.has(name)) {
      problems.push({ column: name, message: `Column "${name}" appears twice.` });
      return;
    }
    seen.add(name);
    columns.push(name as ProductCsvColumn);
  });
  const missing = PRODUCT_CSV_REQUIRED.filter((c) => !seen.has(c));
  if (missing.length) {
    problems.push({
      column: missing.join(', '),
      message: `Missing required column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}.`,
    });
  }
  return problems.length ? { ok: false, problems } : { ok: true, columns };
}

/** What a product holds today, for the columns a file leaves out (an update keeps them). */
export interface ProductCsvExisting {
  productId: string;
  fields: ProductFields;
  stockQuantity: number;
  /** Its tax class (decision 116): not a product field, the products domain writes it apart. */
  taxClass?: TaxClass;
}

export type ProductCsvRow =
  | {
      ok: true;
      sku: string;
      fields: ProductFields;
      /** The stock to set, or null to leave it (the column absent or empty). */
      stock: number | null;
      /** The tax class to set, or null to leave it (the column absent or empty; standard on create). */
      taxClass: TaxClass | null;
    }
  | { ok: false; sku: string | null; problems: { column: string; message: string }[] };

/** The CSV column each product field comes from, for naming the column of a refusal. */
const COLUMN_OF_FIELD: Record<string, ProductCsvColumn> = {
  productName: 'name',
  slug: 'slug',
  sku: 'sku',
  brandName: 'brand',
  shortDescription: 'short_description',
  description: 'description',
  listPrice: 'list_price',
  salePrice: 'sale_price',
  currencyUomId: 'currency',
  status: 'status',
  weightGrams: 'weight_grams',
  isFeatured: 'featured',
  seoTitle: 'seo_title',
  seoDescription: 'seo_description',
  categoryIds: 'categories',
};

const TRUE = new Set(['true', 'yes', '1', 'y']);
const FALSE = new Set(['false', 'no', '0', 'n', '']);

/**
 * One data row into product fields. `cells` holds the row's values by column (only the header's
 * columns); `existing` is the product with that SKU, if any: columns the file leaves out keep its
 * values, while a new product gets the defaults (active, not featured, no stock). An empty cell in
 * a column the file has clears that field (an empty `stock` leaves the count as it is).
 */
export function parseProductCsvRow(
  cells: Partial<Record<ProductCsvColumn, string>>,
  existing: ProductCsvExisting | null,
  storeCurrency: string,
): ProductCsvRow {
  const problems: { column: string; message: string }[] = [];
  const has = (c: ProductCsvColumn) => cells[c] !== undefined;
  const cell = (c: ProductCsvColumn) => (cells[c] ?? '').trim();
  const sku = cell('sku') || null;
  const base: Partial<ProductFields> = existing ? { ...existing.fields } : {};
  // Categories absent from the file are left as they are (writeProduct leaves them when undefined).
  delete base.categoryIds;

  const currencyText = has('currency') ? cell('currency').toUpperCase() : '';
  const currency = currencyText || existing?.fields.currencyUomId || storeCurrency;
  if (currencyText && !/^[A-Z]{3}$/.test(currencyText)) {
    problems.push({ column: 'currency', message: `"${cell('currency')}" is not a three-letter currency code (USD).` });
  }

  if (!sku) problems.push({ column: 'sku', message: 'A SKU is required: products are matched by it.' });
  if (!cell('name')) problems.push({ column: 'name', message: 'A name is required.' });
  const input: Record<string, unknown> = { ...base };
  input.sku = cell('sku');
  input.productName = cell('name');
  // An empty slug makes one from the name on create, and keeps the product's address on update.
  if (has('slug') && cell('slug') !== '') input.slug = cell('slug').toLowerCase();
  else if (!existing) input.slug = '';
  if (has('status')) {
    const s = cell('status').toUpperCase();
    if (s === '') input.status = existing?.fields.status ?? 'ACTIVE';
    else if ((PRODUCT_STATUSES as readonly string[]).includes(s)) input.status = s as ProductStatus;
    else
      problems.push({
        column: 'status',
        message: `"${cell('status')}" is not a status: use ${PRODUCT_STATUSES.join(', ')}.`,
      });
  } else if (!existing) input.status = 'ACTIVE';
  if (has('brand')) input.brandName = cell('brand') || null;
  if (has('short_description')) input.shortDescription = cell('short_description') || null;
  // The description keeps its inner line breaks: only the ends are trimmed.
  if (has('description')) input.description = cell('description') || null;
  if (has('seo_title')) input.seoTitle = cell('seo_title') || null;
  if (has('seo_description')) input.seoDescription = cell('seo_description') || null;
  if (currencyText) input.currencyUomId = currencyText;

  const price = (column: 'list_price' | 'sale_price', field: 'listPrice' | 'salePrice', required: boolean) => {
    const t = cell(column);
    if (t === '') {
      if (required) problems.push({ column, message: 'A price is required.' });
      else input[field] = null;
      return;
    }
    const m = parseDecimalMoney(t, currency);
    if (m.ok) input[field] = m.minor;
    else problems.push({ column, message: m.message });
  };
  price('list_price', 'listPrice', true);
  if (has('sale_price')) price('sale_price', 'salePrice', false);

  if (has('weight_grams')) {
    const t = cell('weight_grams');
    if (t === '') input.weightGrams = null;
    else if (/^\d{1,9}$/.test(t)) input.weightGrams = Number(t);
    else problems.push({ column: 'weight_grams', message: `"${t}" is not a weight: write whole grams (250).` });
  }
  if (has('featured')) {
    const t = cell('featured').toLowerCase();
    if (TRUE.has(t)) input.isFeatured = true;
    else if (FALSE.has(t)) input.isFeatured = false;
    else problems.push({ column: 'featured', message: `"${cell('featured')}" is not true or false.` });
  }
  if (has('categories')) {
    input.categoryIds = cell('categories')
      .split(CSV_CATEGORY_SEPARATOR)
      .map((s) => s.trim())
      .filter(Boolean);
  }

  let stock: number | null = null;
  if (has('stock') && cell('stock') !== '') {
    const t = cell('stock');
    if (!/^\d{1,9}$/.test(t))
      problems.push({ column: 'stock', message: `"${t}" is not a stock count: write a whole number (12).` });
    else if (Number(t) > MAX_STOCK)
      problems.push({ column: 'stock', message: `${t} is more stock than a product may hold (${MAX_STOCK}).` });
    else stock = Number(t);
  }

  let taxClass: TaxClass | null = null;
  if (has('tax_class') && cell('tax_class') !== '') {
    const t = cell('tax_class').toLowerCase();
    if ((TAX_CLASSES as readonly string[]).includes(t)) taxClass = t as TaxClass;
    else
      problems.push({
        column: 'tax_class',
        message: `"${cell('tax_class')}" is not a tax class: use ${TAX_CLASSES.join(', ')}.`,
      });
  }

  const parsed = productFieldsSchema.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '');
      const column = COLUMN_OF_FIELD[field] ?? field;
      // A price already refused above is not refused twice.
      if (problems.some((p) => p.column === column)) continue;
      problems.push({ column, message: issue.message });
    }
  }
  if (problems.length || !parsed.success) return { ok: false, sku, problems };
  return { ok: true, sku: parsed.data.sku, fields: parsed.data, stock, taxClass };
}

/** The fields an update would change, by CSV column (for the dry run's "updated" list). */
export function changedProductCsvColumns(
  existing: ProductCsvExisting,
  next: ProductFields,
  existingCategoryIds: readonly string[] | null,
  stock: number | null,
  taxClass: TaxClass | null = null,
): string[] {
  const out: string[] = [];
  const before = existing.fields as Record<string, unknown>;
  const after = next as Record<string, unknown>;
  for (const [field, column] of Object.entries(COLUMN_OF_FIELD)) {
    if (field === 'categoryIds' || field === 'slug') continue;
    if (!(field in after)) continue;
    const a = before[field] ?? null;
    const b = after[field] ?? null;
    if (field === 'isFeatured' && (a ?? false) === (b ?? false)) continue;
    if (a !== b) out.push(column);
  }
  if (next.slug && next.slug !== existing.fields.slug) out.push('slug');
  if (next.categoryIds && existingCategoryIds) {
    const x = [...new Set(next.categoryIds)].sort().join('|');
    const y = [...existingCategoryIds].sort().join('|');
    if (x !== y) out.push('categories');
  }
  if (stock !== null && stock !== existing.stockQuantity) out.push('stock');
  if (taxClass !== null && taxClass !== (existing.taxClass ?? 'standard')) out.push('tax_class');
  return out;
}

/** The template owners download: the header, a single-variant product and a product with two variants. */
export function productCsvTemplate(currency = 'USD'): string {
  const rows: Partial<Record<ProductCsvColumn, string>>[] = [
    {
      name: 'Brass Floor Lamp, 60"',
      status: 'ACTIVE',
      brand: 'Lumen',
      currency,
      featured: 'false',
      tax_class: 'standard',
      short_description: 'A warm light for reading corners.',
      description: '<p>Solid brass.\nDimmable.</p>',
      sku: 'LAMP-001',
      list_price: '129.00',
      sale_price: '99.50',
      stock: '12',
      weight_grams: '4200',
      enabled: 'true',
    },
    {
      name: 'Pendant',
      status: 'ACTIVE',
      currency,
      featured: 'false',
      option1_name: 'Finish',
      option1_value: 'Brass',
      sku: 'PEND-BRASS',
      list_price: '89.00',
      stock: '4',
      enabled: 'true',
    },
    { option1_value: 'Black', sku: 'PEND-BLACK', list_price: '79.00', stock: '0', enabled: 'true' },
  ];
  const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = rows.map((r) => PRODUCT_CSV_COLUMNS.map((c) => quote(r[c] ?? '')).join(','));
  return `${PRODUCT_CSV_COLUMNS.join(',')}\r\n${lines.join('\r\n')}\r\n`;
}

/** Whether the row names a product (any product column filled): else it is another variant of the row above's. */
export function startsProduct(cells: Partial<Record<ProductCsvColumn, string>>): boolean {
  return PRODUCT_CSV_PRODUCT_COLUMNS.some((c) => (cells[c] ?? '').trim() !== '');
}

/**
 * A later row of a product that repeats a product column: the same value is accepted (a file
 * sorted or filled down in a spreadsheet), a different one is refused, naming the first row.
 */
export function repeatedProductProblems(
  first: Partial<Record<ProductCsvColumn, string>>,
  firstRow: number,
  cells: Partial<Record<ProductCsvColumn, string>>,
): { column: string; message: string }[] {
  const out: { column: string; message: string }[] = [];
  for (const c of PRODUCT_CSV_PRODUCT_COLUMNS) {
    const v = (cells[c] ?? '').trim();
    if (v === '' || v === (first[c] ?? '').trim()) continue;
    out.push({
      column: c,
      message: `"${v}" differs from row ${firstRow}, this product's first row; a product's columns are given once, on its first row.`,
    });
  }
  for (const [name] of CSV_OPTION_COLUMNS) {
    const v = (cells[name] ?? '').trim();
    if (v !== '' && v.toLowerCase() !== (first[name] ?? '').trim().toLowerCase()) {
      out.push({
        column: name,
        message: `"${v}" differs from row ${firstRow}, where this product's options are named.`,
      });
    }
  }
  return out;
}

/** A variant as one row gives it; a field is undefined when its column is not in the file. */
export interface ProductCsvVariant {
  /** Option values in order (empty for a product without options). */
  values: string[];
  variantId: string | null;
  sku: string;
  barcode: string | null | undefined;
  listPrice: number;
  salePrice: number | null | undefined;
  /** The count to reach, or null to leave it (column absent or cell empty). */
  stock: number | null;
  weightGrams: number | null | undefined;
  enabled: boolean | undefined;
  /** Picture URLs (among the product's), in order. */
  images: string[] | undefined;
}

/** The variant columns of one row, checked: prices in `currency`, whole counts, true/false, digits for a barcode. */
export function parseProductCsvVariant(
  cells: Partial<Record<ProductCsvColumn, string>>,
  currency: string,
): { ok: true; variant: ProductCsvVariant } | { ok: false; problems: { column: string; message: string }[] } {
  const problems: { column: string; message: string }[] = [];
  const has = (c: ProductCsvColumn) => cells[c] !== undefined;
  const cell = (c: ProductCsvColumn) => (cells[c] ?? '').trim();
  const values: string[] = [];
  let gap = false;
  for (const [, valueColumn] of CSV_OPTION_COLUMNS) {
    const v = cell(valueColumn);
    if (v === '') gap = true;
    else if (gap) problems.push({ column: valueColumn, message: 'Fill the option values in order, first to third.' });
    else if (v.length > 60)
      problems.push({ column: valueColumn, message: 'An option value is at most 60 characters.' });
    else values.push(v);
  }
  const variantId = cell('variant_id') || null;
  if (variantId && !/^[A-Za-z0-9_.-]{1,64}$/.test(variantId)) {
    problems.push({ column: 'variant_id', message: `"${variantId}" is not a variant id.` });
  }
  const sku = cell('sku');
  if (!sku) problems.push({ column: 'sku', message: 'A SKU is required: variants are matched by it.' });
  else if (!/^[A-Za-z0-9_.\-/]{1,64}$/.test(sku)) {
    problems.push({ column: 'sku', message: 'A SKU is up to 64 letters, digits and . _ - /.' });
  }
  let barcode: string | null | undefined;
  if (has('barcode')) {
    const t = cell('barcode');
    if (t === '') barcode = null;
    else if (/^[0-9]{8,14}$/.test(t)) barcode = t;
    else problems.push({ column: 'barcode', message: `"${t}" is not a barcode: 8 to 14 digits (GTIN, UPC or EAN).` });
  }
  const money = (column: 'list_price' | 'sale_price'): number | null => {
    const t = cell(column);
    if (t === '') return null;
    const m = parseDecimalMoney(t, currency);
    if (m.ok) return m.minor;
    problems.push({ column, message: m.message });
    return null;
  };
  const listPrice = money('list_price');
  if (listPrice === null && cell('list_price') === '')
    problems.push({ column: 'list_price', message: 'A price is required.' });
  const salePrice = has('sale_price') ? money('sale_price') : undefined;
  if (salePrice != null && listPrice !== null && salePrice > listPrice) {
    problems.push({ column: 'sale_price', message: 'A sale price cannot be more than the list price.' });
  }
  let stock: number | null = null;
  if (cell('stock') !== '') {
    const t = cell('stock');
    if (!/^\d{1,9}$/.test(t) || Number(t) > MAX_STOCK) {
      problems.push({ column: 'stock', message: `"${t}" is not a stock count: write a whole number (12).` });
    } else stock = Number(t);
  }
  let weightGrams: number | null | undefined;
  if (has('weight_grams')) {
    const t = cell('weight_grams');
    if (t === '') weightGrams = null;
    else if (/^\d{1,8}$/.test(t)) weightGrams = Number(t);
    else problems.push({ column: 'weight_grams', message: `"${t}" is not a weight: write whole grams (250).` });
  }
  let enabled: boolean | undefined;
  if (has('enabled')) {
    const t = cell('enabled').toLowerCase();
    if (t === '' || TRUE.has(t)) enabled = true;
    else if (FALSE.has(t)) enabled = false;
    else problems.push({ column: 'enabled', message: `"${cell('enabled')}" is not true or false.` });
  }
  const images = has('variant_images') ? splitImages(cell('variant_images')) : undefined;
  if (problems.length || listPrice === null) return { ok: false, problems };
  return {
    ok: true,
    variant: { values, variantId, sku, barcode, listPrice, salePrice, stock, weightGrams, enabled, images },
  };
}

/** A cell of picture URLs, `|`-separated. */
export function splitImages(cell: string): string[] {
  return cell
    .split(CSV_IMAGE_SEPARATOR)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The media storage key of a picture URL of this platform (`/media/<key>`, or an absolute URL to it); null otherwise. */
export function mediaKeyOfUrl(url: string): string | null {
  let path = url;
  if (/^https?:\/\//i.test(url)) {
    try {
      path = new URL(url).pathname;
    } catch {
      return null;
    }
  }
  const m = /^\/media\/([A-Za-z0-9_./-]+)$/.exec(path);
  return m && !m[1]?.includes('..') ? (m[1] as string) : null;
}
