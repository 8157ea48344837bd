/**
 * The import's preview (the dry run): every row of the uploaded file planned against the catalog,
 * nothing written, counted for the page that asks the owner to start the run. Separate from the
 * service because it is the one read-only pass over the file; the run plans each product with the
 * same planOf, so what the preview says is what the run writes.
 */
import type { Db, schema } from '@app/db';
import type { TenantContext } from '../../../lib/context';
import { type DataRow, fileError, readGroups } from './csv-file';
import { type GroupFacts, type ProductFull, readGroupFacts } from './product-facts';
import { planProduct, rowOutcomes } from './product-plan';
import { moveSlug, type Problem, stateAfter } from './row-plan';

/** Rows looked up together by the dry run. */
const DRY_BATCH = 500;
/** The first refused, updated and created rows the dry run keeps for the page. */
const FIRST = 20;

/** The dry run's summary with the variants the file leaves out (kept, listed). */
export type Summary = (typeof schema.productImports.$inferSelect)['summary'] & {
  leftOut: number;
  firstLeftOut: { row: number; product: string; variantId: string; sku: string; title: string }[];
};

/**
 * The dry run: every row planned against the catalog as it is, nothing written. A row whose SKU an
 * earlier row of the file planned to create or change meets that planned state, as the run's row
 * meets the earlier row's write.
 */
export async function dryRun(db: Db, ctx: TenantContext, path: string, currency: string): Promise<Summary> {
  const s: Summary = {
    rows: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    refused: 0,
    firstRefused: [],
    firstUpdated: [],
    firstCreated: [],
    leftOut: 0,
    firstLeftOut: [],
  };
  // The planned state of each single-variant product the file creates or changes, by SKU.
  const planned = new Map<string, ProductFull | null>();
  const plannedSlugs = new Map<string, string | null>();
  const refuse = (row: number, sku: string | null, errors: Problem[]) => {
    s.refused++;
    if (s.firstRefused.length < FIRST) s.firstRefused.push({ row, sku, errors });
  };
  const check = async (groups: DataRow[][]) => {
    const facts = await readGroupFacts(
      db,
      ctx.tenantId,
      groups.map((rows) => ({ rows })),
    );
    for (const [slug, holder] of plannedSlugs) facts.slugHolders.set(slug, holder);
    for (const rows of groups) {
      s.rows += rows.length;
      const plan = planOf(rows, facts, currency, planned);
      if (plan.kind === 'refused') {
        for (const r of plan.rows) refuse(r.row, r.sku, r.problems);
        continue;
      }
      if (plan.kind === 'variants') {
        for (const o of rowOutcomes(plan)) {
          if (o.kind === 'created') {
            s.created++;
            if (s.firstCreated.length < FIRST) s.firstCreated.push({ row: o.row, sku: o.sku, name: o.name });
          } else if (o.kind === 'updated') {
            s.updated++;
            if (s.firstUpdated.length < FIRST) s.firstUpdated.push({ row: o.row, sku: o.sku, changes: o.changes });
          } else s.unchanged++;
        }
        for (const v of plan.leftOut) {
          s.leftOut++;
          if (s.firstLeftOut.length < FIRST) s.firstLeftOut.push({ row: plan.firstRow, product: plan.name, ...v });
        }
        continue;
      }
      const { row: r, plan: rp, existing } = plan;
      if (rp.kind === 'refused') {
        refuse(r.row, rp.sku, rp.problems);
        continue;
      }
      if (rp.kind === 'create' || rp.kind === 'update') {
        const after = stateAfter(rp, existing);
        planned.set(
          rp.sku,
          after
            ? { view: { productId: after.productId, options: [], variants: [] }, images: [], ...existing, ...after }
            : null,
        );
      }
      moveSlug(facts.slugHolders, rp, existing);
      moveSlug(plannedSlugs, rp, existing);
      if (rp.kind === 'create') {
        s.created++;
        if (s.firstCreated.length < FIRST)
          s.firstCreated.push({ row: r.row, sku: rp.sku, name: rp.fields.productName });
      } else if (rp.kind === 'update') {
        s.updated++;
        if (s.firstUpdated.length < FIRST) s.firstUpdated.push({ row: r.row, sku: rp.sku, changes: rp.changes });
      } else s.unchanged++;
    }
  };
  let chunk: DataRow[][] = [];
  let size = 0;
  for await (const g of readGroups(path)) {
    chunk.push(g);
    size += g.length;
    if (size >= DRY_BATCH) {
      await check(chunk);
      chunk = [];
      size = 0;
    }
  }
  if (chunk.length) await check(chunk);
  if (s.rows === 0) throw fileError(422, 'The file has a header but no product rows.');
  return s;
}

/** The plan of one product's rows; a single-variant product the file planned before meets that planned state. */
export function planOf(
  rows: DataRow[],
  facts: GroupFacts,
  currency: string,
  planned: Map<string, ProductFull | null> | null,
) {
  const sku = (rows[0]?.cells.sku ?? '').trim();
  if (planned && rows.length === 1 && planned.has(sku)) {
    const state = planned.get(sku) ?? null;
    const local: GroupFacts = { ...facts, byId: new Map(facts.byId), skuHolder: new Map(facts.skuHolder) };
    if (state) {
      local.byId.set(state.productId, state);
      local.skuHolder.set(sku, {
        variantId: state.productId,
        productId: state.productId,
        name: state.fields.productName,
      });
    }
    return planProduct({ rows }, local, currency);
  }
  return planProduct({ rows }, facts, currency);
}
