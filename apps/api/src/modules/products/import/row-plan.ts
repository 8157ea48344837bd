import {
  changedProductCsvColumns,
  type ProductCsvExisting,
  type ProductFields,
  parseProductCsvRow,
  type TaxClass,
} from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, eq, inArray } from 'drizzle-orm';
import { storedOwnerHtml } from '../../../lib/sanitize';
import type { DataRow } from './csv-file';

export const pi = schema.productImports;
export const pie = schema.productImportErrors;
export const p = schema.products;
export const pc = schema.productCategories;
export const c = schema.categories;
export const ps = schema.productStores;

export const FIELD_COLUMNS = {
  productId: p.productId,
  productName: p.productName,
  slug: p.slug,
  sku: p.sku,
  brandName: p.brandName,
  shortDescription: p.shortDescription,
  description: p.description,
  listPrice: p.listPrice,
  salePrice: p.salePrice,
  currencyUomId: p.currencyUomId,
  status: p.status,
  weightGrams: p.weightGrams,
  isFeatured: p.isFeatured,
  seoTitle: p.seoTitle,
  seoDescription: p.seoDescription,
  stockQuantity: p.stockQuantity,
  taxClass: p.taxClass,
};
export type FieldRow = { [K in keyof typeof FIELD_COLUMNS]: (typeof FIELD_COLUMNS)[K]['_']['data'] | null };

export function existingOf(r: FieldRow, categoryIds: string[]): ProductState {
  const fields: ProductFields = {
    productName: r.productName ?? '',
    slug: r.slug ?? '',
    sku: r.sku ?? '',
    brandName: r.brandName,
    shortDescription: r.shortDescription,
    description: r.description,
    listPrice: r.listPrice ?? 0,
    salePrice: r.salePrice,
    currencyUomId: r.currencyUomId ?? undefined,
    status: r.status ?? 'ACTIVE',
    weightGrams: r.weightGrams,
    isFeatured: r.isFeatured ?? false,
    seoTitle: r.seoTitle,
    seoDescription: r.seoDescription,
  };
  return {
    productId: r.productId as string,
    fields,
    stockQuantity: r.stockQuantity ?? 0,
    categoryIds,
    taxClass: r.taxClass ?? 'standard',
  };
}

/** A product as the plan compares a row with it: its fields, stock and categories. */
export interface ProductState extends ProductCsvExisting {
  categoryIds: string[];
}

export type Problem = { column: string; message: string };

/**
 * What one row does (decision 074). The dry run and the run both decide it with planRow, against
 * the products as they are: the run writes only the rows planned as created or updated, so a row
 * the dry run calls unchanged is not written at all (no audit entry, no `updated_at`, no event).
 */
export type RowPlan =
  | { kind: 'refused'; sku: string | null; problems: Problem[] }
  /** `taxClass`: the class to write after the product (writeProduct has none), or null to leave it. */
  | { kind: 'create'; sku: string; fields: ProductFields; stock: number | null; taxClass: TaxClass | null }
  | {
      kind: 'update';
      sku: string;
      productId: string;
      fields: ProductFields;
      stock: number | null;
      taxClass: TaxClass | null;
      /** The CSV columns whose values change. */
      changes: string[];
    }
  | { kind: 'unchanged'; sku: string; productId: string };

export const NOT_UTF8 = 'This cell is not UTF-8 text: save the file as CSV UTF-8.';

/** What planRow checks a row against besides its product: the store's categories, who holds the slugs the rows type. */
export interface StoreFacts {
  categoryIds: ReadonlySet<string>;
  /** Slug → the product holding it (null: freed by an earlier row of the file). */
  slugHolders: ReadonlyMap<string, string | null>;
}

/**
 * One row's plan. The row's fields are compared in their stored form (the description as the
 * product writer keeps it), so a value written back as it was read is no change.
 */
export function planRow(r: DataRow, existing: ProductState | null, facts: StoreFacts, currency: string): RowPlan {
  if (r.notUtf8) {
    return { kind: 'refused', sku: r.cells.sku?.trim() || null, problems: [{ column: r.notUtf8, message: NOT_UTF8 }] };
  }
  const parsed = parseProductCsvRow(r.cells, existing, currency);
  if (!parsed.ok) return { kind: 'refused', sku: parsed.sku, problems: parsed.problems };
  const fields: ProductFields = {
    ...parsed.fields,
    description: parsed.fields.description ? storedOwnerHtml(parsed.fields.description) : parsed.fields.description,
  };
  const missing = (fields.categoryIds ?? []).filter((id) => !facts.categoryIds.has(id));
  if (missing.length) {
    return {
      kind: 'refused',
      sku: parsed.sku,
      problems: [{ column: 'categories', message: `No category ${missing.join(', ')} in this store.` }],
    };
  }
  // The product writer refuses a typed slug another product holds: the plan refuses it the same way.
  const holder = fields.slug ? facts.slugHolders.get(fields.slug) : null;
  if (fields.slug && holder && holder !== existing?.productId) {
    return {
      kind: 'refused',
      sku: parsed.sku,
      problems: [
        {
          column: 'slug',
          message: `The address /${fields.slug} is already used by another product; choose another slug.`,
        },
      ],
    };
  }
  // A new product is standard unless the row says otherwise: nothing to write for standard.
  if (!existing) {
    const taxClass = parsed.taxClass === 'standard' ? null : parsed.taxClass;
    return { kind: 'create', sku: parsed.sku, fields, stock: parsed.stock, taxClass };
  }
  const changes = changedProductCsvColumns(existing, fields, existing.categoryIds, parsed.stock, parsed.taxClass);
  if (!changes.length) return { kind: 'unchanged', sku: parsed.sku, productId: existing.productId };
  const taxClass = changes.includes('tax_class') ? parsed.taxClass : null;
  return {
    kind: 'update',
    sku: parsed.sku,
    productId: existing.productId,
    fields,
    stock: parsed.stock,
    taxClass,
    changes,
  };
}

/** A planned row's slug moved as the writer moves it (the new one taken, the old one freed), for the rows after it. */
export function moveSlug(holders: Map<string, string | null>, plan: RowPlan, existing: ProductState | null) {
  if (plan.kind !== 'create' && plan.kind !== 'update') return;
  if (!plan.fields.slug || plan.fields.slug === existing?.fields.slug) return;
  if (existing?.fields.slug) holders.set(existing.fields.slug, null);
  holders.set(plan.fields.slug, plan.kind === 'update' ? plan.productId : (existing?.productId ?? `new:${plan.sku}`));
}

/** The state a planned row leaves its product in (what a later row of the file with its SKU meets). */
export function stateAfter(plan: RowPlan, before: ProductState | null): ProductState | null {
  if (plan.kind !== 'create' && plan.kind !== 'update') return before;
  return {
    productId: plan.kind === 'update' ? plan.productId : (before?.productId ?? `new:${plan.sku}`),
    fields: plan.fields,
    stockQuantity: plan.stock ?? before?.stockQuantity ?? 0,
    taxClass: plan.taxClass ?? before?.taxClass ?? 'standard',
    categoryIds: plan.fields.categoryIds ? [...new Set(plan.fields.categoryIds)] : (before?.categoryIds ?? []),
  };
}

/** The products of these SKUs with their categories, and the store's facts: what planRow compares with. */
export async function readStates(
  q: Db | Tx,
  tenantId: string,
  rows: readonly DataRow[],
): Promise<{
  bySku: Map<string, ProductState>;
  facts: { categoryIds: Set<string>; slugHolders: Map<string, string | null> };
}> {
  const skus = [...new Set(rows.map((r) => (r.cells.sku ?? '').trim()).filter(Boolean))];
  const found = skus.length
    ? await q
        .select(FIELD_COLUMNS)
        .from(p)
        .where(and(eq(p.tenantId, tenantId), inArray(p.sku, skus)))
    : [];
  const ids = found.map((r) => r.productId as string);
  const links = ids.length
    ? await q
        .select({ productId: pc.productId, id: pc.productCategoryId })
        .from(pc)
        .where(and(eq(pc.tenantId, tenantId), inArray(pc.productId, ids)))
    : [];
  const linked = new Map<string, string[]>();
  for (const l of links) linked.set(l.productId, [...(linked.get(l.productId) ?? []), l.id]);
  const categoryIds = new Set(
    (await q.select({ id: c.productCategoryId }).from(c).where(eq(c.tenantId, tenantId))).map((r) => r.id),
  );
  const slugs = [...new Set(rows.map((r) => (r.cells.slug ?? '').trim().toLowerCase()).filter(Boolean))];
  const slugHolders = new Map<string, string | null>(
    (slugs.length
      ? await q
          .select({ slug: p.slug, productId: p.productId })
          .from(p)
          .where(and(eq(p.tenantId, tenantId), inArray(p.slug, slugs)))
      : []
    ).map((r): [string, string | null] => [r.slug, r.productId]),
  );
  return {
    bySku: new Map(found.map((r) => [r.sku as string, existingOf(r, linked.get(r.productId as string) ?? [])])),
    facts: { categoryIds, slugHolders },
  };
}
