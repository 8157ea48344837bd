import { randomBytes } from 'node:crypto';
import { type ProductFields, slugifyName } from '@app/contracts';
import { schema, type Tx } from '@app/db';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { RequestContext } from '../../lib/context';
import { sanitizeCmsHtml } from '../../lib/sanitize';
import type { AuditService } from '../audit/index';

const p = schema.products;
const pc = schema.productCategories;
const c = schema.categories;
const ps = schema.productStores;
const sh = schema.productSlugHistory;

/** An expected refusal of a product write, naming the field (the editor shows it there, the import in its report). */
export type ProductWriteError =
  | { ok: false; code: 'SLUG_TAKEN'; field: 'slug'; message: string }
  | { ok: false; code: 'SKU_TAKEN'; field: 'sku'; message: string }
  | { ok: false; code: 'CATEGORY_NOT_FOUND'; field: 'categoryIds'; message: string }
  | { ok: false; code: 'PRODUCT_NOT_FOUND'; field: 'productId'; message: string };

export type ProductWriteResult =
  | { ok: true; productId: string; created: boolean; slug: string; changed: boolean }
  | ProductWriteError;

/** The audited form of a product row: its own fields, as the audit log compares them. */
export type ProductRow = typeof p.$inferSelect;
const AUDITED = [
  'productName',
  'slug',
  'sku',
  'brandName',
  'shortDescription',
  'description',
  'listPrice',
  'salePrice',
  'currencyUomId',
  'status',
  'weightGrams',
  'isFeatured',
  'seoTitle',
  'seoDescription',
  'categoryNames',
] as const;
export function auditedProduct(row: Partial<ProductRow>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of AUDITED) if (k in row) out[k] = row[k] ?? null;
  return out;
}

/** A new product's id: short, URL-safe, unguessable enough that ids do not leak the catalog's size. */
export function newProductId(): string {
  return `P${randomBytes(8).toString('hex').toUpperCase()}`;
}

/**
 * Creates or updates one product's own row and its categories, in the caller's transaction, with one
 * audit entry: the write every way in shares (the editor, the CSV import, duplicate). The caller
 * emits `catalog.changed` with the id after commit. Stock is not written here (inventory's
 * changeStock is the one writer of stock); images, options and the rest are the editor's.
 *
 * Slugs and SKUs are unique per store: a slug the owner typed that another product holds is refused;
 * one made from the name gets -2, -3... A changed slug is kept in the history, so the old address
 * redirects. The description is sanitised here, so no way in can store a script.
 */
export async function writeProduct(
  tx: Tx,
  ctx: RequestContext,
  deps: { audit: AuditService },
  input: { productId?: string; fields: ProductFields },
): Promise<ProductWriteResult> {
  const f = input.fields;
  const [existing] = input.productId
    ? await tx
        .select()
        .from(p)
        .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, input.productId)))
        .for('update')
    : [];
  if (input.productId && !existing) {
    return { ok: false, code: 'PRODUCT_NOT_FOUND', field: 'productId', message: 'This product does not exist.' };
  }
  const productId = existing?.productId ?? newProductId();

  const [skuHolder] = await tx
    .select({ productId: p.productId })
    .from(p)
    .where(and(eq(p.tenantId, ctx.tenantId), eq(p.sku, f.sku), ne(p.productId, productId)))
    .limit(1);
  if (skuHolder) {
    return {
      ok: false,
      code: 'SKU_TAKEN',
      field: 'sku',
      message: `SKU ${f.sku} is already used by another product (${skuHolder.productId}).`,
    };
  }

  const slug = await chooseSlug(tx, ctx, productId, f);
  if (!slug.ok) return slug;

  let categoryNames = existing?.categoryNames ?? '';
  if (f.categoryIds) {
    const ids = [...new Set(f.categoryIds)];
    const found = ids.length
      ? await tx
          .select({ id: c.productCategoryId, name: c.categoryName, description: c.description })
          .from(c)
          .where(and(eq(c.tenantId, ctx.tenantId), inArray(c.productCategoryId, ids)))
          .orderBy(asc(c.productCategoryId))
      : [];
    const missing = ids.filter((id) => !found.some((r) => r.id === id));
    if (missing.length) {
      return {
        ok: false,
        code: 'CATEGORY_NOT_FOUND',
        field: 'categoryIds',
        message: `No category ${missing.join(', ')} in this store.`,
      };
    }
    categoryNames = found.map((r) => r.name ?? r.description ?? r.id).join(' ');
  }

  const currency =
    f.currencyUomId ??
    existing?.currencyUomId ??
    (
      await tx
        .select({ currency: ps.currencyUomId })
        .from(ps)
        .where(and(eq(ps.tenantId, ctx.tenantId), eq(ps.productStoreId, ctx.productStoreId)))
    )[0]?.currency ??
    'USD';

  const values = {
    productName: f.productName,
    slug: slug.slug,
    sku: f.sku,
    brandName: f.brandName ?? null,
    shortDescription: f.shortDescription ?? null,
    description: f.description ? sanitizeCmsHtml(f.description) : null,
    listPrice: f.listPrice,
    salePrice: f.salePrice ?? null,
    currencyUomId: currency,
    status: f.status,
    weightGrams: f.weightGrams ?? null,
    isFeatured: f.isFeatured ?? existing?.isFeatured ?? false,
    seoTitle: f.seoTitle ?? null,
    seoDescription: f.seoDescription ?? null,
    categoryNames,
  };

  if (existing) {
    const before = auditedProduct(existing);
    const after = auditedProduct(values);
    const changed = JSON.stringify(before) !== JSON.stringify(after);
    if (changed) {
      await tx
        .update(p)
        .set({ ...values, updatedAt: sql`now()` })
        .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, productId)));
    }
    if (existing.slug !== slug.slug) {
      // The old address keeps working (a redirect); a slug taken back by this product leaves the history.
      await tx
        .insert(sh)
        .values({ tenantId: ctx.tenantId, slug: existing.slug, productId })
        .onConflictDoUpdate({ target: [sh.tenantId, sh.slug], set: { productId, changedAt: sql`now()` } });
      await tx.delete(sh).where(and(eq(sh.tenantId, ctx.tenantId), eq(sh.slug, slug.slug)));
    }
    const categoriesChanged = f.categoryIds ? await setCategories(tx, ctx, productId, f.categoryIds) : false;
    await deps.audit.record(tx, ctx, { entity: 'product', entityId: productId, action: 'update', before, after });
    return { ok: true, productId, created: false, slug: slug.slug, changed: changed || categoriesChanged };
  }

  await tx.insert(p).values({ tenantId: ctx.tenantId, productId, ...values, stockQuantity: 0 });
  await tx.delete(sh).where(and(eq(sh.tenantId, ctx.tenantId), eq(sh.slug, slug.slug)));
  if (f.categoryIds) await setCategories(tx, ctx, productId, f.categoryIds);
  await deps.audit.record(tx, ctx, {
    entity: 'product',
    entityId: productId,
    action: 'create',
    after: auditedProduct(values),
  });
  return { ok: true, productId, created: true, slug: slug.slug, changed: true };
}

async function chooseSlug(
  tx: Tx,
  ctx: RequestContext,
  productId: string,
  f: ProductFields,
): Promise<{ ok: true; slug: string } | ProductWriteError> {
  const typed = f.slug?.trim();
  const base = typed || slugifyName(f.productName) || 'product';
  const holder = (slug: string) =>
    tx
      .select({ slug: p.slug })
      .from(p)
      .where(and(eq(p.tenantId, ctx.tenantId), eq(p.slug, slug), ne(p.productId, productId)))
      .limit(1);
  if (!(await holder(base)).length) return { ok: true, slug: base };
  if (typed) {
    return {
      ok: false,
      code: 'SLUG_TAKEN',
      field: 'slug',
      message: `The address /${base} is already used by another product; choose another slug.`,
    };
  }
  // Made from the name: the first free base-2, base-3... (unique index lookups, no scan).
  const numbered = await tx
    .select({ slug: p.slug })
    .from(p)
    .where(and(eq(p.tenantId, ctx.tenantId), sql`${p.slug} ~ ${`^${base}-[0-9]+$`}`, ne(p.productId, productId)));
  const taken = new Set(numbered.map((h) => h.slug));
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return { ok: true, slug: candidate };
  }
}

/** Puts the product in exactly these categories; true when that changed anything. */
async function setCategories(tx: Tx, ctx: RequestContext, productId: string, categoryIds: string[]): Promise<boolean> {
  const want = new Set(categoryIds);
  const have = await tx
    .select({ id: pc.productCategoryId })
    .from(pc)
    .where(and(eq(pc.tenantId, ctx.tenantId), eq(pc.productId, productId)));
  const drop = have.filter((r) => !want.has(r.id)).map((r) => r.id);
  const add = [...want].filter((id) => !have.some((r) => r.id === id));
  if (drop.length) {
    await tx
      .delete(pc)
      .where(and(eq(pc.tenantId, ctx.tenantId), eq(pc.productId, productId), inArray(pc.productCategoryId, drop)));
  }
  if (add.length) {
    await tx.insert(pc).values(add.map((id) => ({ tenantId: ctx.tenantId, productId, productCategoryId: id })));
  }
  return drop.length > 0 || add.length > 0;
}
