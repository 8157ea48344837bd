/**
 * The run's writes of one batch of products, inside the batch's transaction: each product planned
 * again against the catalog as it is now (planOf, as the dry run), then written through the
 * product writer, the stock mover and the variant writer. Separate from the service because this is
 * where a row becomes writes; the transaction, the counters and the retry one product at a time are
 * import-batch.ts.
 */
import type { ProductFields, TaxClass } from '@app/contracts';
import type { Tx } from '@app/db';
import type { RequestContext } from '../../../lib/context';
import { Refused } from '../../../lib/result';
import type { AuditService } from '../../audit/index';
import { writeProducts, writeProductTaxClass } from '../admin/index';
import { writeOptions } from '../admin/option-writer';
import { readVariants } from '../admin/variant-view';
import { updateVariant, type VariantRow, writeVariantRows } from '../admin/variant-writer';
import { changeStock, type StockChange } from '../inventory/index';
import type { DataRow } from './csv-file';
import { planOf } from './import-dry-run';
import { readGroupFacts } from './product-facts';
import { type ProductPlan, rowOutcomes, type VariantStep } from './product-plan';
import { moveSlug, type Problem } from './row-plan';

/** What the writes need of the service: the audit log the writers record in. */
export interface WriteDeps {
  audit: AuditService;
}

/** Thrown when the stock of a written batch is refused: the batch rolls back and its products go alone. */
export class RetryRowsAlone extends Error {}

type Outcome =
  | { kind: 'applied'; productId: string; created: boolean; changed: boolean; stockMoved: boolean }
  | { kind: 'unchanged' }
  | { kind: 'refused'; sku: string | null; problems: Problem[] }
  /** A row of a product planned variant by variant, counted as planned. */
  | { kind: 'variant'; count: 'created' | 'updated' | 'unchanged'; productId: string; stockMoved: boolean };

/**
 * The products' writes in `tx`. A product met twice in the batch starts a new round, so it sees
 * the earlier write, as it would one at a time. Refusals write nothing; a stock refusal after the
 * product writes throws (the batch rolls back and its products go alone).
 */
export async function applyGroups(deps: WriteDeps, tx: Tx, ctx: RequestContext, groups: DataRow[][], currency: string) {
  const rounds: DataRow[][][] = [];
  let round: DataRow[][] = [];
  const keys = new Set<string>();
  for (const g of groups) {
    const own = [
      ...g.map((r) => `s:${(r.cells.sku ?? '').trim()}`),
      ...g.map((r) => `v:${(r.cells.variant_id ?? '').trim()}`),
      `p:${(g[0]?.cells.product_id ?? '').trim()}`,
    ].filter((k) => k.length > 2);
    if (own.some((k) => keys.has(k))) {
      rounds.push(round);
      round = [];
      keys.clear();
    }
    for (const k of own) keys.add(k);
    round.push(g);
  }
  if (round.length) rounds.push(round);
  const out = new Map<number, Outcome>();
  for (const part of rounds) await applyRound(deps, tx, ctx, part, currency, out);
  return out;
}

/** Plans the products (planProduct, as the dry run) against the catalog in `tx`, then writes what changes. */
async function applyRound(
  deps: WriteDeps,
  tx: Tx,
  ctx: RequestContext,
  groups: DataRow[][],
  currency: string,
  out: Map<number, Outcome>,
) {
  const facts = await readGroupFacts(
    tx,
    ctx.tenantId,
    groups.map((rows) => ({ rows })),
  );
  const writes: {
    at: number;
    stock: number | null;
    stockSeen: number | null;
    sku: string | null;
    productId?: string;
    fields: ProductFields;
    extra: VariantStep | null;
    taxClass: TaxClass | null;
  }[] = [];
  const variantPlans: ProductPlan[] = [];
  for (const rows of groups) {
    const plan = planOf(rows, facts, currency, null);
    if (plan.kind === 'refused') {
      for (const r of plan.rows) out.set(r.row, { kind: 'refused', sku: r.sku, problems: r.problems });
      continue;
    }
    if (plan.kind === 'variants') {
      variantPlans.push(plan);
      continue;
    }
    const { row, plan: rp, existing } = plan;
    moveSlug(facts.slugHolders, rp, existing);
    if (rp.kind === 'refused') out.set(row.row, { kind: 'refused', sku: rp.sku, problems: rp.problems });
    else if (rp.kind === 'unchanged') out.set(row.row, { kind: 'unchanged' });
    else if (rp.kind === 'update' && !plan.extra && rp.changes.every((c) => c === 'tax_class')) {
      // Only the class changes: the product's other columns are not rewritten (no updated_at, no
      // product event), as the editor's class change does not; the class alone is audited.
      if (rp.taxClass) await writeProductTaxClass(tx, ctx, deps.audit, rp.productId, rp.taxClass);
      out.set(row.row, {
        kind: 'applied',
        productId: rp.productId,
        created: false,
        changed: true,
        stockMoved: false,
      });
    } else {
      const productId = rp.kind === 'update' ? rp.productId : undefined;
      writes.push({
        at: row.row,
        stock: rp.stock,
        stockSeen: existing ? existing.stockQuantity : null,
        sku: rp.sku,
        productId,
        fields: rp.fields,
        extra: plan.extra,
        taxClass: rp.taxClass,
      });
    }
  }
  const written = writes.length ? await writeProducts(tx, ctx, { audit: deps.audit }, writes) : [];
  const stock: StockChange[] = [];
  for (const [k, w] of written.entries()) {
    const row = writes[k] as (typeof writes)[number];
    if (!w.ok) {
      const column = ({ slug: 'slug', sku: 'sku', categoryIds: 'categories', productId: 'sku' } as const)[w.field];
      out.set(row.at, { kind: 'refused', sku: row.sku, problems: [{ column, message: w.message }] });
      continue;
    }
    out.set(row.at, {
      kind: 'applied',
      productId: w.productId,
      created: w.created,
      changed: w.changed,
      stockMoved: false,
    });
    if (row.taxClass) await writeProductTaxClass(tx, ctx, deps.audit, w.productId, row.taxClass);
    if (row.extra?.kind === 'update') {
      const x = row.extra;
      await updateVariant(tx, ctx, { audit: deps.audit }, w.productId, x.variantId || w.productId, {
        values: [],
        sku: row.fields.sku,
        barcode: x.variant.barcode,
        listPrice: row.fields.listPrice,
        salePrice: row.fields.salePrice,
        weightGrams: row.fields.weightGrams,
        enabled: x.variant.enabled ?? true,
        imageIds: x.imageIds,
      });
      const o = out.get(row.at);
      if (o?.kind === 'applied') o.changed = true;
    }
    // Stock in the file is a count: the difference from the count planned against is moved, so a sale meanwhile stays.
    if (row.stock !== null) {
      const delta = row.stock - (row.stockSeen ?? 0);
      if (row.stockSeen === null) {
        stock.push({ productId: w.productId, set: row.stock, reason: 'CORRECTION', note: 'CSV import' });
      } else if (delta !== 0) {
        stock.push({ productId: w.productId, delta, reason: 'CORRECTION', note: 'CSV import' });
      }
    }
  }
  if (stock.length) {
    const moved = await changeStock(tx, ctx, stock);
    // The product rows are written already: the batch must roll back whole (its rows retried alone).
    if (!moved.ok) throw new RetryRowsAlone(moved.code);
    const ids = new Set(moved.moved.map((m) => m.productId));
    for (const o of out.values()) if (o.kind === 'applied' && ids.has(o.productId)) o.stockMoved = true;
  }
  for (const plan of variantPlans) {
    if (plan.kind !== 'variants') continue;
    try {
      // A savepoint per product: a refusal of the writer undoes that product only.
      const done = await tx.transaction((sp) => applyVariants(deps, sp, ctx, plan));
      for (const o of rowOutcomes(plan)) {
        out.set(o.row, { kind: 'variant', count: o.kind, productId: done.productId, stockMoved: done.stockMoved });
      }
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      const problem = { column: csvColumnOf(err.refusal.field), message: err.refusal.fieldMessage ?? err.message };
      for (const s of plan.steps) {
        out.set(s.row, { kind: 'refused', sku: s.sku, problems: s.row === plan.firstRow ? [problem] : [] });
      }
      const firstStep = out.get(plan.firstRow);
      if (!firstStep) out.set(plan.firstRow, { kind: 'refused', sku: null, problems: [problem] });
    }
  }
}

/**
 * Writes one product planned variant by variant, through the product writer and the variant
 * writer (which audit, lock the product and make the rollup again): the product's own fields,
 * new options and values, the changed variants, then the new ones (so a value a changed variant
 * gives up is free for a new one). Stock moves by the difference from the count planned against.
 */
async function applyVariants(
  deps: WriteDeps,
  tx: Tx,
  ctx: RequestContext,
  plan: Extract<ProductPlan, { kind: 'variants' }>,
) {
  const audit = { audit: deps.audit };
  let productId = plan.productId;
  let created = false;
  if (plan.fields) {
    const [w] = await writeProducts(tx, ctx, audit, [{ productId: productId ?? undefined, fields: plan.fields }]);
    if (!w?.ok)
      throw new Refused({
        ok: false,
        status: 422,
        code: 'CONFLICT',
        message: w?.message ?? 'refused',
        field: w?.field,
        fieldMessage: w?.message,
      });
    productId = w.productId;
    created = w.created;
  }
  if (!productId) throw new Error('a product planned by variants has no id');
  if (plan.taxClass) await writeProductTaxClass(tx, ctx, deps.audit, productId, plan.taxClass);
  if (plan.options) await writeOptions(tx, ctx, audit, productId, { options: plan.options });
  const input = (
    s: Extract<VariantStep, { kind: 'update' | 'create' }>,
    values: string[],
    cur?: { barcode: string | null; salePrice: number | null; weightGrams: number | null; enabled: boolean },
  ) => ({
    values,
    sku: s.variant.sku,
    barcode: s.variant.barcode === undefined ? (cur?.barcode ?? null) : s.variant.barcode,
    listPrice: s.variant.listPrice,
    salePrice: s.variant.salePrice === undefined ? (cur?.salePrice ?? null) : s.variant.salePrice,
    weightGrams: s.variant.weightGrams === undefined ? (cur?.weightGrams ?? null) : s.variant.weightGrams,
    enabled: s.variant.enabled ?? cur?.enabled ?? true,
    imageIds: s.imageIds,
  });
  const view = await readVariants(tx, ctx.tenantId, productId);
  const live = view?.variants.filter((v) => !v.removed) ?? [];
  // The product's variant rows planned in memory, then written by the variant writer in one set-based
  // write (decision 112, round three): changed ones before new ones, stock as differences, one rollup.
  const rows: VariantRow[] = [];
  for (const s of plan.steps) {
    if (s.kind !== 'update') continue;
    const cur = live.find((v) => v.variantId === s.variantId);
    const touched = s.changes.filter((c) => c !== 'stock');
    const stock = s.variant.stock !== null && s.variant.stock !== s.stockSeen ? s.variant.stock : undefined;
    if (!touched.length && !plan.options && stock === undefined) continue;
    rows.push({
      variantId: s.variantId,
      input: { ...input(s, s.values, cur), stock, stockSeen: stock === undefined ? undefined : s.stockSeen },
    });
  }
  for (const s of plan.steps) {
    if (s.kind !== 'create') continue;
    const values = s.title ? s.title.split(' / ') : [];
    if (s.first && created) {
      // A product made by this file: its default variant is now its first combination.
      const only = live[0];
      if (!only) throw new Error('a new product has no variant');
      rows.push({
        variantId: only.variantId,
        input: { ...input(s, s.variant.values), stock: s.variant.stock ?? undefined, stockSeen: only.stock },
      });
    } else {
      rows.push({
        input: { ...input(s, values.length ? s.variant.values : []), stock: s.variant.stock ?? undefined },
      });
    }
  }
  if (!rows.length) return { productId, stockMoved: false };
  const done = await writeVariantRows(tx, ctx, audit, productId, rows, { changed: 'CSV import' });
  return { productId, stockMoved: done.stockMoved };
}

/** The CSV column of a field the writers name in a refusal. */
function csvColumnOf(field: string | undefined): string {
  if (!field) return 'row';
  const top = field.split('.')[0] ?? field;
  const map: Record<string, string> = {
    sku: 'sku',
    slug: 'slug',
    categoryIds: 'categories',
    values: 'option1_value',
    options: 'option1_name',
    imageIds: 'variant_images',
    stock: 'stock',
    barcode: 'barcode',
    listPrice: 'list_price',
    salePrice: 'sale_price',
    variantId: 'variant_id',
    productId: 'product_id',
  };
  return map[top] ?? top;
}
