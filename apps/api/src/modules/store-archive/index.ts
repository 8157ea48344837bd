// A store's whole data (decision 122): export/ builds the archive, import/ loads one into an empty
// store, purge/ erases a store everywhere; tenant-tables.ts finds the store's tables in the catalog.
export { sendArchiveFile } from './archive-download';
export { ARCHIVE_FORMAT, ARCHIVE_VERSION, LEFT_OUT, REDACTED } from './archive-plan';
// Reused by the store move (decision 123): the store's tables from the catalog, and the purge's delete.
export { deleteOrder, deleteTenantRows, PURGE_KEEPS } from './purge/purge';
export { storeArchiveModule } from './store-archive.module';
export { storeArchiveRoutes } from './store-archive.routes';
export {
  createStoreArchive,
  EXPORT_JOB,
  type PurgeResult,
  platformContext,
  type StoreArchive,
} from './store-archive.service';
export { ident, readTenantTables, rowsOf, type TenantTable } from './tenant-tables';
