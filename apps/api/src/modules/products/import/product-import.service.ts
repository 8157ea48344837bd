import { mkdir, rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { PRODUCT_CSV_COLUMNS, type ProductFields, type ProductImport, type TaxClass } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { RequestContext, TenantContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import type { EventBus } from '../../../lib/events/index';
import { Refused } from '../../../lib/result';
import type { AuditService } from '../../audit/index';
import type { Job, JobRunner, JobTools } from '../../jobs/index';
import { writeProducts, writeProductTaxClass } from '../admin/index';
import { readVariants, updateVariant, type VariantRow, writeOptions, writeVariantRows } from '../admin/variant-writer';
import { changeStock, type StockChange } from '../inventory/index';
import { type DataRow, fileError, newImportId, readGroups, writeLimited } from './csv-file';
import {
  type GroupFacts,
  type ProductFull,
  type ProductPlan,
  planProduct,
  readGroupFacts,
  rowOutcomes,
  type VariantStep,
} from './product-plan';
import { moveSlug, type Problem, stateAfter } from './row-plan';

const pi = schema.productImports;
const pie = schema.productImportErrors;
const ps = schema.productStores;

export const IMPORT_JOB = 'catalog.import-products';
/** Rows written per transaction; a batch with a failing row is written again one row at a time. */
const BATCH = 100;
/** Rows looked up together by the dry run. */
const DRY_BATCH = 500;
/** The first refused, updated and created rows the dry run keeps for the page. */
const FIRST = 20;

type ImportRow = typeof pi.$inferSelect;
/** The dry run's summary with the variants the file leaves out (kept, listed). */
type Summary = ImportRow['summary'] & {
  leftOut: number;
  firstLeftOut: { row: number; product: string; variantId: string; sku: string; title: string }[];
};

class RetryRowsAlone extends Error {}

export interface ProductImportDeps {
  jobs: JobRunner;
  events: EventBus;
  audit: AuditService;
  /** DATA_DIR: uploads are kept in DATA_DIR/imports/<tenant>/. */
  dataDir: string;
  log: FastifyBaseLogger;
  /** Rows per write transaction (tests make it small). */
  batchSize?: number;
}

/**
 * Product CSV import: the upload is streamed to a file (size checked while it arrives),
 * dry-run (nothing written), then run as a job that writes each batch of rows through writeProducts
 * and changeStock (a constant number of statements per batch), counting committed rows in the same
 * transaction so a restart resumes after them.
 *
 * The file and the row plans live beside this file (decision 090): csv-file.ts, row-plan.ts.
 */
export function createProductImportService(db: Db, deps: ProductImportDeps) {
  const batchSize = deps.batchSize ?? BATCH;
  const dirOf = (tenantId: string) => `${deps.dataDir}/imports/${encodeURIComponent(tenantId)}`;
  const fileOf = (tenantId: string, importId: string) => `${dirOf(tenantId)}/${importId}.csv`;

  async function storeCurrency(ctx: TenantContext): Promise<string> {
    const [row] = await db
      .select({ currency: ps.currencyUomId })
      .from(ps)
      .where(and(eq(ps.tenantId, ctx.tenantId), eq(ps.productStoreId, ctx.productStoreId)));
    return row?.currency ?? 'USD';
  }

  function view(r: ImportRow): ProductImport {
    return {
      importId: r.importId,
      fileName: r.fileName,
      byteSize: r.byteSize,
      status: r.status,
      dryRun: r.summary,
      run: {
        rowsDone: r.rowsDone,
        rows: r.summary.rows,
        created: r.created,
        updated: r.updated,
        unchanged: r.unchanged,
        refused: r.refused,
      },
      error: r.error,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
      errorReportUrl: `/skulocity/api/v1/catalog/products/import/${r.importId}/errors.csv`,
    };
  }

  async function load(ctx: TenantContext, importId: string): Promise<ImportRow | null> {
    const [row] = await db
      .select()
      .from(pi)
      .where(and(eq(pi.tenantId, ctx.tenantId), eq(pi.importId, importId)));
    return row ?? null;
  }

  /**
   * The dry run: every row planned against the catalog as it is, nothing written. A row whose SKU an
   * earlier row of the file planned to create or change meets that planned state, as the run's row
   * meets the earlier row's write.
   */
  async function dryRun(ctx: TenantContext, path: string): Promise<Summary> {
    const currency = await storeCurrency(ctx);
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

  /** Streams the upload into the store's import folder, refusing it once it passes the limit. */
  async function receive(ctx: RequestContext, body: Readable, fileName: string): Promise<ProductImport> {
    const importId = newImportId();
    await mkdir(dirOf(ctx.tenantId), { recursive: true });
    const path = fileOf(ctx.tenantId, importId);
    let bytes = 0;
    try {
      bytes = await writeLimited(body, path);
      if (bytes === 0) throw fileError(422, 'Choose a CSV file to import.');
      const summary = await dryRun(ctx, path);
      const [row] = await db
        .insert(pi)
        .values({
          tenantId: ctx.tenantId,
          importId,
          productStoreId: ctx.productStoreId,
          fileName: fileName.slice(0, 200) || 'products.csv',
          byteSize: (await stat(path)).size,
          status: 'checked',
          summary,
          createdBy: ctx.actor.kind === 'staff' ? ctx.actor.userId : null,
        })
        .returning();
      return view(row as ImportRow);
    } catch (err) {
      await rm(path, { force: true });
      throw err;
    }
  }

  /** Starts the run (a job); a run already queued, running or finished is answered as it is. */
  async function start(ctx: RequestContext, importId: string): Promise<ProductImport> {
    const row = await load(ctx, importId);
    if (!row) throw AppError.notFound('This import does not exist.');
    if (row.status !== 'checked') return view(row);
    return db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(pi)
        .set({ status: 'queued', updatedAt: sql`now()` })
        .where(and(eq(pi.tenantId, ctx.tenantId), eq(pi.importId, importId), eq(pi.status, 'checked')))
        .returning();
      if (!claimed) return view((await load(ctx, importId)) as ImportRow);
      const job = await deps.jobs.enqueue(ctx, { type: IMPORT_JOB, payload: { importId }, key: importId }, { tx });
      const [done] = await tx
        .update(pi)
        .set({ jobId: job.id })
        .where(and(eq(pi.tenantId, ctx.tenantId), eq(pi.importId, importId)))
        .returning();
      return view(done as ImportRow);
    });
  }

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
  async function applyGroups(tx: Tx, ctx: RequestContext, groups: DataRow[][], currency: string) {
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
    for (const part of rounds) await applyRound(tx, ctx, part, currency, out);
    return out;
  }

  /** Plans the products (planProduct, as the dry run) against the catalog in `tx`, then writes what changes. */
  async function applyRound(
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
        const done = await tx.transaction((sp) => applyVariants(sp, ctx, plan));
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
  async function applyVariants(tx: Tx, ctx: RequestContext, plan: Extract<ProductPlan, { kind: 'variants' }>) {
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

  /** Writes rows in one transaction with the import's counters, so progress and rows commit together. */
  async function commitRows(ctx: RequestContext, importId: string, groups: DataRow[][], currency: string) {
    const rows = groups.flat();
    return deps.events.transaction(async (tx) => {
      const counts = { created: 0, updated: 0, unchanged: 0, refused: 0 };
      const changed: string[] = [];
      const stocked: string[] = [];
      const errors: (typeof pie.$inferInsert)[] = [];
      const outcomes = await applyGroups(tx, ctx, groups, currency);
      for (const r of rows) {
        const out = outcomes.get(r.row) ?? { kind: 'unchanged' };
        if (out.kind === 'refused') {
          counts.refused++;
          out.problems.forEach((x, seq) => {
            errors.push({
              tenantId: ctx.tenantId,
              importId,
              rowNumber: r.row,
              seq,
              sku: out.sku,
              columnName: x.column,
              message: x.message,
            });
          });
          continue;
        }
        if (out.kind === 'unchanged') {
          counts.unchanged++;
          continue;
        }
        if (out.kind === 'variant') {
          counts[out.count]++;
          if (out.count !== 'unchanged') changed.push(out.productId);
          if (out.stockMoved) stocked.push(out.productId);
          continue;
        }
        if (out.created) counts.created++;
        else if (out.changed || out.stockMoved) counts.updated++;
        else counts.unchanged++;
        if (out.created || out.changed) changed.push(out.productId);
        if (out.stockMoved) stocked.push(out.productId);
      }
      if (errors.length) await tx.insert(pie).values(errors).onConflictDoNothing();
      const last = rows[rows.length - 1]?.row ?? 0;
      await tx
        .update(pi)
        .set({
          rowsDone: last,
          created: sql`${pi.created} + ${counts.created}`,
          updated: sql`${pi.updated} + ${counts.updated}`,
          unchanged: sql`${pi.unchanged} + ${counts.unchanged}`,
          refused: sql`${pi.refused} + ${counts.refused}`,
          updatedAt: sql`now()`,
        })
        .where(and(eq(pi.tenantId, ctx.tenantId), eq(pi.importId, importId)));
      // One event per batch: the caches and the search index follow the batch, not each row.
      if (changed.length)
        deps.events.emitAfterCommit(tx, 'catalog.changed', {
          tenantId: ctx.tenantId,
          productIds: [...new Set(changed)],
        });
      if (stocked.length)
        deps.events.emitAfterCommit(tx, 'stock.changed', { tenantId: ctx.tenantId, productIds: [...new Set(stocked)] });
    });
  }

  /** A row that could not be written for a reason of the database (not of its cells) is reported as such. */
  async function refuseRows(ctx: RequestContext, importId: string, rows: DataRow[], err: unknown) {
    deps.log.warn({ err, importId, row: rows[0]?.row }, 'product import: a product could not be written');
    await db.transaction(async (tx) => {
      await tx
        .insert(pie)
        .values(
          rows.map((r) => ({
            tenantId: ctx.tenantId,
            importId,
            rowNumber: r.row,
            seq: 0,
            sku: r.cells.sku?.trim() || null,
            columnName: err instanceof RetryRowsAlone ? 'stock' : 'row',
            message:
              err instanceof RetryRowsAlone
                ? 'The stock could not be set on this product.'
                : 'This row could not be written; nothing of it was applied. Try it again.',
          })),
        )
        .onConflictDoNothing();
      await tx
        .update(pi)
        .set({
          rowsDone: rows[rows.length - 1]?.row ?? 0,
          refused: sql`${pi.refused} + ${rows.length}`,
          updatedAt: sql`now()`,
        })
        .where(and(eq(pi.tenantId, ctx.tenantId), eq(pi.importId, importId)));
    });
  }

  async function writeBatch(ctx: RequestContext, importId: string, groups: DataRow[][], currency: string) {
    try {
      await commitRows(ctx, importId, groups, currency);
    } catch {
      // Something in the batch failed after writing: the batch rolled back; each product now goes
      // alone, so the good ones are applied and the failing one changes nothing.
      for (const g of groups) {
        try {
          await commitRows(ctx, importId, [g], currency);
        } catch (err) {
          await refuseRows(ctx, importId, g, err);
        }
      }
    }
  }

  async function run(job: Job<{ importId: string }>, tools: JobTools): Promise<unknown> {
    const ctx = job.ctx;
    const importId = job.payload.importId;
    const row = await load(ctx, importId);
    if (!row || row.status === 'done' || row.status === 'failed') return { skipped: true };
    try {
      await db
        .update(pi)
        .set({ status: 'running', updatedAt: sql`now()` })
        .where(and(eq(pi.tenantId, ctx.tenantId), eq(pi.importId, importId)));
      const currency = await storeCurrency(ctx);
      const total = row.summary.rows;
      // Resumes after the last committed row (rows_done commits with the rows it counts).
      let done = row.rowsDone;
      let batch: DataRow[][] = [];
      let size = 0;
      for await (const g of readGroups(fileOf(ctx.tenantId, importId), done)) {
        batch.push(g);
        size += g.length;
        if (size >= batchSize) {
          await writeBatch(ctx, importId, batch, currency);
          done = g[g.length - 1]?.row ?? done;
          batch = [];
          size = 0;
          await tools.progress({ done, total });
          if (tools.signal.aborted) throw tools.signal.reason ?? new Error('The import was asked to stop.');
        }
      }
      if (batch.length) await writeBatch(ctx, importId, batch, currency);
      const [finished] = await db
        .update(pi)
        .set({ status: 'done', updatedAt: sql`now()` })
        .where(and(eq(pi.tenantId, ctx.tenantId), eq(pi.importId, importId)))
        .returning();
      await tools.progress({ done: total, total });
      const f = finished as ImportRow;
      return { created: f.created, updated: f.updated, unchanged: f.unchanged, refused: f.refused };
    } catch (err) {
      if (job.attempt >= job.maxAttempts && !tools.signal.aborted) await fail(ctx, importId, err);
      throw err;
    }
  }

  async function fail(ctx: TenantContext, importId: string, err: unknown) {
    await db
      .update(pi)
      .set({
        status: 'failed',
        error: `The import stopped: ${err instanceof Error ? err.message : String(err)}. The rows before it were applied.`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(pi.tenantId, ctx.tenantId), eq(pi.importId, importId)));
  }

  deps.jobs.register<{ importId: string }>(IMPORT_JOB, run, { maxAttempts: 3 });

  /** The plan of one product's rows; a single-variant product the file planned before meets that planned state. */
  function planOf(
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

  return {
    receive,
    start,
    async get(ctx: TenantContext, importId: string): Promise<ProductImport> {
      const row = await load(ctx, importId);
      if (!row) throw AppError.notFound('This import does not exist.');
      // A run whose job has failed for good is failed, whatever the worker managed to record.
      if ((row.status === 'queued' || row.status === 'running') && row.jobId) {
        const job = await deps.jobs.get(ctx, row.jobId);
        if (job?.status === 'failed') {
          await fail(ctx, importId, new Error(job.error ?? 'the job failed'));
          return view((await load(ctx, importId)) as ImportRow);
        }
      }
      return view(row);
    },
    async latest(ctx: TenantContext): Promise<ProductImport | null> {
      const [row] = await db
        .select({ importId: pi.importId })
        .from(pi)
        .where(eq(pi.tenantId, ctx.tenantId))
        .orderBy(desc(pi.createdAt))
        .limit(1);
      return row ? this.get(ctx, row.importId) : null;
    },
    /** The run's refusals as CSV lines (row, column, message), in row order, a page at a time. */
    async *errorReport(ctx: TenantContext, importId: string): AsyncGenerator<string> {
      if (!(await load(ctx, importId))) throw AppError.notFound('This import does not exist.');
      // Quoted when it must be; a cell a spreadsheet would run as a formula gets a leading apostrophe.
      const q = (raw: string) => {
        const v = /^[=+\-@]/.test(raw) ? `'${raw}` : raw;
        return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
      };
      yield 'row,sku,column,message\r\n';
      let after = { row: 0, seq: -1 };
      for (;;) {
        const page = await db
          .select()
          .from(pie)
          .where(
            and(
              eq(pie.tenantId, ctx.tenantId),
              eq(pie.importId, importId),
              sql`(${pie.rowNumber}, ${pie.seq}) > (${after.row}, ${after.seq})`,
            ),
          )
          .orderBy(asc(pie.rowNumber), asc(pie.seq))
          .limit(1000);
        if (!page.length) return;
        yield page.map((e) => `${e.rowNumber},${q(e.sku ?? '')},${q(e.columnName)},${q(e.message)}\r\n`).join('');
        const last = page[page.length - 1] as (typeof page)[number];
        after = { row: last.rowNumber, seq: last.seq };
      }
    },
    columns: PRODUCT_CSV_COLUMNS,
  };
}

export type ProductImportService = ReturnType<typeof createProductImportService>;

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
