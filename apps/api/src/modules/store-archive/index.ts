// A store's whole data (decision 122): export/ builds the archive, import/ loads one into an empty
// store, purge/ erases a store everywhere; tenant-tables.ts finds the store's tables in the catalog.
export { sendArchiveFile } from './archive-download';
export { ARCHIVE_FORMAT, ARCHIVE_VERSION, LEFT_OUT, REDACTED } from './archive-plan';
export { storeArchiveModule } from './store-archive.module';
export { storeArchiveRoutes } from './store-archive.routes';
export {
  createStoreArchive,
  EXPORT_JOB,
  type PurgeResult,
  platformContext,
  type StoreArchive,
} from './store-archive.service';
