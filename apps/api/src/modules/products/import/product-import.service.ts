import { mkdir, rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { PRODUCT_CSV_COLUMNS, type ProductImport } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { RequestContext, TenantContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import type { EventBus } from '../../../lib/events/index';
import type { AuditService } from '../../audit/index';
import type { Job, JobRunner, JobTools } from '../../jobs/index';
import { type DataRow, fileError, newImportId, readGroups, writeLimited } from './csv-file';
import { type BatchDeps, writeBatch } from './import-batch';
import { dryRun } from './import-dry-run';

const pi = schema.productImports;
const pie = schema.productImportErrors;
const ps = schema.productStores;

export const IMPORT_JOB = 'catalog.import-products';
/** Rows written per transaction; a batch with a failing row is written again one row at a time. */
const BATCH = 100;

type ImportRow = typeof pi.$inferSelect;

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
 * The file and the row plans live beside this file (decision 090): csv-file.ts, row-plan.ts; the
 * product plans and what they read, product-plan.ts and product-facts.ts; the dry run,
 * import-dry-run.ts; a batch of the run, import-batch.ts, and its writes, import-writes.ts.
 */
export function createProductImportService(db: Db, deps: ProductImportDeps) {
  const batchSize = deps.batchSize ?? BATCH;
  const dirOf = (tenantId: string) => `${deps.dataDir}/imports/${encodeURIComponent(tenantId)}`;
  const fileOf = (tenantId: string, importId: string) => `${dirOf(tenantId)}/${importId}.csv`;
  const batchDeps: BatchDeps = { db, events: deps.events, audit: deps.audit, log: deps.log };

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

  /** Streams the upload into the store's import folder, refusing it once it passes the limit. */
  async function receive(ctx: RequestContext, body: Readable, fileName: string): Promise<ProductImport> {
    const importId = newImportId();
    await mkdir(dirOf(ctx.tenantId), { recursive: true });
    const path = fileOf(ctx.tenantId, importId);
    let bytes = 0;
    try {
      bytes = await writeLimited(body, path);
      if (bytes === 0) throw fileError(422, 'Choose a CSV file to import.');
      const summary = await dryRun(db, ctx, path, await storeCurrency(ctx));
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
          await writeBatch(batchDeps, ctx, importId, batch, currency);
          done = g[g.length - 1]?.row ?? done;
          batch = [];
          size = 0;
          await tools.progress({ done, total });
          if (tools.signal.aborted) throw tools.signal.reason ?? new Error('The import was asked to stop.');
        }
      }
      if (batch.length) await writeBatch(batchDeps, ctx, importId, batch, currency);
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
