import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoreExport } from '@app/contracts';
import type { Db } from '@app/db';
import type { FastifyBaseLogger } from 'fastify';
import type { TenantContext } from '../../lib/context';
import type { EventBus } from '../../lib/events/index';
import { type Result, refuse } from '../../lib/result';
import { type JobRunner, type JobView, jobProgressView, type Tx } from '../jobs/index';
import type { MediaObject, MediaStorage } from '../media/index';
import { archiveDir, assertSafeTenantId, type ExportResult, exportStore } from './export/export';
import { type ImportRefusal, type ImportResult, importStore } from './import/import';
import { deleteOrder, deleteTenantRows, removeTenantFiles } from './purge/purge';
import { readTenantTables, type TenantTable } from './tenant-tables';

export const EXPORT_JOB = 'store-archive.export';

/** The largest archive an import unpacks (its files together). */
export const IMPORT_MAX_BYTES = 4 * 1024 * 1024 * 1024;

export interface StoreArchiveDeps {
  db: Db;
  dataDir: string;
  storage: MediaStorage;
  generate?: ((key: string) => Promise<MediaObject | null>) | undefined;
  jobs: JobRunner;
  events: EventBus;
  log: FastifyBaseLogger;
  /** Where the download is served, for the job's view (the owner's route or the operator's). */
  downloadPath?: (tenantId: string, jobId: string) => string;
  /**
   * The database a store moved off the home one lives on (decision 123), undefined at home. The
   * operator's routes run outside any store's context, so `db` is the home database there.
   */
  movedTo?: (tenantId: string) => { db: Db } | undefined;
}

export interface PurgeResult {
  /** Rows deleted, by table (tables that had none are not named). */
  deleted: Record<string, number>;
}

/** A context for work the platform does on a store outside a request (the operator's export). */
export function platformContext(tenantId: string): TenantContext {
  return { tenantId, productStoreId: '', hostName: '', origin: '', viaDevAlias: false };
}

export const ownerDownloadPath = (jobId: string) =>
  `/api/v1/store/archive/exports/${encodeURIComponent(jobId)}/download`;

/**
 * A store's whole data (decision 122): the export job and its archive, the import into an empty
 * store, and the purge that erases a store everywhere.
 */
export function createStoreArchive(deps: StoreArchiveDeps) {
  const { db } = deps;
  let tablesRead: Promise<TenantTable[]> | null = null;
  const tables = () => {
    tablesRead ??= readTenantTables(db).catch((err) => {
      tablesRead = null;
      throw err;
    });
    return tablesRead;
  };

  deps.jobs.register<Record<string, never>>(
    EXPORT_JOB,
    async (job, tools) =>
      exportStore(
        { db, dataDir: deps.dataDir, storage: deps.storage, generate: deps.generate, tables },
        job.tenantId,
        `store-${job.tenantId}-${job.id}`,
        (done, total) => tools.progress({ done, total }),
      ),
    { maxAttempts: 3 },
  );

  const view = (j: JobView, path: (jobId: string) => string): StoreExport => {
    const { result, ...progress } = jobProgressView<ExportResult>(j);
    return {
      ...progress,
      bytes: result?.bytes ?? null,
      downloadUrl: result ? path(j.id) : null,
      error: j.status === 'failed' ? 'The export failed; start it again.' : null,
    };
  };

  return {
    tables,

    /** Starts the store's export, or answers the one already waiting or running. */
    async startExport(
      ctx: TenantContext,
      path: (jobId: string) => string = ownerDownloadPath,
      opts: { tx?: Tx } = {},
    ): Promise<StoreExport> {
      const job = await deps.jobs.enqueue(ctx, { type: EXPORT_JOB, payload: {}, key: 'export' }, opts);
      return view(job, path);
    },

    /** Jobs enqueued in a transaction that has now committed: a lane takes them now. */
    committed: () => deps.jobs.committed(),

    /** The store's newest export (running or done), or null. */
    async latestExport(
      ctx: TenantContext,
      path: (jobId: string) => string = ownerDownloadPath,
    ): Promise<StoreExport | null> {
      const job = await deps.jobs.latest(ctx, EXPORT_JOB);
      return job ? view(job, path) : null;
    },

    async exportJob(ctx: TenantContext, jobId: string, path: (jobId: string) => string = ownerDownloadPath) {
      const job = await deps.jobs.get(ctx, jobId);
      return job && job.type === EXPORT_JOB ? view(job, path) : null;
    },

    /** The finished archive of this store's export job, or null (another store's, not done, replaced). */
    async archiveFile(
      ctx: TenantContext,
      jobId: string,
    ): Promise<{ path: string; name: string; bytes: number } | null> {
      const job = await deps.jobs.get(ctx, jobId);
      if (!job || job.type !== EXPORT_JOB || job.status !== 'succeeded') return null;
      const result = job.result as ExportResult | null;
      if (!result?.archive) return null;
      assertSafeTenantId(ctx.tenantId);
      const path = join(archiveDir(deps.dataDir, ctx.tenantId), result.archive);
      try {
        const s = await stat(path);
        return { path, name: result.archive, bytes: s.size };
      } catch {
        return null;
      }
    },

    /** Imports an archive into an empty store (the operator's), then drops what was cached of it. */
    async importArchive(tenantId: string, input: NodeJS.ReadableStream): Promise<Result<ImportResult, ImportRefusal>> {
      // Its rows would be split between two databases (its platform rows stay at home): refused, with
      // the way round it, rather than written where the store does not read them.
      if (deps.movedTo?.(tenantId)) {
        return refuse(
          409,
          'CONFLICT',
          'This store lives on another database than the platform’s own. Move it back home, import, then move it again.',
        );
      }
      const done = await importStore(
        { db, dataDir: deps.dataDir, storage: deps.storage, tables, maxBytes: IMPORT_MAX_BYTES },
        tenantId,
        input,
      );
      if (done.ok) await forget(tenantId);
      return done;
    },

    /**
     * Erases the store everywhere: every row of every table that has a tenant_id (found in the
     * database's catalog) in one transaction, children first, then its files (media, archives),
     * then what any process cached of it (its host, settings, search index, pages). Run again, it
     * finds nothing to do.
     */
    async purgeStore(tenantId: string): Promise<PurgeResult> {
      assertSafeTenantId(tenantId);
      const order = deleteOrder(await tables(), new Set());
      const deleted: Record<string, number> = {};
      const count = (rows: Record<string, number>) => {
        for (const [table, n] of Object.entries(rows)) deleted[table] = (deleted[table] ?? 0) + n;
      };
      // A moved store's rows first, on the database it lives on; then the home database's: its
      // platform rows, and its placement, which points at the other.
      // The platform's audit log stays on both, as everywhere: it refuses deletes (decision 101).
      const elsewhere = deps.movedTo?.(tenantId);
      if (elsewhere) count(await elsewhere.db.transaction((tx) => deleteTenantRows(tx, tenantId, order)));
      count(await db.transaction((tx) => deleteTenantRows(tx, tenantId, order)));
      await removeTenantFiles(deps.dataDir, tenantId);
      await forget(tenantId);
      deps.log.info({ tenantId, deleted }, 'store purged');
      return { deleted };
    },
  };

  /** Every cache keyed by the store drops it, in this process and the others (decision 018). */
  async function forget(tenantId: string) {
    await deps.events.emit('settings.changed', { tenantId, what: 'store-archive' });
    await deps.events.emit('catalog.changed', { tenantId });
  }
}

export type StoreArchive = ReturnType<typeof createStoreArchive>;
