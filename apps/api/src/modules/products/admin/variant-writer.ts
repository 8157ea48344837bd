import {
  MAX_VARIANTS,
  type ProductVariantsView,
  type ProductVariantWrite,
  variantDisplayName,
  variantTitle,
} from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { RequestContext } from '../../../lib/context';
import { Refused, refuseField } from '../../../lib/result';
import type { AuditService } from '../../audit/index';
import { changeStock, type StockChange } from '../inventory/stock';
import { refreshProductRollup } from './variant-rollup';
import { auditedVariant, conflict, lockProduct, newId, unprocessable } from './variant-view';

/**
 * The variant writer (decision 112, part B): a product's options, their values and its variants,
 * written in the caller's transaction under the product's row lock. Everything is diffed, never
 * replaced, so ids stay (carts, orders and the books name them) and a variant with history is kept
 * as removed instead of deleted. Every write is audited on the product ("options-changed",
 * "variant-added", "variant-changed", "variant-removed") and ends with refreshProductRollup, so the
 * product's "from" price, range, totals and search words follow.
 *
 * Expected refusals are thrown as `Refused` (the caller's transaction is rolled back and the service
 * returns them): 409 for a conflict with what is stored (a SKU another live variant holds, a
 * combination that exists, a value still sold), 422 for a request that cannot be meant (a value of
 * another option, a variant without a value per option).
 *
 * This file holds the variants' writes (add, change, remove, and the set-based write of many rows);
 * the options' write is option-writer.ts, the read and what both writers share variant-view.ts.
 */

const vr = schema.productVariants;
const vi = schema.productVariantImages;
const p = schema.products;

type Deps = { audit: AuditService };

/**
 * The value ids of a variant write, one per option in order: its `values` (labels) or its `valueIds`
 * (what the GET answers); a label or id that is not a value of its option is refused.
 */
function resolveValues(
  view: ProductVariantsView,
  input: Pick<ProductVariantWrite, 'values' | 'valueIds'>,
): { ids: string[]; title: string } {
  const given = input.valueIds ?? input.values ?? [];
  const field = input.valueIds ? 'valueIds' : 'values';
  if (given.length !== view.options.length) {
    const names = view.options.map((o) => o.name).join(', ');
    throw unprocessable(
      field,
      view.options.length
        ? `give one value for each option (${names}), in that order.`
        : 'this product has no options; add an option before adding variants.',
    );
  }
  const ids = given.map((g, i) => {
    const option = view.options[i] as ProductVariantsView['options'][number];
    const hit = input.valueIds
      ? option.values.find((v) => v.valueId === g)
      : option.values.find((v) => v.label.toLowerCase() === g.trim().toLowerCase());
    if (!hit) throw unprocessable(`${field}.${i}`, `${option.name} has no value ${g.trim()}.`);
    return hit.valueId;
  });
  const title = variantTitle(ids.map((id, i) => view.options[i]?.values.find((v) => v.valueId === id)?.label));
  return { ids, title };
}

export interface VariantWritten {
  variantId: string;
  /** Whether stock moved (the caller tells `stock.changed`). */
  stockMoved: boolean;
}

/** The columns a variant write sets from the owner's input: adding and changing write the same ones. */
function variantColumns(input: ProductVariantWrite, title: string, ids: readonly string[]) {
  return {
    title,
    sku: input.sku,
    barcode: input.barcode ?? null,
    listPrice: input.listPrice,
    salePrice: input.salePrice ?? null,
    weightGrams: input.weightGrams ?? null,
    enabled: input.enabled,
    option1ValueId: ids[0] ?? null,
    option2ValueId: ids[1] ?? null,
    option3ValueId: ids[2] ?? null,
    updatedAt: new Date(),
  };
}

/** One row of a set-based write: a change of `variantId` (a live variant of the product), or a new variant. */
export interface VariantRow {
  variantId?: string;
  input: ProductVariantWrite;
}

/** A refusal of one row of `writeVariantRows` (its index), so a caller can name the row. */
export class VariantRowRefused extends Refused {
  constructor(
    readonly row: number,
    refused: Refused,
  ) {
    super(refused.refusal);
  }
}

/** A combination as one key, the same for value ids read (nulls dropped) and resolved. */
const comboKey = (ids: readonly (string | null | undefined)[]) => [0, 1, 2].map((i) => ids[i] ?? '').join('|');

/**
 * Writes many variants of one product set-based (decision 112, round three): one lock and one read of
 * the product's variants, every row judged against the state the whole write leaves (so two rows may
 * trade SKUs or combinations), then one UPDATE for the changed and revived variants, one INSERT for the
 * new ones, one DELETE and one INSERT for their pictures, one `changeStock`, one rollup and one audit
 * insert (an entry per variant that changed). Rows that say what their variant is already are not
 * written. A refusal names its row (`VariantRowRefused`) and writes nothing the caller keeps (its
 * transaction rolls back). The writes per row were what made a 100-row save quadratic: each locked
 * the product, read all its variants, made the rollup and read them all again for its audit entry.
 */
export async function writeVariantRows(
  tx: Tx,
  ctx: RequestContext,
  deps: Deps,
  productId: string,
  rows: readonly VariantRow[],
  notes: { changed: string },
): Promise<{ variantIds: string[]; written: number; stockMoved: boolean }> {
  const t = ctx.tenantId;
  const { product, view } = await lockProduct(tx, ctx, productId);
  const byId = new Map(view.variants.map((v) => [v.variantId, v]));
  const at = <T>(n: number, step: () => T): T => {
    try {
      return step();
    } catch (err) {
      if (err instanceof Refused && !(err instanceof VariantRowRefused)) throw new VariantRowRefused(n, err);
      throw err;
    }
  };
  type Planned = {
    n: number;
    input: ProductVariantWrite;
    current: ProductVariantsView['variants'][number] | undefined;
    variantId: string;
    ids: string[];
    title: string;
    images: string[];
    kind: 'update' | 'revive' | 'insert';
    columnsChange: boolean;
    imagesChange: boolean;
    stockDelta: number;
  };
  const planned: Planned[] = [];
  const variantIds: string[] = [];
  // The live variants' combinations and SKUs as the write leaves them.
  const comboHolder = new Map<string, string>();
  const skuHolder = new Map<string, string>();
  for (const v of view.variants) {
    if (v.removed) continue;
    comboHolder.set(comboKey(v.valueIds), v.variantId);
    skuHolder.set(v.sku, v.variantId);
  }
  const moving = new Set(rows.flatMap((r) => (r.variantId ? [r.variantId] : [])));
  for (const v of view.variants) {
    if (!moving.has(v.variantId) || v.removed) continue;
    if (comboHolder.get(comboKey(v.valueIds)) === v.variantId) comboHolder.delete(comboKey(v.valueIds));
    if (skuHolder.get(v.sku) === v.variantId) skuHolder.delete(v.sku);
  }
  const seenIds = new Set<string>();
  let live = view.variants.filter((v) => !v.removed).length;
  for (const [n, { variantId: target, input }] of rows.entries()) {
    const p1 = at(n, () => {
      const current = target ? byId.get(target) : undefined;
      if (target && (!current || current.removed)) {
        throw new Refused(refuseField(422, 'UNPROCESSABLE', 'variantId', 'this variant was removed.'));
      }
      if (target && seenIds.has(target)) throw unprocessable('variantId', 'this variant is written twice.');
      if (!target && !view.options.length) {
        throw unprocessable('values', 'this product has no options; add an option before adding variants.');
      }
      const { ids, title } = resolveValues(view, input);
      const key = comboKey(ids);
      const twin = comboHolder.get(key);
      if (twin) throw conflict('values', `variant ${title} already exists (variant ${twin}).`);
      const skuTwin = skuHolder.get(input.sku);
      if (skuTwin) {
        const other = byId.get(skuTwin);
        throw conflict(
          'sku',
          `SKU ${input.sku} is already used by ${variantDisplayName(product.productName, other?.title ?? '')} (variant ${skuTwin}).`,
        );
      }
      const revived = target ? undefined : view.variants.find((v) => v.removed && comboKey(v.valueIds) === key);
      if (!target) {
        if (live >= MAX_VARIANTS) throw unprocessable('values', `a product has at most ${MAX_VARIANTS} variants.`);
        live++;
      }
      const variantId = target ?? revived?.variantId ?? newId('V');
      seenIds.add(variantId);
      comboHolder.set(key, variantId);
      skuHolder.set(input.sku, variantId);
      const images = [...new Set(input.imageIds)];
      const was = target ? current : revived;
      const columnsChange =
        !target ||
        !was ||
        was.title !== title ||
        comboKey(was.valueIds) !== key ||
        was.sku !== input.sku ||
        was.barcode !== (input.barcode ?? null) ||
        was.listPrice !== input.listPrice ||
        was.salePrice !== (input.salePrice ?? null) ||
        was.weightGrams !== (input.weightGrams ?? null) ||
        was.enabled !== input.enabled;
      const imagesChange = !was || was.imageIds.join(' ') !== images.join(' ') || (!target && images.length > 0);
      // A change is saved as the difference from what the owner saw, so a sale meanwhile stays (decision 087).
      const stockDelta = target
        ? input.stock === undefined
          ? 0
          : input.stock - (input.stockSeen ?? was?.stock ?? 0)
        : (input.stock ?? 0) - (revived?.stock ?? 0);
      return {
        n,
        input,
        current: was,
        variantId,
        ids,
        title,
        images,
        kind: target ? 'update' : revived ? 'revive' : 'insert',
        columnsChange,
        imagesChange,
        stockDelta,
      } satisfies Planned;
    });
    variantIds.push(p1.variantId);
    if (p1.kind !== 'update' || p1.columnsChange || p1.imagesChange || p1.stockDelta !== 0) planned.push(p1);
  }
  if (!planned.length) return { variantIds, written: 0, stockMoved: false };

  // Other products' live variants holding a SKU of the write: one read.
  const skus = [...new Set(planned.filter((x) => x.columnsChange).map((x) => x.input.sku))];
  if (skus.length) {
    const holders = await tx
      .select({ variantId: vr.variantId, sku: vr.sku, title: vr.title, productName: p.productName })
      .from(vr)
      .innerJoin(p, and(eq(p.tenantId, vr.tenantId), eq(p.productId, vr.productId)))
      .where(
        and(eq(vr.tenantId, t), inArray(vr.sku, skus), isNull(vr.removedAt), sql`${vr.productId} <> ${productId}`),
      );
    for (const h of holders) {
      const row = planned.find((x) => x.columnsChange && x.input.sku === h.sku) as Planned;
      throw new VariantRowRefused(
        row.n,
        conflict(
          'sku',
          `SKU ${h.sku} is already used by ${variantDisplayName(h.productName, h.title)} (variant ${h.variantId}).`,
        ),
      );
    }
  }
  const pictures = [...new Set(planned.filter((x) => x.imagesChange).flatMap((x) => x.images))];
  if (pictures.length) {
    const have = await tx
      .select({ mediaId: schema.productImages.mediaId })
      .from(schema.productImages)
      .where(
        and(
          eq(schema.productImages.tenantId, t),
          eq(schema.productImages.productId, productId),
          inArray(schema.productImages.mediaId, pictures),
        ),
      );
    const known = new Set(have.map((h) => h.mediaId));
    for (const x of planned) {
      const missing = x.imagesChange ? x.images.filter((id) => !known.has(id)) : [];
      if (missing.length) {
        throw new VariantRowRefused(
          x.n,
          unprocessable('imageIds', `not a picture of this product: ${missing.join(', ')}.`),
        );
      }
    }
  }

  // Changed and revived rows: SKUs and combinations may pass between them, and both unique indexes hold
  // only live rows, so the rows that take another's SKU or combination are first set aside as removed;
  // the UPDATE then makes them live with their new values, each row checked against the final state.
  const rewrite = planned.filter((x) => x.kind !== 'insert' && x.columnsChange);
  const keysMove = rewrite.filter(
    (x) =>
      x.kind === 'update' &&
      (x.current?.sku !== x.input.sku || comboKey(x.current?.valueIds ?? []) !== comboKey(x.ids)),
  );
  if (keysMove.length && rewrite.length > 1) {
    await tx
      .update(vr)
      .set({ removedAt: new Date() })
      .where(
        and(
          eq(vr.tenantId, t),
          inArray(
            vr.variantId,
            keysMove.map((x) => x.variantId),
          ),
        ),
      );
  }
  // A row as written: the columns adding and changing share, with its id (the UPDATE's input, the audit's after).
  const written = (x: Planned) => ({ variantId: x.variantId, ...variantColumns(x.input, x.title, x.ids) });
  if (rewrite.length) {
    await tx.execute(sql`
      UPDATE product_variants v SET title = d.title, sku = d.sku, barcode = d.barcode, list_price = d."listPrice",
        sale_price = d."salePrice", weight_grams = d."weightGrams", enabled = d.enabled,
        option1_value_id = d."option1ValueId", option2_value_id = d."option2ValueId",
        option3_value_id = d."option3ValueId", removed_at = NULL, updated_at = now()
      FROM jsonb_to_recordset(${JSON.stringify(rewrite.map(written))}::jsonb) AS d("variantId" text, title text,
        sku text, barcode text, "listPrice" integer, "salePrice" integer, "weightGrams" integer, enabled boolean,
        "option1ValueId" text, "option2ValueId" text, "option3ValueId" text)
      WHERE v.tenant_id = ${t} AND v.variant_id = d."variantId"`);
  }
  const inserts = planned.filter((x) => x.kind === 'insert');
  if (inserts.length) {
    const [last] = await tx
      .select({ position: sql<number>`coalesce(max(${vr.position}), 0)::int` })
      .from(vr)
      .where(and(eq(vr.tenantId, t), eq(vr.productId, productId)));
    const from = (last?.position ?? 0) + 1;
    await tx.insert(vr).values(
      inserts.map((x, k) => ({
        tenantId: t,
        productId,
        variantId: x.variantId,
        position: from + k,
        ...variantColumns(x.input, x.title, x.ids),
      })),
    );
  }
  const pictured = planned.filter((x) => x.imagesChange);
  if (pictured.length) {
    await tx.delete(vi).where(
      and(
        eq(vi.tenantId, t),
        inArray(
          vi.variantId,
          pictured.map((x) => x.variantId),
        ),
      ),
    );
    const imageRows = pictured.flatMap((x) =>
      x.images.map((mediaId, position) => ({ tenantId: t, productId, variantId: x.variantId, mediaId, position })),
    );
    if (imageRows.length) await tx.insert(vi).values(imageRows);
  }
  const stock: StockChange[] = planned
    .filter((x) => x.stockDelta !== 0)
    .map((x) =>
      x.kind === 'update'
        ? { variantId: x.variantId, delta: x.stockDelta, reason: 'CORRECTION' as const, note: notes.changed }
        : {
            variantId: x.variantId,
            set: x.input.stock ?? 0,
            reason: 'RECEIVED' as const,
            note: x.kind === 'revive' ? 'variant added again' : 'first stock',
          },
    );
  if (stock.length) {
    const moved = await changeStock(tx, ctx, stock);
    if (!moved.ok) {
      const row = planned.find((x) => x.variantId === moved.variantId) ?? planned[0];
      const left = moved.code === 'INSUFFICIENT_STOCK' ? moved.available : (row?.current?.stock ?? 0);
      throw new VariantRowRefused(
        row?.n ?? 0,
        conflict('stock', `only ${left} in stock now; the count changed while you edited it.`),
      );
    }
  }
  await refreshProductRollup(tx, ctx, [productId]);
  await deps.audit.recordMany(
    tx,
    ctx,
    planned.map((x) => {
      const after = auditedVariant({
        ...written(x),
        removed: false,
        imageIds: x.imagesChange ? x.images : (x.current?.imageIds ?? []),
      });
      return x.kind === 'update'
        ? {
            entity: 'product',
            entityId: productId,
            action: 'variant-changed',
            before: auditedVariant(x.current),
            after,
          }
        : { entity: 'product', entityId: productId, action: 'variant-added', after };
    }),
  );
  return { variantIds, written: planned.length, stockMoved: stock.length > 0 };
}

/**
 * Adds a variant: its values name an existing value of each option in order. A combination that a
 * removed variant had revives that variant (its id and history come back); one that a live variant
 * has is refused.
 */
export async function addVariant(
  tx: Tx,
  ctx: RequestContext,
  deps: Deps,
  productId: string,
  input: ProductVariantWrite,
): Promise<VariantWritten> {
  const done = await oneRow(() =>
    writeVariantRows(tx, ctx, deps, productId, [{ input: { ...input, stockSeen: undefined } }], {
      changed: 'variant editor',
    }),
  );
  return { variantId: done.variantIds[0] as string, stockMoved: done.stockMoved };
}

/** Changes a live variant (its values too, to a combination no other live variant has). */
export async function updateVariant(
  tx: Tx,
  ctx: RequestContext,
  deps: Deps,
  productId: string,
  variantId: string,
  input: ProductVariantWrite,
): Promise<VariantWritten> {
  if (input.variantId && input.variantId !== variantId) {
    throw unprocessable('variantId', 'the body names another variant than the address.');
  }
  const done = await oneRow(() =>
    writeVariantRows(tx, ctx, deps, productId, [{ variantId, input }], { changed: 'variant editor' }),
  );
  return { variantId, stockMoved: done.stockMoved };
}

/** A one-row write's refusal as the writer's own (no row to name). */
async function oneRow<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof VariantRowRefused) throw new Refused(err.refusal);
    throw err;
  }
}

/**
 * Removes a variant: one never sold and never moved is deleted; one with order lines or stock
 * movements is set to 0 (CORRECTION, "variant removed") and marked removed, so orders, returns and
 * the books keep pointing at it. The last live variant of a product cannot go.
 */
export async function removeVariant(
  tx: Tx,
  ctx: RequestContext,
  deps: Deps,
  productId: string,
  variantId: string,
): Promise<{ outcome: 'deleted' | 'removed'; stockMoved: boolean }> {
  const t = ctx.tenantId;
  const { view } = await lockProduct(tx, ctx, productId);
  const current = view.variants.find((v) => v.variantId === variantId && !v.removed);
  if (!current) throw unprocessable('variantId', 'this variant was removed already.');
  if (view.variants.filter((v) => !v.removed).length === 1) {
    throw conflict('variantId', 'a product keeps at least one variant; archive the product instead.');
  }
  const history = (await tx.execute(sql`
    SELECT EXISTS (SELECT 1 FROM stock_movements WHERE tenant_id = ${t} AND variant_id = ${variantId})
        OR EXISTS (SELECT 1 FROM order_lines WHERE tenant_id = ${t} AND variant_id = ${variantId}) AS has`)) as unknown as {
    rows: { has: boolean }[];
  };
  let stockMoved = false;
  let outcome: 'deleted' | 'removed';
  if (history.rows[0]?.has) {
    if (current.stock > 0) {
      const moved = await changeStock(tx, ctx, [{ variantId, set: 0, reason: 'CORRECTION', note: 'variant removed' }]);
      if (!moved.ok) throw new Error(`emptying a removed variant failed: ${moved.code}`);
      stockMoved = true;
    }
    await tx
      .update(vr)
      .set({ removedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(vr.tenantId, t), eq(vr.variantId, variantId)));
    outcome = 'removed';
  } else {
    await tx.delete(vr).where(and(eq(vr.tenantId, t), eq(vr.variantId, variantId)));
    outcome = 'deleted';
  }
  await refreshProductRollup(tx, ctx, [productId]);
  await deps.audit.record(tx, ctx, {
    entity: 'product',
    entityId: productId,
    action: 'variant-removed',
    before: auditedVariant(current),
    after: { variantId, outcome },
  });
  return { outcome, stockMoved };
}

/** Whether `variantId` is one of `productId`'s variants in this store (live or removed). */
export async function variantOfProduct(db: Db, tenantId: string, productId: string, variantId: string) {
  const [hit] = await db
    .select({ one: sql<number>`1` })
    .from(vr)
    .where(and(eq(vr.tenantId, tenantId), eq(vr.productId, productId), eq(vr.variantId, variantId)));
  return !!hit;
}
