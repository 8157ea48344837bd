import { defineModule } from '../../lib/module';
import { homeTransactions } from '../../lib/store-databases';
import { type LifecyclePages, lifecyclePages } from './lifecycle-page';
import { storeLifecyclePages } from './store-lifecycle.pages';
import { createStoreLifecycleService, type StoreLifecycleService } from './store-lifecycle.service';

declare module '../../lib/module' {
  interface ModuleServices {
    /**
     * A store's lifecycle state (decision 099): read on every request by the tenancy plugin (so every
     * app boots this module), changed only through `storeLifecycle.transition`.
     */
    'store-lifecycle': { storeLifecycle: StoreLifecycleService; lifecyclePage: LifecyclePages };
  }
}

export const storeLifecycleModule = defineModule({
  name: 'store-lifecycle',
  needs: ['audit'],
  // A store's state is the platform's row: read by tenancy before the store is known, so read and
  // written on the home database wherever the store lives (decision 123). A caller passing its own
  // `tx` to `transition` must have opened it there too (`homeTransactions`).
  create: ({ stores, events }, { auditFromHome }) => ({
    storeLifecycle: createStoreLifecycleService(stores.home.db, {
      events: homeTransactions(stores, events),
      audit: auditFromHome,
    }),
    lifecyclePage: lifecyclePages(stores.home.db),
  }),
  pages: ({ storeLifecycle }) => [storeLifecyclePages({ storeLifecycle })],
  events: ({ storeLifecycle }) => ({
    'store.lifecycle.changed': (p) => storeLifecycle.invalidate(p.tenantId),
    'events.missed': () => storeLifecycle.invalidate(),
  }),
});
