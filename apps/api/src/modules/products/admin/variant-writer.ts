import { randomBytes } from 'node:crypto';
import {
  MAX_VARIANTS,
  type ProductOptionsInput,
  type ProductVariantsView,
  type ProductVariantWrite,
  variantDisplayName,
  variantTitle,
} from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { RequestContext } from '../../../lib/context';
import { Refused, refuseField } from '../../../lib/result';
import type { AuditService } from '../../audit/index';
import { changeStock } from '../inventory/stock';
import { refreshProductRollup } from './variant-rollup';

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
 */

const po = schema.productOptions;
const pv = schema.productOptionValues;
const vr = schema.productVariants;
const vi = schema.productVariantImages;
const p = schema.products;

type Deps = { audit: AuditService };
const OPTION_COLUMNS = ['option1ValueId', 'option2ValueId', 'option3ValueId'] as const;

const newId = (prefix: string) => `${prefix}${randomBytes(8).toString('hex').toUpperCase()}`;
const conflict = (field: string, message: string) => new Refused(refuseField(409, 'CONFLICT', field, message));
const unprocessable = (field: string, message: string) =>
  new Refused(refuseField(422, 'UNPROCESSABLE', field, message));

/** The product's options, values and variants as the editor's grid shows them; null when not this store's. */
export async function readVariants(
  db: Db | Tx,
  tenantId: string,
  productId: string,
): Promise<ProductVariantsView | null> {
  const [product] = await db
    .select({ productId: p.productId })
    .from(p)
    .where(and(eq(p.tenantId, tenantId), eq(p.productId, productId)));
  if (!product) return null;
  const options = await db
    .select()
    .from(po)
    .where(and(eq(po.tenantId, tenantId), eq(po.productId, productId)))
    .orderBy(asc(po.position));
  const values = await db
    .select()
    .from(pv)
    .where(and(eq(pv.tenantId, tenantId), eq(pv.productId, productId)))
    .orderBy(asc(pv.position), asc(pv.valueId));
  const variants = await db
    .select()
    .from(vr)
    .where(and(eq(vr.tenantId, tenantId), eq(vr.productId, productId)))
    .orderBy(sql`${vr.removedAt} IS NOT NULL`, asc(vr.position), asc(vr.variantId));
  const images = await db
    .select()
    .from(vi)
    .where(and(eq(vi.tenantId, tenantId), eq(vi.productId, productId)))
    .orderBy(asc(vi.position));
  return {
    productId,
    options: options.map((o) => ({
      optionId: o.optionId,
      name: o.name,
      position: o.position,
      values: values
        .filter((v) => v.optionId === o.optionId)
        .map((v) => ({
          valueId: v.valueId,
          label: v.label,
          swatchColor: v.swatchColor,
          swatchMediaId: v.swatchMediaId,
        })),
    })),
    variants: variants.map((v) => ({
      variantId: v.variantId,
      productId: v.productId,
      title: v.title,
      valueIds: OPTION_COLUMNS.map((c) => v[c]).filter((x): x is string => !!x),
      sku: v.sku,
      barcode: v.barcode,
      listPrice: v.listPrice,
      salePrice: v.salePrice,
      weightGrams: v.weightGrams,
      stock: v.stockQuantity,
      enabled: v.enabled,
      removed: v.removedAt !== null,
      imageIds: images.filter((i) => i.variantId === v.variantId).map((i) => i.mediaId),
    })),
  };
}

/** Locks the product's row (the lock changeStock and the rollup take) and reads what the writes decide on. */
async function lockProduct(tx: Tx, ctx: RequestContext, productId: string) {
  const [product] = await tx
    .select({ productId: p.productId, productName: p.productName })
    .from(p)
    .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, productId)))
    .for('update');
  if (!product) throw unprocessable('productId', 'this product does not exist.');
  const view = (await readVariants(tx, ctx.tenantId, productId)) as ProductVariantsView;
  return { product, view };
}

/** The audited form of a variant: its own fields (stock is the inventory's, audited by its movements). */
function auditedVariant(v: ProductVariantsView['variants'][number] | undefined) {
  if (!v) return undefined;
  return {
    variantId: v.variantId,
    title: v.title,
    sku: v.sku,
    barcode: v.barcode,
    listPrice: v.listPrice,
    salePrice: v.salePrice,
    weightGrams: v.weightGrams,
    enabled: v.enabled,
    imageIds: v.imageIds.join(' '),
    removed: v.removed,
  };
}

/** Variant titles made again from the labels (after a rename), in one statement. */
async function retitle(tx: Tx, tenantId: string, productId: string) {
  await tx.execute(sql`
    UPDATE product_variants v SET title = coalesce((
      SELECT string_agg(ov.label, ' / ' ORDER BY o.position)
      FROM product_option_values ov
      JOIN product_options o ON o.tenant_id = ov.tenant_id AND o.product_id = ov.product_id AND o.option_id = ov.option_id
      WHERE ov.tenant_id = v.tenant_id AND ov.product_id = v.product_id
        AND ov.value_id IN (v.option1_value_id, v.option2_value_id, v.option3_value_id)), '')
    WHERE v.tenant_id = ${tenantId} AND v.product_id = ${productId}`);
}

/**
 * Moves kept options to their new positions. Positions are unique per product and between 1 and 3,
 * so each move goes to a free position: one whose option has moved away, else the free third one
 * when options swap. Three options that swap have no free position (the index is checked row by
 * row), and are refused.
 */
async function moveOptions(
  tx: Tx,
  tenantId: string,
  productId: string,
  moves: { optionId: string; from: number; to: number }[],
) {
  const at = new Map(moves.map((m) => [m.from, m.optionId]));
  const pos = new Map(moves.map((m) => [m.optionId, m.from]));
  for (let round = 0; round < 10; round++) {
    const pending = moves.filter((m) => pos.get(m.optionId) !== m.to);
    if (!pending.length) return;
    const ready = pending.find((m) => !at.has(m.to));
    const free = [1, 2, 3].find((q) => !at.has(q));
    const move = ready ?? pending[0];
    const to = ready ? ready.to : free;
    if (!move || to === undefined) {
      throw unprocessable('options', 'three options cannot be reordered yet; remove one, reorder, then add it again.');
    }
    await tx
      .update(po)
      .set({ position: to })
      .where(and(eq(po.tenantId, tenantId), eq(po.productId, productId), eq(po.optionId, move.optionId)));
    at.delete(pos.get(move.optionId) as number);
    at.set(to, move.optionId);
    pos.set(move.optionId, to);
  }
}

/**
 * Writes the product's options whole, in order. An option is matched by id, else by name; a value by
 * id (which must be one of that option's), else by label. Kept options take the order sent, and the
 * variants' value columns move with them in the same transaction (column N holds the value of the
 * option at position N); values take the order sent. New options come after the kept ones, and the live variants get the new option's first value, so they stay one per
 * combination. An option or value that live variants still use cannot go (409), except an option
 * whose removal leaves the live variants distinct (all of them had the same value of it).
 */
export async function writeOptions(
  tx: Tx,
  ctx: RequestContext,
  deps: Deps,
  productId: string,
  input: ProductOptionsInput,
): Promise<void> {
  const t = ctx.tenantId;
  const { view: before } = await lockProduct(tx, ctx, productId);
  const live = before.variants.filter((v) => !v.removed);
  const existing = before.options;
  const used = new Set<string>();
  const plan = input.options.map((o, i) => {
    const match = o.optionId
      ? existing.find((e) => e.optionId === o.optionId)
      : existing.find((e) => !used.has(e.optionId) && e.name.toLowerCase() === o.name.toLowerCase());
    if (o.optionId && !match) throw unprocessable(`options.${i}.optionId`, `no option ${o.optionId} on this product.`);
    if (match) {
      if (used.has(match.optionId)) throw unprocessable(`options.${i}`, `option ${match.name} is named twice.`);
      used.add(match.optionId);
    }
    return { input: o, match, newPosition: i + 1 };
  });
  // Kept options keep their order and come first.
  const kept = plan.filter((x) => x.match);
  const firstNew = plan.findIndex((x) => !x.match);
  if (firstNew >= 0 && plan.slice(firstNew).some((x) => x.match)) {
    throw unprocessable('options', 'add new options after the existing ones, then move them.');
  }
  const dropped = existing.filter((e) => !used.has(e.optionId));
  // The live variants' combinations without the dropped options must stay distinct.
  if (dropped.length) {
    const keptIds = new Set(kept.map((x) => x.match?.optionId));
    const seen = new Map<string, string>();
    for (const v of live) {
      const key = v.valueIds.filter((_, i) => keptIds.has(existing[i]?.optionId)).join('|');
      const other = seen.get(key);
      if (other) {
        throw conflict(
          'options',
          `removing ${dropped.map((d) => d.name).join(', ')} would make variants ${other} and ${v.title} the same; remove one of them first.`,
        );
      }
      seen.set(key, v.title);
    }
  }
  // Values: matched by id (of this option only) or label; the unmatched go, unless a live variant uses them.
  const liveValues = new Set(live.flatMap((v) => v.valueIds));
  const valuePlans = kept.map(({ input: o, match }, oi) => {
    const have = match?.values ?? [];
    const taken = new Set<string>();
    const values = o.values.map((v, vi2) => {
      if (v.valueId) {
        const hit = have.find((h) => h.valueId === v.valueId);
        if (!hit) {
          throw unprocessable(
            `options.${oi}.values.${vi2}.valueId`,
            `${v.valueId} is not a value of option ${match?.name}.`,
          );
        }
        taken.add(hit.valueId);
        return { v, hit };
      }
      const hit = have.find((h) => !taken.has(h.valueId) && h.label.toLowerCase() === v.label.toLowerCase());
      if (hit) taken.add(hit.valueId);
      return { v, hit };
    });
    const gone = have.filter((h) => !taken.has(h.valueId));
    for (const g of gone) {
      if (liveValues.has(g.valueId)) {
        const users = live.filter((x) => x.valueIds.includes(g.valueId)).map((x) => x.title);
        throw conflict(
          `options.${oi}.values`,
          `${match?.name} ${g.label} is still used by ${users.length} variant(s) (${users.slice(0, 3).join(', ')}); remove them first.`,
        );
      }
    }
    return { optionId: match?.optionId as string, values, gone };
  });
  const media = new Set(
    input.options.flatMap((o) => o.values.flatMap((v) => (v.swatchMediaId ? [v.swatchMediaId] : []))),
  );
  if (media.size) {
    const pictures = await tx
      .select({ mediaId: schema.productImages.mediaId })
      .from(schema.productImages)
      .where(and(eq(schema.productImages.tenantId, t), eq(schema.productImages.productId, productId)));
    const missing = [...media].filter((m) => !pictures.some((x) => x.mediaId === m));
    if (missing.length)
      throw unprocessable('options', `a swatch picture is not one of the product's: ${missing.join(', ')}.`);
  }

  // 1. The value columns follow the options' new positions (dropped options' columns go); removed
  // variants let go of values that go (their title keeps the words).
  const goneValues = valuePlans.flatMap((x) => x.gone.map((g) => g.valueId));
  const colOf = (position: number) => sql.raw(`option${position}_value_id`);
  const newCols = [1, 2, 3].map((q) => {
    const k = kept[q - 1];
    return k?.match ? colOf(k.match.position) : sql`NULL`;
  });
  const positionsMove = dropped.length > 0 || kept.some((k, i) => k.match?.position !== i + 1);
  if (positionsMove) {
    await tx.execute(sql`
      UPDATE product_variants SET option1_value_id = ${newCols[0]}, option2_value_id = ${newCols[1]},
        option3_value_id = ${newCols[2]}, updated_at = now()
      WHERE tenant_id = ${t} AND product_id = ${productId}`);
  }
  if (goneValues.length) {
    for (const c of [1, 2, 3]) {
      await tx.execute(sql`
        UPDATE product_variants SET ${colOf(c)} = NULL
        WHERE tenant_id = ${t} AND product_id = ${productId} AND removed_at IS NOT NULL
          AND ${colOf(c)} IN (${sql.join(
            goneValues.map((v) => sql`${v}`),
            sql`, `,
          )})`);
    }
  }
  // 2. Options: dropped ones go (their values with them), kept ones move down in order (each target
  // position is free by then), renames pass through a placeholder so two swapped names cannot collide.
  if (dropped.length) {
    await tx.delete(po).where(
      and(
        eq(po.tenantId, t),
        eq(po.productId, productId),
        inArray(
          po.optionId,
          dropped.map((d) => d.optionId),
        ),
      ),
    );
  }
  for (const k of kept) {
    const m = k.match;
    if (m && m.name !== k.input.name) {
      await tx
        .update(po)
        .set({ name: `~renaming~${m.optionId}` })
        .where(and(eq(po.tenantId, t), eq(po.productId, productId), eq(po.optionId, m.optionId)));
    }
  }
  await moveOptions(
    tx,
    t,
    productId,
    kept.map((k, i) => ({ optionId: k.match?.optionId as string, from: k.match?.position as number, to: i + 1 })),
  );
  for (const k of kept) {
    if (k.match && k.match.name !== k.input.name) {
      await tx
        .update(po)
        .set({ name: k.input.name })
        .where(and(eq(po.tenantId, t), eq(po.productId, productId), eq(po.optionId, k.match.optionId)));
    }
  }
  const added = plan.filter((x) => !x.match).map((x) => ({ ...x, optionId: newId('O') }));
  if (added.length) {
    await tx.insert(po).values(
      added.map((a) => ({
        tenantId: t,
        productId,
        optionId: a.optionId,
        name: a.input.name,
        position: a.newPosition,
      })),
    );
  }
  // 3. Values of kept options: the gone deleted, the renamed through a placeholder, positions and swatches set, the new inserted.
  if (goneValues.length) {
    await tx.delete(pv).where(and(eq(pv.tenantId, t), eq(pv.productId, productId), inArray(pv.valueId, goneValues)));
  }
  const renamed = valuePlans.flatMap((x) => x.values.filter((v) => v.hit && v.hit.label !== v.v.label));
  for (const r of renamed) {
    await tx
      .update(pv)
      .set({ label: `~renaming~${r.hit?.valueId}` })
      .where(and(eq(pv.tenantId, t), eq(pv.productId, productId), eq(pv.valueId, r.hit?.valueId as string)));
  }
  const inserts: (typeof pv.$inferInsert)[] = [];
  for (const x of valuePlans) {
    for (const [n, { v, hit }] of x.values.entries()) {
      const row = {
        label: v.label,
        position: n + 1,
        swatchColor: v.swatchColor ?? null,
        swatchMediaId: v.swatchMediaId ?? null,
      };
      if (hit) {
        await tx
          .update(pv)
          .set(row)
          .where(and(eq(pv.tenantId, t), eq(pv.productId, productId), eq(pv.valueId, hit.valueId)));
      } else inserts.push({ tenantId: t, productId, optionId: x.optionId, valueId: newId('V'), ...row });
    }
  }
  const firstValueOf = new Map<string, string>();
  for (const a of added) {
    for (const [n, v] of a.input.values.entries()) {
      const valueId = newId('V');
      if (n === 0) firstValueOf.set(a.optionId, valueId);
      inserts.push({
        tenantId: t,
        productId,
        optionId: a.optionId,
        valueId,
        label: v.label,
        position: n + 1,
        swatchColor: v.swatchColor ?? null,
        swatchMediaId: v.swatchMediaId ?? null,
      });
    }
  }
  if (inserts.length) await tx.insert(pv).values(inserts);
  // 4. Live variants take each new option's first value, so each stays its own combination.
  for (const a of added) {
    await tx.execute(sql`
      UPDATE product_variants SET ${colOf(a.newPosition)} = ${firstValueOf.get(a.optionId) as string}, updated_at = now()
      WHERE tenant_id = ${t} AND product_id = ${productId} AND removed_at IS NULL`);
  }
  await retitle(tx, t, productId);
  await refreshProductRollup(tx, ctx, [productId]);
  const after = (await readVariants(tx, t, productId)) as ProductVariantsView;
  const optionsOf = (v: ProductVariantsView) =>
    Object.fromEntries(v.options.map((o) => [o.name, o.values.map((x) => x.label).join(', ')]));
  await deps.audit.record(tx, ctx, {
    entity: 'product',
    entityId: productId,
    action: 'options-changed',
    before: optionsOf(before),
    after: optionsOf(after),
  });
}

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

/** SKU unique among the store's live variants; the refusal names the variant that holds it. */
async function assertSkuFree(tx: Tx, tenantId: string, sku: string, self: string | null) {
  const [holder] = await tx
    .select({ variantId: vr.variantId, title: vr.title, productName: p.productName })
    .from(vr)
    .innerJoin(p, and(eq(p.tenantId, vr.tenantId), eq(p.productId, vr.productId)))
    .where(and(eq(vr.tenantId, tenantId), eq(vr.sku, sku), isNull(vr.removedAt)));
  if (holder && holder.variantId !== self) {
    throw conflict(
      'sku',
      `SKU ${sku} is already used by ${variantDisplayName(holder.productName, holder.title)} (variant ${holder.variantId}).`,
    );
  }
}

async function assertImages(tx: Tx, tenantId: string, productId: string, imageIds: readonly string[]) {
  if (!imageIds.length) return;
  const rows = await tx
    .select({ mediaId: schema.productImages.mediaId })
    .from(schema.productImages)
    .where(
      and(
        eq(schema.productImages.tenantId, tenantId),
        eq(schema.productImages.productId, productId),
        inArray(schema.productImages.mediaId, [...imageIds]),
      ),
    );
  const missing = imageIds.filter((id) => !rows.some((r) => r.mediaId === id));
  if (missing.length) throw unprocessable('imageIds', `not a picture of this product: ${missing.join(', ')}.`);
}

async function writeImages(
  tx: Tx,
  tenantId: string,
  productId: string,
  variantId: string,
  imageIds: readonly string[],
) {
  await tx.delete(vi).where(and(eq(vi.tenantId, tenantId), eq(vi.variantId, variantId)));
  const unique = [...new Set(imageIds)];
  if (unique.length) {
    await tx
      .insert(vi)
      .values(unique.map((mediaId, position) => ({ tenantId, productId, variantId, mediaId, position })));
  }
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
  const t = ctx.tenantId;
  const { view } = await lockProduct(tx, ctx, productId);
  if (!view.options.length) {
    throw unprocessable('values', 'this product has no options; add an option before adding variants.');
  }
  const { ids, title } = resolveValues(view, input);
  const key = ids.join('|');
  const same = view.variants.filter((v) => v.valueIds.join('|') === key);
  const liveTwin = same.find((v) => !v.removed);
  if (liveTwin) throw conflict('values', `variant ${title} already exists (variant ${liveTwin.variantId}).`);
  const live = view.variants.filter((v) => !v.removed);
  if (live.length >= MAX_VARIANTS) throw unprocessable('values', `a product has at most ${MAX_VARIANTS} variants.`);
  await assertSkuFree(tx, t, input.sku, null);
  await assertImages(tx, t, productId, input.imageIds);
  const revived = same[0];
  const variantId = revived?.variantId ?? newId('V');
  const row = variantColumns(input, title, ids);
  const [last] = await tx
    .select({ position: sql<number>`coalesce(max(${vr.position}), 0)::int` })
    .from(vr)
    .where(and(eq(vr.tenantId, t), eq(vr.productId, productId)));
  const position = (last?.position ?? 0) + 1;
  if (revived) {
    await tx
      .update(vr)
      .set({ ...row, removedAt: null })
      .where(and(eq(vr.tenantId, t), eq(vr.variantId, variantId)));
  } else {
    await tx.insert(vr).values({ tenantId: t, productId, variantId, position, ...row });
  }
  await writeImages(tx, t, productId, variantId, input.imageIds);
  let stockMoved = false;
  if (input.stock !== undefined && input.stock > 0) {
    const moved = await changeStock(tx, ctx, [
      { variantId, set: input.stock, reason: 'RECEIVED', note: revived ? 'variant added again' : 'first stock' },
    ]);
    if (!moved.ok) throw new Error(`first stock of a new variant failed: ${moved.code}`);
    stockMoved = moved.moved.some((m) => m.delta !== 0);
  }
  await refreshProductRollup(tx, ctx, [productId]);
  const after = (await readVariants(tx, t, productId)) as ProductVariantsView;
  await deps.audit.record(tx, ctx, {
    entity: 'product',
    entityId: productId,
    action: 'variant-added',
    after: auditedVariant(after.variants.find((v) => v.variantId === variantId)),
  });
  return { variantId, stockMoved };
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
  const t = ctx.tenantId;
  const { view } = await lockProduct(tx, ctx, productId);
  const current = view.variants.find((v) => v.variantId === variantId && !v.removed);
  if (!current) throw new Refused(refuseField(422, 'UNPROCESSABLE', 'variantId', 'this variant was removed.'));
  if (input.variantId && input.variantId !== variantId) {
    throw unprocessable('variantId', 'the body names another variant than the address.');
  }
  const { ids, title } = resolveValues(view, input);
  const twin = view.variants.find(
    (v) => !v.removed && v.variantId !== variantId && v.valueIds.join('|') === ids.join('|'),
  );
  if (twin) throw conflict('values', `variant ${title} already exists (variant ${twin.variantId}).`);
  await assertSkuFree(tx, t, input.sku, variantId);
  await assertImages(tx, t, productId, input.imageIds);
  await tx
    .update(vr)
    .set(variantColumns(input, title, ids))
    .where(and(eq(vr.tenantId, t), eq(vr.variantId, variantId)));
  if (current.imageIds.join(' ') !== [...new Set(input.imageIds)].join(' ')) {
    await writeImages(tx, t, productId, variantId, input.imageIds);
  }
  let stockMoved = false;
  if (input.stock !== undefined) {
    // The difference from what the owner saw, so a sale meanwhile is not undone (decision 087).
    const delta = input.stock - (input.stockSeen ?? current.stock);
    if (delta !== 0) {
      const moved = await changeStock(tx, ctx, [{ variantId, delta, reason: 'CORRECTION', note: 'variant editor' }]);
      if (!moved.ok) {
        throw conflict('stock', `only ${current.stock} in stock now; the count changed while you edited it.`);
      }
      stockMoved = true;
    }
  }
  await refreshProductRollup(tx, ctx, [productId]);
  const after = (await readVariants(tx, t, productId)) as ProductVariantsView;
  await deps.audit.record(tx, ctx, {
    entity: 'product',
    entityId: productId,
    action: 'variant-changed',
    before: auditedVariant(current),
    after: auditedVariant(after.variants.find((v) => v.variantId === variantId)),
  });
  return { variantId, stockMoved };
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
