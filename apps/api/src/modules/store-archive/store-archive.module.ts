import { defineModule } from '../../lib/module';
import { storeArchivePages } from './store-archive.pages';
import { storeArchiveRoutes } from './store-archive.routes';
import { createStoreArchive, type StoreArchive } from './store-archive.service';

declare module '../../lib/module' {
  interface ModuleServices {
    /** A store's whole data (decision 122): the export job and archive, the import, the purge. */
    'store-archive': { storeArchive: StoreArchive };
  }
}

export const storeArchiveModule = defineModule({
  name: 'store-archive',
  needs: ['jobs', 'media', 'audit'],
  create({ db, config, events, log, options, stores }, { jobs, storage }) {
    return {
      storeArchive: createStoreArchive({
        db,
        dataDir: config.DATA_DIR,
        storage,
        generate: options.generateMedia,
        jobs,
        events,
        log,
        movedTo: (tenantId) => stores.movedTo(tenantId),
      }),
    };
  },
  routes: (app, { storeArchive, audit }, { db }) =>
    app.register(storeArchiveRoutes, { archive: storeArchive, audit, db }),
  pages: ({ storeArchive, audit }, { db }) => [storeArchivePages({ archive: storeArchive, audit, db })],
});
