import { z } from 'zod';
import type { FormOutcome } from './storefront';

/**
 * A store's whole data as one archive (decision 122): the export job the owner (or the operator,
 * for a closing store) starts and downloads, and the operator's import into an empty store.
 */

/** The job's state as the dashboard's "Export store" card and the API show it. */
export const storeExportSchema = z.object({
  jobId: z.string(),
  status: z.enum(['pending', 'running', 'succeeded', 'failed']),
  /** Rows and media files written so far, of `total`. */
  done: z.number().int(),
  total: z.number().int(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Once it succeeded: the archive's size in bytes, and where to download it. */
  bytes: z.number().int().nullable(),
  downloadUrl: z.string().nullable(),
  error: z.string().nullable(),
});
export type StoreExport = z.infer<typeof storeExportSchema>;

/** The store's latest export, or null when it never exported. */
export const storeExportLatestSchema = storeExportSchema.nullable();

export const storeExportParamsSchema = z.object({ jobId: z.string().min(1).max(64) });

/** What an import wrote. */
export const storeImportResultSchema = z.object({
  storeId: z.string(),
  /** The store the archive was made from. */
  fromStoreId: z.string(),
  tables: z.number().int(),
  rows: z.number().int(),
  mediaFiles: z.number().int(),
});
export type StoreImportResult = z.infer<typeof storeImportResultSchema>;

/** The archive's content type on upload and download. */
export const STORE_ARCHIVE_CONTENT_TYPE = 'application/gzip';

/** The dashboard's "Export store" page data. */
export interface StoreExportCard {
  latest: StoreExport | null;
}

export type StoreExportStartResult = { ok: true; message: string; job: StoreExport } | FormOutcome<never>;

/** The "Export store" settings page (decision 122): the store's owner only. */
export interface StoreArchivePages {
  /** The newest export, with its progress or download. */
  storeExportCard(): Promise<StoreExportCard>;
  /** Starts an export (or answers the one already waiting or running). */
  startStoreExport(): Promise<StoreExportStartResult>;
}
