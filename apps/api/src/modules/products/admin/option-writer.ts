import type { ProductOptionsInput, ProductVariantsView } from '@app/contracts';
import { schema, type Tx } from '@app/db';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { RequestContext } from '../../../lib/context';
import type { AuditService } from '../../audit/index';
import { refreshProductRollup } from './variant-rollup';
import { conflict, lockProduct, newId, readVariants, unprocessable } from './variant-view';

/**
 * The options' half of the variant writer (decision 112, part B): a product's options and their
 * values written whole (writeOptions), with the variants' value columns and titles following them,
 * audited as "options-changed". Separate from variant-writer.ts because the options are one list
 * diffed as a whole with steps of their own (positions moved through a free one, names and labels
 * renamed through a placeholder), while the variant writes judge rows against the options as they
 * are. Same rules: ids stay, refusals are thrown as `Refused` (409 for what is stored, 422 for a
 * request that cannot be meant).
 */

const po = schema.productOptions;
const pv = schema.productOptionValues;

type Deps = { audit: AuditService };

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
  // The read's options carry their position: honoured when every option has one (the contract checks that).
  const sent = input.options.every((o) => o.position !== undefined)
    ? [...input.options].sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
    : input.options;
  const plan = sent.map((o, i) => {
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

  // A write of the options as they are (the editor's save, a read sent back) writes nothing.
  const nothingChanges =
    !dropped.length &&
    kept.length === plan.length &&
    kept.every((k, i) => k.match?.position === i + 1 && k.match.name === k.input.name) &&
    valuePlans.every(
      (x, oi) =>
        !x.gone.length &&
        x.values.every(
          ({ v, hit }, n) =>
            hit !== undefined &&
            kept[oi]?.match?.values[n]?.valueId === hit.valueId &&
            hit.label === v.label &&
            hit.swatchColor === (v.swatchColor ?? null) &&
            hit.swatchMediaId === (v.swatchMediaId ?? null),
        ),
    );
  if (nothingChanges) return;

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
