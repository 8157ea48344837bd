import { z } from 'zod';
import type { FormOutcome } from './storefront';

/** A product CSV import as the import page and the API show it. */
export const productImportStatusSchema = z.enum(['checked', 'queued', 'running', 'done', 'failed']);
export type ProductImportStatus = z.infer<typeof productImportStatusSchema>;

const counts = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  refused: z.number().int(),
});

export const productImportSchema = z.object({
  importId: z.string(),
  fileName: z.string(),
  byteSize: z.number().int(),
  status: productImportStatusSchema,
  /** What the dry run found before anything was written. */
  dryRun: counts.extend({
    rows: z.number().int(),
    firstRefused: z.array(
      z.object({
        row: z.number().int(),
        sku: z.string().nullable(),
        errors: z.array(z.object({ column: z.string(), message: z.string() })),
      }),
    ),
    firstUpdated: z.array(z.object({ row: z.number().int(), sku: z.string(), changes: z.array(z.string()) })),
    firstCreated: z.array(z.object({ row: z.number().int(), sku: z.string(), name: z.string() })),
    /** Variants of products in the file that the file does not list: kept as they are (absent on imports before variants). */
    leftOut: z.number().int().optional(),
    firstLeftOut: z
      .array(
        z.object({
          /** The product's first row in the file. */
          row: z.number().int(),
          product: z.string(),
          variantId: z.string(),
          sku: z.string(),
          title: z.string(),
        }),
      )
      .optional(),
  }),
  /** The run: rows done (applied or refused) of the file's rows, and what it did so far. */
  run: counts.extend({ rowsDone: z.number().int(), rows: z.number().int() }),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Where the run's error report (row, column, message) downloads, as CSV. */
  errorReportUrl: z.string(),
});
export type ProductImport = z.infer<typeof productImportSchema>;

export const productImportIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,40}$/, 'importId is not an import id');

export type ProductImportUploadResult = { ok: true; import: ProductImport } | FormOutcome<'file'>;
export type ProductImportRunResult = { ok: true; message: string; import: ProductImport } | FormOutcome<never>;

/** The import page's functions (the catalog permission: a visitor gets 401, a shopper 403). */
export interface ProductImportPages {
  /** An import of the store, or the newest one when no id is given; null when there is none. */
  productImport(importId: string | null): Promise<ProductImport | null>;
  /** Stores the file and dry-runs it (nothing is written to the catalog). */
  uploadProductImport(file: Uint8Array, fileName: string): Promise<ProductImportUploadResult>;
  /** Starts the run of a checked import as a job. */
  runProductImport(importId: string): Promise<ProductImportRunResult>;
}
