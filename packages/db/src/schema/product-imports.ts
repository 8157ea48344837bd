import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** What a dry run found, kept with the import for the page (first rows only: the file may be huge). */
export interface ProductImportSummary {
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  refused: number;
  /** The first refused rows with their problems. */
  firstRefused: { row: number; sku: string | null; errors: { column: string; message: string }[] }[];
  /** The first updates with the fields they change. */
  firstUpdated: { row: number; sku: string; changes: string[] }[];
  firstCreated: { row: number; sku: string; name: string }[];
}

/**
 * A product CSV import: the uploaded file (in DATA_DIR/imports), its dry run, then the
 * run as a job. `rows_done` is written in the same transaction as the rows it counts, so a run that
 * is interrupted resumes after the last committed row and never applies a row twice or by half.
 */
export const productImports = pgTable(
  'product_imports',
  {
    tenantId: text('tenant_id').notNull(),
    importId: text('import_id').notNull(),
    productStoreId: text('product_store_id').notNull(),
    fileName: text('file_name').notNull(),
    byteSize: integer('byte_size').notNull(),
    /** checked (dry run done), queued, running, done, failed. */
    status: text('status', { enum: ['checked', 'queued', 'running', 'done', 'failed'] }).notNull(),
    summary: jsonb('summary').$type<ProductImportSummary>().notNull(),
    /** Data rows of the file processed by the run (applied or refused), committed. */
    rowsDone: integer('rows_done').notNull().default(0),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    refused: integer('refused').notNull().default(0),
    jobId: text('job_id'),
    error: text('error'),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.importId] }),
    // The store's imports, newest first (the page's "last import").
    index('product_imports_recent_idx').on(t.tenantId, t.createdAt),
  ],
);

/** The run's per-row refusals (row, column, message), the downloadable error report. */
export const productImportErrors = pgTable(
  'product_import_errors',
  {
    tenantId: text('tenant_id').notNull(),
    importId: text('import_id').notNull(),
    /** The data row's number (1 = the first row after the header). */
    rowNumber: integer('row_number').notNull(),
    seq: integer('seq').notNull(),
    sku: text('sku'),
    columnName: text('column_name').notNull(),
    message: text('message').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.importId, t.rowNumber, t.seq] })],
);
