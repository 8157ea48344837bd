import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  changedProductCsvColumns,
  PRODUCT_CSV_COLUMNS,
  PRODUCT_IMPORT_MAX_BYTES,
  type ProductCsvColumn,
  type ProductCsvExisting,
  type ProductFields,
  type ProductImport,
  parseProductCsvHeader,
  parseProductCsvRow,
} from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { parse } from 'csv-parse';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { RequestContext, TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import { storedOwnerHtml } from '../../lib/sanitize';
import type { AuditService } from '../audit/index';
import { changeStock, type StockChange } from '../inventory/index';
import type { Job, JobRunner, JobTools } from '../jobs/index';
import { writeProducts } from '../product-admin/index';

const pi = schema.productImports;
const pie = schema.productImportErrors;
const p = schema.products;
const pc = schema.productCategories;
const c = schema.categories;
const ps = schema.productStores;

export const IMPORT_JOB = 'catalog.import-products';
/** Rows written per transaction; a batch with a failing row is written again one row at a time. */
const BATCH = 100;
/** Rows looked up together by the dry run. */
const DRY_BATCH = 500;
/** The first refused, updated and created rows the dry run keeps for the page. */
const FIRST = 20;

type ImportRow = typeof pi.$inferSelect;
type Cells = Partial<Record<ProductCsvColumn, string>>;
interface DataRow {
  row: number;
  cells: Cells;
  /** A cell that was not UTF-8 (the decoder's replacement character). */
  notUtf8: string | null;
}

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

const newImportId = () => randomBytes(12).toString('base64url');

/** A file upload refused while streaming (too large), or a file that is not the product CSV. */
const fileError = (status: 413 | 422, message: string) => {
  const err =
    status === 413
      ? new AppError(413, 'PAYLOAD_TOO_LARGE', `file: ${message}`)
      : AppError.field(422, 'VALIDATION_FAILED', 'file', message);
  err.field = 'file';
  err.fieldMessage = message;
  return err;
};

const tooLarge = () =>
  fileError(413, `The file is larger than ${PRODUCT_IMPORT_MAX_BYTES / 1024 / 1024} MB; split it in parts.`);

/**
 * Writes the upload to `path`, counting bytes as they arrive. Past the limit it stops reading and
 * refuses, without destroying the request: the client still gets the 413 (the route closes the
 * connection after it).
 */
function writeLimited(body: Readable, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(path);
    let bytes = 0;
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      body.pause();
      body.removeListener('data', onData);
      out.destroy();
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > PRODUCT_IMPORT_MAX_BYTES) return fail(tooLarge());
      if (!out.write(chunk)) {
        body.pause();
        out.once('drain', () => body.resume());
      }
    };
    body.on('data', onData);
    body.once('error', fail);
    out.once('error', fail);
    body.once('end', () => {
      if (settled) return;
      out.end(() => {
        settled = true;
        resolve(bytes);
      });
    });
  });
}

/** The rows of a stored file, header checked, streamed: memory holds one row, not the file. */
async function* readRows(path: string, skip = 0): AsyncGenerator<DataRow> {
  const file = createReadStream(path);
  const parser = file.pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: 1024 * 1024 }),
  );
  // pipe() does not pass a read error on: a file gone from the folder would be an uncaught 'error'
  // that ends the process. Through the parser it rejects the loop below, and the job fails.
  file.once('error', (err) => parser.destroy(err));
  let columns: ProductCsvColumn[] | null = null;
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!columns) {
        const header = parseProductCsvHeader(record);
        if (!header.ok) throw fileError(422, header.problems.map((x) => x.message).join(' '));
        columns = header.columns;
        continue;
      }
      row++;
      if (row <= skip) continue;
      const cells: Cells = {};
      let notUtf8: string | null = null;
      columns.forEach((col, i) => {
        const v = record[i] ?? '';
        if (v.includes('\uFFFD')) notUtf8 = col;
        cells[col] = v;
      });
      yield { row, cells, notUtf8 };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as { code?: string; lines?: number; message?: string };
    // The owner reads this in the import's error: no server path in it.
    if (e.code === 'ENOENT') throw new Error('the uploaded file is no longer on the server; upload it again');
    if (typeof e.code === 'string' && e.code.startsWith('CSV_')) {
      throw fileError(422, `The file is not valid CSV (near line ${e.lines ?? '?'}): ${e.message ?? e.code}.`);
    }
    throw err;
  } finally {
    parser.destroy();
    file.destroy();
  }
  if (!columns) throw fileError(422, 'The file is empty: it needs a header row, then one row per product.');
}

const FIELD_COLUMNS = {
  productId: p.productId,
  productName: p.productName,
  slug: p.slug,
  sku: p.sku,
  brandName: p.brandName,
  shortDescription: p.shortDescription,
  description: p.description,
  listPrice: p.listPrice,
  salePrice: p.salePrice,
  currencyUomId: p.currencyUomId,
  status: p.status,
  weightGrams: p.weightGrams,
  isFeatured: p.isFeatured,
  seoTitle: p.seoTitle,
  seoDescription: p.seoDescription,
  stockQuantity: p.stockQuantity,
};
type FieldRow = { [K in keyof typeof FIELD_COLUMNS]: (typeof FIELD_COLUMNS)[K]['_']['data'] | null };

function existingOf(r: FieldRow, categoryIds: string[]): ProductState {
  const fields: ProductFields = {
    productName: r.productName ?? '',
    slug: r.slug ?? '',
    sku: r.sku ?? '',
    brandName: r.brandName,
    shortDescription: r.shortDescription,
    description: r.description,
    listPrice: r.listPrice ?? 0,
    salePrice: r.salePrice,
    currencyUomId: r.currencyUomId ?? undefined,
    status: r.status ?? 'ACTIVE',
    weightGrams: r.weightGrams,
    isFeatured: r.isFeatured ?? false,
    seoTitle: r.seoTitle,
    seoDescription: r.seoDescription,
  };
  return { productId: r.productId as string, fields, stockQuantity: r.stockQuantity ?? 0, categoryIds };
}

/** A product as the plan compares a row with it: its fields, stock and categories. */
interface ProductState extends ProductCsvExisting {
  categoryIds: string[];
}

type Problem = { column: string; message: string };

/**
 * What one row does (decision 074). The dry run and the run both decide it with planRow, against
 * the products as they are: the run writes only the rows planned as created or updated, so a row
 * the dry run calls unchanged is not written at all (no audit entry, no `updated_at`, no event).
 */
type RowPlan =
  | { kind: 'refused'; sku: string | null; problems: Problem[] }
  | { kind: 'create'; sku: string; fields: ProductFields; stock: number | null }
  | {
      kind: 'update';
      sku: string;
      productId: string;
      fields: ProductFields;
      stock: number | null;
      /** The CSV columns whose values change. */
      changes: string[];
    }
  | { kind: 'unchanged'; sku: string; productId: string };

const NOT_UTF8 = 'This cell is not UTF-8 text: save the file as CSV UTF-8.';

/** What planRow checks a row against besides its product: the store's categories, who holds the slugs the rows type. */
interface StoreFacts {
  categoryIds: ReadonlySet<string>;
  /** Slug → the product holding it (null: freed by an earlier row of the file). */
  slugHolders: ReadonlyMap<string, string | null>;
}

/**
 * One row's plan. The row's fields are compared in their stored form (the description as the
 * product writer keeps it), so a value written back as it was read is no change.
 */

function planRow(r: DataRow, existing: ProductState | null, facts: StoreFacts, currency: string): RowPlan {
  if (r.notUtf8) {
    return { kind: 'refused', sku: r.cells.sku?.trim() || null, problems: [{ column: r.notUtf8, message: NOT_UTF8 }] };
  }
  const parsed = parseProductCsvRow(r.cells, existing, currency);
  if (!parsed.ok) return { kind: 'refused', sku: parsed.sku, problems: parsed.problems };
  const fields: ProductFields = {
    ...parsed.fields,
    description: parsed.fields.description ? storedOwnerHtml(parsed.fields.description) : parsed.fields.description,
  };
  const missing = (fields.categoryIds ?? []).filter((id) => !facts.categoryIds.has(id));
  if (missing.length) {
    return {
      kind: 'refused',
      sku: parsed.sku,
      problems: [{ column: 'categories', message: `No category ${missing.join(', ')} in this store.` }],
    };
  }
  // The product writer refuses a typed slug another product holds: the plan refuses it the same way.
  const holder = fields.slug ? facts.slugHolders.get(fields.slug) : null;
  if (fields.slug && holder && holder !== existing?.productId) {
    return {
      kind: 'refused',
      sku: parsed.sku,
      problems: [
        {
          column: 'slug',
          message: `The address /${fields.slug} is already used by another product; choose another slug.`,
        },
      ],
    };
  }
  if (!existing) return { kind: 'create', sku: parsed.sku, fields, stock: parsed.stock };
  const changes = changedProductCsvColumns(existing, fields, existing.categoryIds, parsed.stock);
  if (!changes.length) return { kind: 'unchanged', sku: parsed.sku, productId: existing.productId };
  return { kind: 'update', sku: parsed.sku, productId: existing.productId, fields, stock: parsed.stock, changes };
}

/** A planned row's slug moved as the writer moves it (the new one taken, the old one freed), for the rows after it. */
function moveSlug(holders: Map<string, string | null>, plan: RowPlan, existing: ProductState | null) {
  if (plan.kind !== 'create' && plan.kind !== 'update') return;
  if (!plan.fields.slug || plan.fields.slug === existing?.fields.slug) return;
  if (existing?.fields.slug) holders.set(existing.fields.slug, null);
  holders.set(plan.fields.slug, plan.kind === 'update' ? plan.productId : (existing?.productId ?? `new:${plan.sku}`));
}

/** The state a planned row leaves its product in (what a later row of the file with its SKU meets). */
function stateAfter(plan: RowPlan, before: ProductState | null): ProductState | null {
  if (plan.kind !== 'create' && plan.kind !== 'update') return before;
  return {
    productId: plan.kind === 'update' ? plan.productId : (before?.productId ?? `new:${plan.sku}`),
    fields: plan.fields,
    stockQuantity: plan.stock ?? before?.stockQuantity ?? 0,
    categoryIds: plan.fields.categoryIds ? [...new Set(plan.fields.categoryIds)] : (before?.categoryIds ?? []),
  };
}

/** The products of these SKUs with their categories, and the store's facts: what planRow compares with. */
async function readStates(
  q: Db | Tx,
  tenantId: string,
  rows: readonly DataRow[],
): Promise<{
  bySku: Map<string, ProductState>;
  facts: { categoryIds: Set<string>; slugHolders: Map<string, string | null> };
}> {
  const skus = [...new Set(rows.map((r) => (r.cells.sku ?? '').trim()).filter(Boolean))];
  const found = skus.length
    ? await q
        .select(FIELD_COLUMNS)
        .from(p)
        .where(and(eq(p.tenantId, tenantId), inArray(p.sku, skus)))
    : [];
  const ids = found.map((r) => r.productId as string);
  const links = ids.length
    ? await q
        .select({ productId: pc.productId, id: pc.productCategoryId })
        .from(pc)
        .where(and(eq(pc.tenantId, tenantId), inArray(pc.productId, ids)))
    : [];
  const linked = new Map<string, string[]>();
  for (const l of links) linked.set(l.productId, [...(linked.get(l.productId) ?? []), l.id]);
  const categoryIds = new Set(
    (await q.select({ id: c.productCategoryId }).from(c).where(eq(c.tenantId, tenantId))).map((r) => r.id),
  );
  const slugs = [...new Set(rows.map((r) => (r.cells.slug ?? '').trim().toLowerCase()).filter(Boolean))];
  const slugHolders = new Map<string, string | null>(
    (slugs.length
      ? await q
          .select({ slug: p.slug, productId: p.productId })
          .from(p)
          .where(and(eq(p.tenantId, tenantId), inArray(p.slug, slugs)))
      : []
    ).map((r): [string, string | null] => [r.slug, r.productId]),
  );
  return {
    bySku: new Map(found.map((r) => [r.sku as string, existingOf(r, linked.get(r.productId as string) ?? [])])),
    facts: { categoryIds, slugHolders },
  };
}

/**
 * Product CSV import (issue 16): the upload is streamed to a file (size checked while it arrives),
 * dry-run (nothing written), then run as a job that writes each batch of rows through writeProducts
 * and changeStock (a constant number of statements per batch), counting committed rows in the same
 * transaction so a restart resumes after them.
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
