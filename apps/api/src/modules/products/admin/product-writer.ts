import { randomBytes } from 'node:crypto';
import { type ProductFields, slugifyName } from '@app/contracts';
import { insertDefaultVariants, schema, type Tx } from '@app/db';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { RequestContext } from '../../../lib/context';
import { storedOwnerHtml } from '../../../lib/sanitize';
import type { AuditRecordInput, AuditService } from '../../audit/index';
import { syncDefaultVariants } from './variant-rollup';

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

/** One product write: an update when `productId` is given, else a create. */
export interface ProductWriteInput {
  productId?: string;
  fields: ProductFields;
}

/**
 * Creates or updates one product's own row and its categories, in the caller's transaction, with one
 * audit entry: the write every way in shares (the editor, duplicate). A one-item `writeProducts`, so
 * the rules live in one place. The caller emits `catalog.changed` with the id after commit.
 */
export async function writeProduct(
  tx: Tx,
  ctx: RequestContext,
  deps: { audit: AuditService },
  input: ProductWriteInput,
): Promise<ProductWriteResult> {
  const [result] = await writeProducts(tx, ctx, deps, [input]);
  if (!result) throw new Error('writeProducts: no result for the product');
  return result;
}

/**
 * Creates or updates many products' own rows and categories in the caller's transaction, with one
 * audit entry per changed product (the CSV import writes its batches through this). Stock is not
 * written here (inventory's changeStock is the one writer of stock); images, options and the rest
 * are the editor's. The caller emits `catalog.changed` with the ids after commit.
 *
 * The inputs are written as if one after the other, and each gets its own result in input order: a
 * refused input writes nothing and the others are still written. Slugs and SKUs are unique per store,
 * also within the batch (the second of two new products with one SKU is refused; the second of two
 * with one name gets -2): a slug the owner typed that another product holds is refused; one made
 * from the name gets -2, -3... A changed slug is kept in the history, so the old address redirects.
 * The description is kept as the owner wrote it unless the allow-list would take something out
 * (then sanitised), so no way in can store a script and a value read back equals what was written.
 *
 * Set-based: a constant number of statements whatever the number of inputs (reads of the products,
 * SKUs, slugs, categories and memberships; one insert, one UPDATE ... FROM (VALUES ...), the slug
 * history, the memberships and the audit entries), so a 100-row import batch costs about what one
 * product does. The same product twice is written in two rounds (the second sees the first).
 */
export async function writeProducts(
  tx: Tx,
  ctx: RequestContext,
  deps: { audit: AuditService },
  inputs: readonly ProductWriteInput[],
): Promise<ProductWriteResult[]> {
  const results: ProductWriteResult[] = [];
  let round: ProductWriteInput[] = [];
  const seen = new Set<string>();
  for (const input of inputs) {
    if (input.productId && seen.has(input.productId)) {
      results.push(...(await writeRound(tx, ctx, deps, round)));
      round = [];
      seen.clear();
    }
    if (input.productId) seen.add(input.productId);
    round.push(input);
  }
  if (round.length) results.push(...(await writeRound(tx, ctx, deps, round)));
  return results;
}

type Values = {
  productName: string;
  slug: string;
  sku: string;
  brandName: string | null;
  shortDescription: string | null;
  description: string | null;
  listPrice: number;
  salePrice: number | null;
  currencyUomId: string;
  status: ProductRow['status'];
  weightGrams: number | null;
  isFeatured: boolean;
  seoTitle: string | null;
  seoDescription: string | null;
  categoryNames: string;
};

/** Inputs naming distinct products: read everything once, decide in memory in input order, write once. */
async function writeRound(
  tx: Tx,
  ctx: RequestContext,
  deps: { audit: AuditService },
  inputs: readonly ProductWriteInput[],
): Promise<ProductWriteResult[]> {
  const t = ctx.tenantId;
  const ids = [...new Set(inputs.flatMap((i) => (i.productId ? [i.productId] : [])))].sort();
  // Locked in id order, so two writers of the same products cannot deadlock.
  const locked = ids.length
    ? await tx
        .select()
        .from(p)
        .where(and(eq(p.tenantId, t), inArray(p.productId, ids)))
        .orderBy(asc(p.productId))
        .for('update')
    : [];
  const existingById = new Map(locked.map((r) => [r.productId, r]));

  // Who holds each SKU and slug the inputs want (absent: nobody). The batch's own writes update these
  // maps as it goes, so the uniqueness holds within the batch too (a freed one is set to null).
  const skus = [...new Set(inputs.map((i) => i.fields.sku))];
  const skuHolder = new Map<string, string | null>();
  for (const r of locked) skuHolder.set(r.sku, r.productId);
  if (skus.length) {
    const rows = await tx
      .select({ productId: p.productId, sku: p.sku })
      .from(p)
      .where(and(eq(p.tenantId, t), inArray(p.sku, skus)));
    for (const r of rows) skuHolder.set(r.sku, r.productId);
    // SKUs are unique among the live variants (decision 112): another product's variant holds its
    // SKU too, and the default variant this write copies the SKU to would hit the unique index.
    const held = await tx
      .select({ productId: schema.productVariants.productId, sku: schema.productVariants.sku })
      .from(schema.productVariants)
      .where(
        and(
          eq(schema.productVariants.tenantId, t),
          inArray(schema.productVariants.sku, skus),
          isNull(schema.productVariants.removedAt),
        ),
      );
    for (const r of held) if (!skuHolder.has(r.sku)) skuHolder.set(r.sku, r.productId);
  }
  const baseOf = (f: ProductFields) => f.slug?.trim() || slugifyName(f.productName) || 'product';
  const bases = [...new Set(inputs.map((i) => baseOf(i.fields)))];
  const slugHolder = new Map<string, string | null>();
  for (const r of locked) slugHolder.set(r.slug, r.productId);
  for (const r of await tx
    .select({ productId: p.productId, slug: p.slug })
    .from(p)
    .where(and(eq(p.tenantId, t), inArray(p.slug, bases)))) {
    slugHolder.set(r.slug, r.productId);
  }
  // The numbered slugs (base-2, base-3...) of the name-made bases that may need a number: taken in the
  // store, or wanted twice in this batch. Another base found taken later is read then (rare).
  const numberedRead = new Set<string>();
  const readNumbered = async (want: string[]) => {
    const fresh = want.filter((b) => !numberedRead.has(b));
    if (!fresh.length) return;
    for (const b of fresh) numberedRead.add(b);
    const rows = await tx
      .select({ productId: p.productId, slug: p.slug })
      .from(p)
      .where(
        and(
          eq(p.tenantId, t),
          sql`${p.slug} ~ ANY(ARRAY[${sql.join(
            fresh.map((b) => sql`${`^${b}-[0-9]+$`}`),
            sql`, `,
          )}]::text[])`,
        ),
      );
    // A holder the batch already moved is known better by the map.
    for (const r of rows) if (!slugHolder.has(r.slug)) slugHolder.set(r.slug, r.productId);
  };
  const wanted = new Map<string, number>();
  for (const i of inputs) wanted.set(baseOf(i.fields), (wanted.get(baseOf(i.fields)) ?? 0) + 1);
  await readNumbered(
    inputs
      .filter((i) => !i.fields.slug?.trim())
      .map((i) => baseOf(i.fields))
      .filter((b) => slugHolder.get(b) || (wanted.get(b) ?? 0) > 1),
  );

  const catIds = [...new Set(inputs.flatMap((i) => i.fields.categoryIds ?? []))];
  // In the database's id order (its collation), which is the order of the names kept for search.
  const categories = new Map(
    (catIds.length
      ? await tx
          .select({ id: c.productCategoryId, name: c.categoryName, description: c.description })
          .from(c)
          .where(and(eq(c.tenantId, t), inArray(c.productCategoryId, catIds)))
          .orderBy(asc(c.productCategoryId))
      : []
    ).map((r, rank) => [r.id, { name: r.name ?? r.description ?? r.id, rank }]),
  );
  // The current memberships of the products whose categories are set (to tell what changes).
  const setting = inputs.filter((i) => i.productId && i.fields.categoryIds && existingById.has(i.productId));
  const memberships = new Map<string, Set<string>>();
  if (setting.length) {
    for (const r of await tx
      .select({ productId: pc.productId, id: pc.productCategoryId })
      .from(pc)
      .where(
        and(
          eq(pc.tenantId, t),
          inArray(
            pc.productId,
            setting.map((i) => i.productId as string),
          ),
        ),
      )) {
      const set = memberships.get(r.productId) ?? new Set<string>();
      set.add(r.id);
      memberships.set(r.productId, set);
    }
  }
  let storeCurrency: string | null = null;
  const currencyOf = async () => {
    storeCurrency ??=
      (
        await tx
          .select({ currency: ps.currencyUomId })
          .from(ps)
          .where(and(eq(ps.tenantId, t), eq(ps.productStoreId, ctx.productStoreId)))
      )[0]?.currency ?? 'USD';
    return storeCurrency;
  };

  const results: ProductWriteResult[] = [];
  const inserts: (typeof p.$inferInsert)[] = [];
  const updates: { productId: string; values: Values }[] = [];
  const history: { old: string; productId: string }[] = [];
  const newSlugs: string[] = [];
  const dropLinks: { productId: string; id: string }[] = [];
  const addLinks: (typeof pc.$inferInsert)[] = [];
  const audits: AuditRecordInput[] = [];

  for (const input of inputs) {
    const f = input.fields;
    const existing = input.productId ? existingById.get(input.productId) : undefined;
    if (input.productId && !existing) {
      results.push({
        ok: false,
        code: 'PRODUCT_NOT_FOUND',
        field: 'productId',
        message: 'This product does not exist.',
      });
      continue;
    }
    const productId = existing?.productId ?? newProductId();

    const holder = skuHolder.get(f.sku);
    if (holder && holder !== productId) {
      results.push({
        ok: false,
        code: 'SKU_TAKEN',
        field: 'sku',
        message: `SKU ${f.sku} is already used by another product (${holder}).`,
      });
      continue;
    }

    const typed = f.slug?.trim();
    const base = baseOf(f);
    const freeFor = (slug: string) => {
      const h = slugHolder.get(slug);
      return !h || h === productId;
    };
    let slug = base;
    if (!freeFor(base)) {
      if (typed) {
        results.push({
          ok: false,
          code: 'SLUG_TAKEN',
          field: 'slug',
          message: `The address /${base} is already used by another product; choose another slug.`,
        });
        continue;
      }
      await readNumbered([base]);
      for (let n = 2; ; n++) {
        if (freeFor(`${base}-${n}`)) {
          slug = `${base}-${n}`;
          break;
        }
      }
    }

    let categoryNames = existing?.categoryNames ?? '';
    // The names are made again only when the set changes: the same categories keep the names the
    // product has (made elsewhere, e.g. by the seed, they may differ), so writing them back is no change.
    const held = existing ? (memberships.get(existing.productId) ?? new Set<string>()) : null;
    const sameSet =
      held !== null &&
      !!f.categoryIds &&
      held.size === new Set(f.categoryIds).size &&
      f.categoryIds.every((id) => held.has(id));
    if (f.categoryIds && !sameSet) {
      const want = [...new Set(f.categoryIds)];
      const missing = want.filter((id) => !categories.has(id));
      if (missing.length) {
        results.push({
          ok: false,
          code: 'CATEGORY_NOT_FOUND',
          field: 'categoryIds',
          message: `No category ${missing.join(', ')} in this store.`,
        });
        continue;
      }
      categoryNames = want
        .map((id) => categories.get(id) as { name: string; rank: number })
        .sort((a, b) => a.rank - b.rank)
        .map((x) => x.name)
        .join(' ');
    }

    const values: Values = {
      productName: f.productName,
      slug,
      sku: f.sku,
      brandName: f.brandName ?? null,
      shortDescription: f.shortDescription ?? null,
      description: f.description ? storedOwnerHtml(f.description) : null,
      listPrice: f.listPrice,
      salePrice: f.salePrice ?? null,
      currencyUomId: f.currencyUomId ?? existing?.currencyUomId ?? (await currencyOf()),
      status: f.status,
      weightGrams: f.weightGrams ?? null,
      isFeatured: f.isFeatured ?? existing?.isFeatured ?? false,
      seoTitle: f.seoTitle ?? null,
      seoDescription: f.seoDescription ?? null,
      categoryNames,
    };

    // Accepted: the batch's later inputs see this one's SKU and slug as taken (and its old ones free).
    if (existing && existing.sku !== f.sku && skuHolder.get(existing.sku) === productId) {
      skuHolder.set(existing.sku, null);
    }
    skuHolder.set(f.sku, productId);
    if (existing && existing.slug !== slug && slugHolder.get(existing.slug) === productId) {
      slugHolder.set(existing.slug, null);
    }
    slugHolder.set(slug, productId);

    const links = f.categoryIds ? new Set(f.categoryIds) : null;
    if (existing) {
      const before = auditedProduct(existing);
      const after = auditedProduct(values);
      const changed = JSON.stringify(before) !== JSON.stringify(after);
      if (changed) updates.push({ productId, values });
      if (existing.slug !== slug) {
        history.push({ old: existing.slug, productId });
        newSlugs.push(slug);
      }
      let categoriesChanged = false;
      if (links) {
        const have = memberships.get(productId) ?? new Set<string>();
        for (const id of have) if (!links.has(id)) dropLinks.push({ productId, id });
        for (const id of links) if (!have.has(id)) addLinks.push({ tenantId: t, productId, productCategoryId: id });
        categoriesChanged = [...have].some((id) => !links.has(id)) || [...links].some((id) => !have.has(id));
      }
      audits.push({ entity: 'product', entityId: productId, action: 'update', before, after });
      results.push({ ok: true, productId, created: false, slug, changed: changed || categoriesChanged });
      continue;
    }
    inserts.push({ tenantId: t, productId, ...values, stockQuantity: 0 });
    newSlugs.push(slug);
    if (links) for (const id of links) addLinks.push({ tenantId: t, productId, productCategoryId: id });
    audits.push({ entity: 'product', entityId: productId, action: 'create', after: auditedProduct(values) });
    results.push({ ok: true, productId, created: true, slug, changed: true });
  }

  // The updates first: a product that gave up a slug or SKU frees it before a new one takes it (its
  // default variant's SKU too: SKUs are unique among the variants).
  if (updates.length) {
    await updateMany(tx, t, updates);
    await syncDefaultVariants(
      tx,
      ctx,
      updates.map((u) => u.productId),
    );
  }
  if (inserts.length) {
    await tx.insert(p).values(inserts);
    // Every product has a variant (decision 112): a new product's default one, id = the product's.
    await insertDefaultVariants(
      tx,
      t,
      inserts.map((i) => i.productId),
    );
  }
  if (history.length) {
    // The old addresses keep working (a redirect); a slug taken back by a product leaves the history.
    await tx
      .insert(sh)
      .values(history.map((h) => ({ tenantId: t, slug: h.old, productId: h.productId })))
      .onConflictDoUpdate({
        target: [sh.tenantId, sh.slug],
        set: { productId: sql`excluded.product_id`, changedAt: sql`now()` },
      });
  }
  if (newSlugs.length) await tx.delete(sh).where(and(eq(sh.tenantId, t), inArray(sh.slug, newSlugs)));
  if (dropLinks.length) {
    await tx.execute(sql`
      DELETE FROM product_categories
      WHERE tenant_id = ${t} AND (product_id, product_category_id) IN (VALUES ${sql.join(
        dropLinks.map((l) => sql`(${l.productId}::text, ${l.id}::text)`),
        sql`, `,
      )})`);
  }
  if (addLinks.length) await tx.insert(pc).values(addLinks);
  if (audits.length) await deps.audit.recordMany(tx, ctx, audits);
  return results;
}

/** The changed rows in one UPDATE ... FROM (VALUES ...). */
async function updateMany(tx: Tx, tenantId: string, updates: { productId: string; values: Values }[]) {
  const rows = updates.map(
    ({ productId: id, values: v }) =>
      sql`(${id}::text, ${v.productName}::text, ${v.slug}::text, ${v.sku}::text, ${v.brandName}::text,
        ${v.shortDescription}::text, ${v.description}::text, ${v.listPrice}::integer, ${v.salePrice}::integer,
        ${v.currencyUomId}::text, ${v.status}::text, ${v.weightGrams}::integer, ${v.isFeatured}::boolean,
        ${v.seoTitle}::text, ${v.seoDescription}::text, ${v.categoryNames}::text)`,
  );
  await tx.execute(sql`
    UPDATE products SET
      product_name = v.product_name, slug = v.slug, sku = v.sku, brand_name = v.brand_name,
      short_description = v.short_description, description = v.description, list_price = v.list_price,
      sale_price = v.sale_price, currency_uom_id = v.currency_uom_id, status = v.status,
      weight_grams = v.weight_grams, is_featured = v.is_featured, seo_title = v.seo_title,
      seo_description = v.seo_description, category_names = v.category_names, updated_at = now()
    FROM (VALUES ${sql.join(rows, sql`, `)}) AS v(product_id, product_name, slug, sku, brand_name,
      short_description, description, list_price, sale_price, currency_uom_id, status, weight_grams,
      is_featured, seo_title, seo_description, category_names)
    WHERE products.tenant_id = ${tenantId} AND products.product_id = v.product_id`);
}
