import { mkdir, rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { PRODUCT_CSV_COLUMNS, type ProductFields, type ProductImport } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { RequestContext, TenantContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import type { EventBus } from '../../../lib/events/index';
import type { AuditService } from '../../audit/index';
import type { Job, JobRunner, JobTools } from '../../jobs/index';
import { writeProducts } from '../admin/index';
import { changeStock, type StockChange } from '../inventory/index';
import { type DataRow, fileError, newImportId, readRows, writeLimited } from './csv-file';
import { moveSlug, type Problem, type ProductState, planRow, readStates, stateAfter } from './row-plan';

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
  async function dryRun(ctx: TenantContext, path: string): Promise<ImportRow['summary']> {
    const currency = await storeCurrency(ctx);
    const s: ImportRow['summary'] = {
      rows: 0,
      created: 0,
      updated: 0,
      unchanged: 0,
      refused: 0,
      firstRefused: [],
      firstUpdated: [],
      firstCreated: [],
    };
    // The planned state of each SKU the file creates or changes (at most what the file itself holds).
    const planned = new Map<string, ProductState | null>();
    const plannedSlugs = new Map<string, string | null>();
    const check = async (rows: DataRow[]) => {
      const { bySku, facts } = await readStates(db, ctx.tenantId, rows);
      for (const [slug, holder] of plannedSlugs) facts.slugHolders.set(slug, holder);
      for (const r of rows) {
        s.rows++;
        const sku = (r.cells.sku ?? '').trim();
        const existing = planned.has(sku) ? (planned.get(sku) ?? null) : (bySku.get(sku) ?? null);
        const plan = planRow(r, existing, facts, currency);
        if (plan.kind === 'refused') {
          s.refused++;
          if (s.firstRefused.length < FIRST) s.firstRefused.push({ row: r.row, sku: plan.sku, errors: plan.problems });
          continue;
        }
        if (plan.kind === 'create' || plan.kind === 'update') planned.set(plan.sku, stateAfter(plan, existing));
        moveSlug(facts.slugHolders, plan, existing);
        moveSlug(plannedSlugs, plan, existing);
        if (plan.kind === 'create') {
          s.created++;
          if (s.firstCreated.length < FIRST) {
            s.firstCreated.push({ row: r.row, sku: plan.sku, name: plan.fields.productName });
          }
        } else if (plan.kind === 'update') {
          s.updated++;
          if (s.firstUpdated.length < FIRST) s.firstUpdated.push({ row: r.row, sku: plan.sku, changes: plan.changes });
        } else s.unchanged++;
      }
    };
    let chunk: DataRow[] = [];
    for await (const r of readRows(path)) {
      chunk.push(r);
      if (chunk.length >= DRY_BATCH) {
        await check(chunk);
        chunk = [];
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
    | { kind: 'refused'; sku: string | null; problems: Problem[] };

  /**
   * The rows' writes in `tx`, set-based: one read of the rows' products by SKU, one writeProducts and
   * one changeStock for all of them. A row repeating an SKU of the batch starts a new round, so it
   * sees the earlier row's write, as it would one row at a time. Refusals write nothing; a stock
   * refusal after the product writes throws (the batch rolls back and its rows go alone).
   */
  async function applyRows(tx: Tx, ctx: RequestContext, rows: DataRow[], currency: string): Promise<Outcome[]> {
    const rounds: DataRow[][] = [];
    let round: DataRow[] = [];
    const skus = new Set<string>();
    for (const r of rows) {
      const sku = (r.cells.sku ?? '').trim();
      if (sku && skus.has(sku)) {
        rounds.push(round);
        round = [];
        skus.clear();
      }
      if (sku) skus.add(sku);
      round.push(r);
    }
    if (round.length) rounds.push(round);
    const out: Outcome[] = [];
    for (const part of rounds) out.push(...(await applyRound(tx, ctx, part, currency)));
    return out;
  }

  /** Plans the rows (planRow, as the dry run) against the products in `tx`, then writes the created and updated ones. */
  async function applyRound(tx: Tx, ctx: RequestContext, rows: DataRow[], currency: string): Promise<Outcome[]> {
    const out: Outcome[] = [];
    const { bySku, facts } = await readStates(tx, ctx.tenantId, rows);
    const writes: {
      at: number;
      stock: number | null;
      sku: string | null;
      productId?: string;
      fields: ProductFields;
    }[] = [];
    rows.forEach((r, at) => {
      const existing = bySku.get((r.cells.sku ?? '').trim()) ?? null;
      const plan = planRow(r, existing, facts, currency);
      moveSlug(facts.slugHolders, plan, existing);
      if (plan.kind === 'refused') out[at] = { kind: 'refused', sku: plan.sku, problems: plan.problems };
      else if (plan.kind === 'unchanged') out[at] = { kind: 'unchanged' };
      else {
        const productId = plan.kind === 'update' ? plan.productId : undefined;
        writes.push({ at, stock: plan.stock, sku: plan.sku, productId, fields: plan.fields });
      }
    });
    const written = writes.length ? await writeProducts(tx, ctx, { audit: deps.audit }, writes) : [];
    const stock: StockChange[] = [];
    written.forEach((w, k) => {
      const row = writes[k] as (typeof writes)[number];
      if (!w.ok) {
        const column = ({ slug: 'slug', sku: 'sku', categoryIds: 'categories', productId: 'sku' } as const)[w.field];
        out[row.at] = { kind: 'refused', sku: row.sku, problems: [{ column, message: w.message }] };
        return;
      }
      out[row.at] = {
        kind: 'applied',
        productId: w.productId,
        created: w.created,
        changed: w.changed,
        stockMoved: false,
      };
      if (row.stock !== null) {
        stock.push({ productId: w.productId, set: row.stock, reason: 'CORRECTION', note: 'CSV import' });
      }
    });
    if (stock.length) {
      const moved = await changeStock(tx, ctx, stock);
      // The product rows are written already: the batch must roll back whole (its rows retried alone).
      if (!moved.ok) throw new RetryRowsAlone(moved.code);
      const ids = new Set(moved.moved.map((m) => m.productId));
      for (const o of out) if (o?.kind === 'applied' && ids.has(o.productId)) o.stockMoved = true;
    }
    return out;
  }

  /** Writes rows in one transaction with the import's counters, so progress and rows commit together. */
  async function commitRows(ctx: RequestContext, importId: string, rows: DataRow[], currency: string) {
    return deps.events.transaction(async (tx) => {
      const counts = { created: 0, updated: 0, unchanged: 0, refused: 0 };
      const changed: string[] = [];
      const stocked: string[] = [];
      const errors: (typeof pie.$inferInsert)[] = [];
      const outcomes = await applyRows(tx, ctx, rows, currency);
      for (const [k, r] of rows.entries()) {
        const out = outcomes[k] as Outcome;
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
        deps.events.emitAfterCommit(tx, 'catalog.changed', { tenantId: ctx.tenantId, productIds: changed });
      if (stocked.length)
        deps.events.emitAfterCommit(tx, 'stock.changed', { tenantId: ctx.tenantId, productIds: stocked });
    });
  }

  /** A row that could not be written for a reason of the database (not of its cells) is reported as such. */
  async function refuseRow(ctx: RequestContext, importId: string, r: DataRow, err: unknown) {
    deps.log.warn({ err, importId, row: r.row }, 'product import: a row could not be written');
    await db.transaction(async (tx) => {
      await tx
        .insert(pie)
        .values({
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
        })
        .onConflictDoNothing();
      await tx
        .update(pi)
        .set({ rowsDone: r.row, refused: sql`${pi.refused} + 1`, updatedAt: sql`now()` })
        .where(and(eq(pi.tenantId, ctx.tenantId), eq(pi.importId, importId)));
    });
  }

  async function writeBatch(ctx: RequestContext, importId: string, rows: DataRow[], currency: string) {
    try {
      await commitRows(ctx, importId, rows, currency);
    } catch {
      // Something in the batch failed after writing: the batch rolled back; each row now goes alone,
      // so the good rows are applied and the failing one changes nothing.
      for (const r of rows) {
        try {
          await commitRows(ctx, importId, [r], currency);
        } catch (err) {
          await refuseRow(ctx, importId, r, err);
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
      let batch: DataRow[] = [];
      for await (const r of readRows(fileOf(ctx.tenantId, importId), done)) {
        batch.push(r);
        if (batch.length >= batchSize) {
          await writeBatch(ctx, importId, batch, currency);
          done = r.row;
          batch = [];
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
