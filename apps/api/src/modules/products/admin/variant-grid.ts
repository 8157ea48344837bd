import {
  type ProductOptionsInput,
  type ProductVariantsView,
  type ProductVariantWrite,
  VARIANT_GRID_CELLS,
  type VariantGridCell,
  variantGridErrorKey,
} from '@app/contracts';
import type { Tx } from '@app/db';
import type { RequestContext } from '../../../lib/context';
import { Refused, refuseField } from '../../../lib/result';
import type { AuditService } from '../../audit/index';
import { writeOptions } from './option-writer';
import { readVariants } from './variant-view';
import { removeVariant, type VariantRow, VariantRowRefused, writeVariantRows } from './variant-writer';

/**
 * The editor's variant grid saved with the product (decision 112): options, then every row, then the
 * rows left out, all through the variant writer in the editor save's one transaction, so a refused row
 * (a SKU another variant holds) rolls back the product, the options and every other row with it.
 */

/** A row of the grid: a variant of the product (`variantId`) or a new one, its values as labels. */
export type VariantGridRow = ProductVariantWrite & { values: string[] };

export interface VariantGridInput {
  options: ProductOptionsInput['options'];
  rows: VariantGridRow[];
}

const CELLS = new Set<string>(VARIANT_GRID_CELLS);

/** A writer's refusal of row `n`, named by its cell ("variants.3.sku") so the grid marks that cell. */
function onRow(n: number, err: unknown): never {
  if (!(err instanceof Refused)) throw err;
  const r = err.refusal;
  const head = (r.field ?? '').split('.')[0] ?? '';
  const cell = (CELLS.has(head) ? head : head === 'valueIds' ? 'values' : 'sku') as VariantGridCell;
  throw new Refused({
    ...r,
    field: variantGridErrorKey(n, cell),
    fieldMessage: r.fieldMessage ?? r.message,
    formMessage: `Not saved: row ${n + 1} of the variants. ${r.fieldMessage ?? r.message}`,
  });
}

/** Whether a row says what its variant already is: such rows are not written (nor audited). */
function unchangedRow(view: ProductVariantsView, variantId: string, row: VariantGridRow): boolean {
  const v = view.variants.find((x) => x.variantId === variantId);
  if (!v || v.removed) return false;
  const labels = v.valueIds.map((id, i) => view.options[i]?.values.find((x) => x.valueId === id)?.label ?? '');
  return (
    labels.join('|') === row.values.map((l) => l.trim()).join('|') &&
    v.sku === row.sku &&
    v.listPrice === row.listPrice &&
    v.salePrice === (row.salePrice ?? null) &&
    v.enabled === row.enabled &&
    (row.barcode === undefined || v.barcode === row.barcode) &&
    (row.weightGrams === undefined || v.weightGrams === row.weightGrams) &&
    v.imageIds.join(' ') === [...new Set(row.imageIds)].join(' ') &&
    (row.stock === undefined || row.stock === (row.stockSeen ?? v.stock))
  );
}

/**
 * A variant's pictures after a grid save. The grid shows and picks a variant's first picture only; the
 * others (given through the API or the CSV's variant_images) stay behind it, so saving the editor does
 * not drop them. No picture in the cell means none.
 */
function gridImages(current: string[], fromGrid: string[]): string[] {
  const first = fromGrid[0];
  if (first === undefined) return [];
  return [first, ...current.slice(1).filter((id) => id !== first)];
}

const same = (a: ProductVariantsView, b: ProductVariantsView) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Writes the grid: first the variants left out (so their SKUs and values are free), keeping one when
 * none of the old ones stays (a product keeps a variant); then the options (renames keep the values'
 * ids, so rows name values by their new labels); then each row: changed when it names its variant,
 * else the live variant of its combination (a product's first option makes its default variant the
 * first combination), else added; then the one kept back, if no row claimed it.
 */
export async function writeVariantGrid(
  tx: Tx,
  ctx: RequestContext,
  deps: { audit: AuditService },
  productId: string,
  grid: VariantGridInput,
): Promise<{ changed: boolean; stockMoved: boolean }> {
  const before = (await readVariants(tx, ctx.tenantId, productId)) as ProductVariantsView;
  // A product without options whose grid posts none: the product's own fields are its variant.
  if (!before.options.length && !grid.options.length) return { changed: false, stockMoved: false };
  let stockMoved = false;
  const live = before.variants.filter((v) => !v.removed);
  const named = new Set(grid.rows.flatMap((r) => (r.variantId ? [r.variantId] : [])));
  const leftOut = live.filter((v) => !named.has(v.variantId));
  const keptBack = leftOut.length === live.length ? leftOut.shift() : undefined;
  if (!grid.options.length && keptBack === undefined && leftOut.length) leftOut.pop();
  for (const v of leftOut) {
    const done = await removeVariant(tx, ctx, deps, productId, v.variantId);
    stockMoved ||= done.stockMoved;
  }
  await writeOptions(tx, ctx, deps, productId, { options: grid.options });
  const claimed = new Set<string>();
  // One read after the options, then every row judged against it and written in one set-based write.
  const now = (await readVariants(tx, ctx.tenantId, productId)) as ProductVariantsView;
  const batch: VariantRow[] = [];
  const rowOf: number[] = [];
  for (const [n, row] of grid.rows.entries()) {
    let target = row.variantId;
    if (!target) {
      const labels = row.values.map((l) => l.trim().toLowerCase()).join('|');
      const twin = now.variants.find(
        (v) =>
          !v.removed &&
          !claimed.has(v.variantId) &&
          !named.has(v.variantId) &&
          v.valueIds
            .map((id, i) => now.options[i]?.values.find((x) => x.valueId === id)?.label.toLowerCase())
            .join('|') === labels,
      );
      target = twin?.variantId;
    }
    if (target) {
      claimed.add(target);
      const cur = now.variants.find((v) => v.variantId === target);
      const kept = { ...row, imageIds: gridImages(cur?.imageIds ?? [], row.imageIds) };
      if (unchangedRow(now, target, kept)) continue;
      // The grid has no barcode or weight column: what the variant has stays.
      batch.push({
        variantId: target,
        input: {
          ...kept,
          variantId: undefined,
          barcode: row.barcode === undefined ? cur?.barcode : row.barcode,
          weightGrams: row.weightGrams === undefined ? cur?.weightGrams : row.weightGrams,
        },
      });
    } else batch.push({ input: { ...row, stockSeen: undefined } });
    rowOf.push(n);
  }
  if (batch.length) {
    try {
      const done = await writeVariantRows(tx, ctx, deps, productId, batch, { changed: 'variant editor' });
      for (const id of done.variantIds) claimed.add(id);
      stockMoved ||= done.stockMoved;
    } catch (err) {
      if (err instanceof VariantRowRefused) onRow(rowOf[err.row] ?? 0, err);
      throw err;
    }
  }
  if (keptBack && !claimed.has(keptBack.variantId) && grid.rows.length) {
    const done = await removeVariant(tx, ctx, deps, productId, keptBack.variantId);
    stockMoved ||= done.stockMoved;
  }
  const after = (await readVariants(tx, ctx.tenantId, productId)) as ProductVariantsView;
  return { changed: !same(before, after), stockMoved };
}

/** A refusal of the grid as a whole (no row to name): shown on the Variants card. */
export function gridRefusal(message: string) {
  return new Refused(refuseField(422, 'UNPROCESSABLE', 'variants', message));
}
