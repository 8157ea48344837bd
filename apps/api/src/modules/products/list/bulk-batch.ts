/** A bulk change's batch: what each action does to a page of products, in one transaction. */
import { MAX_PRICE_MINOR, type ProductBulkAction, type ProductBulkResult, type ProductStatus } from '@app/contracts';
import { schema, type Tx } from '@app/db';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { RequestContext, TenantContext } from '../../../lib/context';
import type { EventBus } from '../../../lib/events/index';
import type { AuditService } from '../../audit/index';
import { auditedProduct } from '../admin/index';
import { refreshProductRollup, syncDefaultVariants } from '../admin/variant-rollup';
import { changeStock } from '../inventory/index';

/** Notes kept in a result: a few examples, not one per product. */
const MAX_NOTES = 10;

const p = schema.products;
const v = schema.productVariants;

/** The live variants of these products, by product, in their order (read under the products' row locks). */
async function liveVariantsOf(tx: Tx, ctx: TenantContext, ids: string[]) {
  const rows = await tx
    .select({
      productId: v.productId,
      variantId: v.variantId,
      sku: v.sku,
      title: v.title,
      listPrice: v.listPrice,
      salePrice: v.salePrice,
      hasOptions: sql<boolean>`${v.option1ValueId} IS NOT NULL`,
    })
    .from(v)
    .where(and(eq(v.tenantId, ctx.tenantId), inArray(v.productId, ids), isNull(v.removedAt)))
    .orderBy(asc(v.productId), asc(v.position), asc(v.variantId));
  const byProduct = new Map<string, typeof rows>();
  for (const r of rows) byProduct.set(r.productId, [...(byProduct.get(r.productId) ?? []), r]);
  return byProduct;
}

type Rows<T> = { rows: T[] };
const rowsOf = <T>(r: unknown) => (r as Rows<T>).rows;

/**
 * A product's status changes only here. Every status may follow every other (an archived product can
 * be made a draft again); the audit entry is the history. A same-status change is not a change.
 */
export function statusTransition(from: ProductStatus, to: ProductStatus): boolean {
  return from !== to;
}

/**
 * A price after a bulk change, in minor units: `set` to value, `amount` plus value, `percent` plus
 * value hundredths of a percent of the price, rounded to the nearest minor unit with halves away from
 * zero, computed exactly (BigInt): 1999 at -1250 (12.5 % off) is 1999 - 249.875 -> 1749; 10 at -500
 * (5 % off) is 10 - 0.5 -> 9. Never below zero nor above the highest price.
 */
export function bulkPrice(current: number, mode: 'set' | 'amount' | 'percent', value: number, max: number): number {
  let next: number;
  if (mode === 'set') next = value;
  else if (mode === 'amount') next = current + value;
  else {
    const num = BigInt(current) * BigInt(value);
    const den = 10_000n;
    let q = num / den;
    const r = num - q * den;
    if ((r < 0n ? -r : r) * 2n >= den) q += num < 0n ? -1n : 1n;
    next = current + Number(q);
  }
  return Math.min(Math.max(next, 0), max);
}

/** The bulk change applied a batch at a time (the request's inline run and the job share it). */
export function createBulkBatch(deps: { audit: AuditService; events: EventBus }) {
  const emptyResult = (): ProductBulkResult => ({
    changed: 0,
    unchanged: 0,
    archivedInstead: 0,
    deleted: 0,
    notes: [],
  });
  const note = (r: ProductBulkResult, text: string) => {
    if (r.notes.length < MAX_NOTES) r.notes.push(text);
  };

  /** Applies the action to these products (all of this store) in one transaction; events after commit. */
  async function applyBatch(ctx: RequestContext, action: ProductBulkAction, ids: string[], acc: ProductBulkResult) {
    await deps.events.transaction(async (tx) => {
      // Row locks in id order (as changeStock takes them): two bulk changes cannot deadlock.
      const rows = await tx
        .select()
        .from(p)
        .where(and(eq(p.tenantId, ctx.tenantId), inArray(p.productId, ids)))
        .orderBy(asc(p.productId))
        .for('update');
      const changed: string[] = [];
      const stockMoved: string[] = [];
      const audit = (productId: string, before: Record<string, unknown>, after: Record<string, unknown>) =>
        deps.audit.record(tx, ctx, { entity: 'product', entityId: productId, action: 'update', before, after });

      switch (action.kind) {
        case 'status': {
          const move = rows.filter((r) => statusTransition(r.status, action.to));
          if (move.length) {
            await tx
              .update(p)
              .set({ status: action.to, updatedAt: sql`now()` })
              .where(
                and(
                  eq(p.tenantId, ctx.tenantId),
                  inArray(
                    p.productId,
                    move.map((r) => r.productId),
                  ),
                ),
              );
          }
          for (const r of move) {
            await audit(r.productId, { status: r.status }, { status: action.to });
            changed.push(r.productId);
          }
          break;
        }
        case 'category.add':
        case 'category.remove': {
          const before = await categoryIdsOf(tx, ctx, ids);
          const touched =
            action.kind === 'category.add'
              ? (
                  await tx
                    .insert(schema.productCategories)
                    .values(
                      rows.map((r) => ({
                        tenantId: ctx.tenantId,
                        productCategoryId: action.categoryId,
                        productId: r.productId,
                      })),
                    )
                    .onConflictDoNothing()
                    .returning({ id: schema.productCategories.productId })
                ).map((r) => r.id)
              : rowsOf<{ product_id: string }>(
                  await tx.execute(sql`
                    DELETE FROM product_categories
                    WHERE tenant_id = ${ctx.tenantId} AND product_category_id = ${action.categoryId}
                      AND product_id IN ${rows.map((r) => r.productId)}
                    RETURNING product_id`),
                ).map((r) => r.product_id);
          if (touched.length) {
            // The names weighed into search, as the product writer keeps them (ordered by category id).
            await tx.execute(sql`
              UPDATE products p SET updated_at = now(), category_names = coalesce((
                SELECT string_agg(coalesce(c.category_name, c.description, c.product_category_id), ' ' ORDER BY c.product_category_id)
                FROM product_categories pc
                JOIN categories c ON c.tenant_id = pc.tenant_id AND c.product_category_id = pc.product_category_id
                WHERE pc.tenant_id = p.tenant_id AND pc.product_id = p.product_id), '')
              WHERE p.tenant_id = ${ctx.tenantId} AND p.product_id IN ${touched}`);
          }
          for (const id of touched.sort()) {
            const was = before.get(id) ?? [];
            const now =
              action.kind === 'category.add'
                ? [...was, action.categoryId].sort()
                : was.filter((x) => x !== action.categoryId);
            await audit(id, { categoryIds: was }, { categoryIds: now });
            changed.push(id);
          }
          break;
        }
        case 'price': {
          // A product with options has its prices on its variants (decision 112): every variant changes
          // by the same rule, then the rollup makes the product's "from" price and range again. A
          // product without options keeps the product's own prices, copied to its default variant.
          const variantsOf = await liveVariantsOf(tx, ctx, ids);
          const withOptions = rows.filter((r) => variantsOf.get(r.productId)?.some((x) => x.hasOptions));
          const plain = rows.filter((r) => !withOptions.includes(r));
          const priced = (list: number, sale: number | null) => ({
            list: action.field === 'list' ? bulkPrice(list, action.mode, action.value, MAX_PRICE_MINOR) : list,
            sale: action.field === 'sale' ? bulkPrice(sale ?? list, action.mode, action.value, MAX_PRICE_MINOR) : sale,
          });
          const updates: { id: string; list: number; sale: number | null; before: Record<string, unknown> }[] = [];
          for (const r of plain) {
            const { list, sale } = priced(r.listPrice, r.salePrice);
            if (list === r.listPrice && sale === r.salePrice) continue;
            // The product's own rule (productFieldsSchema): a sale price is never above the price.
            if (sale != null && sale > list) {
              note(acc, `${r.sku}: the sale price would be above the price`);
              continue;
            }
            updates.push({
              id: r.productId,
              list,
              sale,
              before: action.field === 'list' ? { listPrice: r.listPrice } : { salePrice: r.salePrice },
            });
          }
          const variantUpdates: { id: string; list: number; sale: number | null }[] = [];
          const variantAudits: { id: string; before: Record<string, unknown>; after: Record<string, unknown> }[] = [];
          for (const r of withOptions) {
            const next = (variantsOf.get(r.productId) ?? []).map((x) => ({ x, ...priced(x.listPrice, x.salePrice) }));
            // All of a product's variants or none: a product is never left half repriced.
            const over = next.find((n) => n.sale != null && n.sale > n.list);
            if (over) {
              note(acc, `${over.x.sku}: the sale price would be above the price (${r.productName} left as it was)`);
              continue;
            }
            const moved = next.filter((n) => n.list !== n.x.listPrice || n.sale !== n.x.salePrice);
            if (moved.length === 0) continue;
            variantUpdates.push(...moved.map((n) => ({ id: n.x.variantId, list: n.list, sale: n.sale })));
            const field = action.field === 'list' ? 'listPrice' : 'salePrice';
            variantAudits.push({
              id: r.productId,
              before: {
                variants: moved.map((n) => ({ variantId: n.x.variantId, [field]: n.x[field] })),
              },
              after: {
                variants: moved.map((n) => ({
                  variantId: n.x.variantId,
                  [field]: field === 'listPrice' ? n.list : n.sale,
                })),
              },
            });
          }
          if (updates.length) {
            // One statement for the batch: each product's new prices from a VALUES list.
            await tx.execute(sql`
              UPDATE products p SET list_price = v.list, sale_price = v.sale, updated_at = now()
              FROM (VALUES ${sql.join(
                updates.map((u) => sql`(${u.id}, ${u.list}::integer, ${u.sale}::integer)`),
                sql`, `,
              )}) AS v(id, list, sale)
              WHERE p.tenant_id = ${ctx.tenantId} AND p.product_id = v.id`);
            // The default variant sells at the product's prices.
            await syncDefaultVariants(
              tx,
              ctx,
              updates.map((u) => u.id),
            );
          }
          if (variantUpdates.length) {
            // One statement for the batch's variants, then their products' rollup (under the row locks above).
            await tx.execute(sql`
              UPDATE product_variants pv SET list_price = v.list, sale_price = v.sale, updated_at = now()
              FROM (VALUES ${sql.join(
                variantUpdates.map((u) => sql`(${u.id}, ${u.list}::integer, ${u.sale}::integer)`),
                sql`, `,
              )}) AS v(id, list, sale)
              WHERE pv.tenant_id = ${ctx.tenantId} AND pv.variant_id = v.id`);
            await tx.execute(sql`
              UPDATE products SET updated_at = now()
              WHERE tenant_id = ${ctx.tenantId} AND product_id IN ${variantAudits.map((a) => a.id)}`);
            await refreshProductRollup(
              tx,
              ctx,
              variantAudits.map((a) => a.id),
            );
          }
          for (const u of updates) {
            await audit(u.id, u.before, action.field === 'list' ? { listPrice: u.list } : { salePrice: u.sale });
            changed.push(u.id);
          }
          for (const a of variantAudits) {
            await audit(a.id, a.before, a.after);
            changed.push(a.id);
          }
          break;
        }
        case 'stock': {
          const variantsOf = await liveVariantsOf(tx, ctx, ids);
          for (const r of rows) {
            const live = variantsOf.get(r.productId) ?? [];
            if (live.length > 1) {
              // Stock is counted per variant, as Shopify does: one number for a product with several
              // variants would say nothing of which shelf it is on. Its rows in Inventory take counts.
              note(acc, `${r.sku}: ${r.productName} has ${live.length} variants; count each in Inventory`);
              continue;
            }
            // Its one live variant (the product's own id names its default variant when it has none).
            const one = live[0] ? { variantId: live[0].variantId } : { productId: r.productId };
            // One product at a time: a product that would go below zero is skipped, the others change.
            const result = await changeStock(tx, ctx, [
              action.mode === 'set'
                ? { ...one, set: action.value, reason: action.reason, note: 'Bulk change' }
                : { ...one, delta: action.value, reason: action.reason, note: 'Bulk change' },
            ]);
            if (!result.ok) {
              if (result.code === 'INSUFFICIENT_STOCK') note(acc, `${r.sku}: only ${result.available} in stock`);
              continue;
            }
            const m = result.moved[0];
            if (!m) continue;
            await tx
              .update(p)
              .set({ updatedAt: sql`now()` })
              .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, r.productId)));
            await audit(r.productId, { stockQuantity: m.before }, { stockQuantity: m.after });
            changed.push(r.productId);
            stockMoved.push(r.productId);
          }
          break;
        }
        case 'delete': {
          const ordered = new Set(
            (
              await tx
                .selectDistinct({ id: schema.orderLines.productId })
                .from(schema.orderLines)
                .where(
                  and(
                    eq(schema.orderLines.tenantId, ctx.tenantId),
                    inArray(
                      schema.orderLines.productId,
                      rows.map((r) => r.productId),
                    ),
                  ),
                )
            ).map((r) => r.id),
          );
          const archive = rows.filter((r) => ordered.has(r.productId));
          const remove = rows.filter((r) => !ordered.has(r.productId));
          const toArchive = archive.filter((r) => statusTransition(r.status, 'ARCHIVED'));
          if (toArchive.length) {
            await tx
              .update(p)
              .set({ status: 'ARCHIVED', updatedAt: sql`now()` })
              .where(
                and(
                  eq(p.tenantId, ctx.tenantId),
                  inArray(
                    p.productId,
                    toArchive.map((r) => r.productId),
                  ),
                ),
              );
          }
          for (const r of toArchive) {
            await audit(r.productId, { status: r.status }, { status: 'ARCHIVED' });
            changed.push(r.productId);
          }
          acc.archivedInstead += archive.length;
          if (archive.length) note(acc, `${archive.length} product(s) with orders were archived instead of deleted`);
          if (remove.length) {
            await tx.delete(p).where(
              and(
                eq(p.tenantId, ctx.tenantId),
                inArray(
                  p.productId,
                  remove.map((r) => r.productId),
                ),
              ),
            );
          }
          for (const r of remove) {
            await deps.audit.record(tx, ctx, {
              entity: 'product',
              entityId: r.productId,
              action: 'delete',
              before: { ...auditedProduct(r), stockQuantity: r.stockQuantity },
            });
            changed.push(r.productId);
          }
          acc.deleted += remove.length;
          break;
        }
      }
      acc.changed += changed.length;
      acc.unchanged += rows.length - changed.length;
      if (changed.length)
        deps.events.emitAfterCommit(tx, 'catalog.changed', { tenantId: ctx.tenantId, productIds: changed });
      if (stockMoved.length)
        deps.events.emitAfterCommit(tx, 'stock.changed', { tenantId: ctx.tenantId, productIds: stockMoved });
    });
  }

  async function categoryIdsOf(tx: Tx, ctx: TenantContext, ids: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    const rows = await tx
      .select({ productId: schema.productCategories.productId, id: schema.productCategories.productCategoryId })
      .from(schema.productCategories)
      .where(and(eq(schema.productCategories.tenantId, ctx.tenantId), inArray(schema.productCategories.productId, ids)))
      .orderBy(asc(schema.productCategories.productCategoryId));
    for (const r of rows) out.set(r.productId, [...(out.get(r.productId) ?? []), r.id]);
    return out;
  }

  return { emptyResult, note, applyBatch };
}
