import { defineModule } from '../../lib/module';
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
  create: ({ db, events }, { audit }) => ({
    storeLifecycle: createStoreLifecycleService(db, { events, audit }),
    lifecyclePage: lifecyclePages(db),
  }),
  pages: ({ storeLifecycle }) => [storeLifecyclePages({ storeLifecycle })],
  events: ({ storeLifecycle }) => ({
    'store.lifecycle.changed': (p) => storeLifecycle.invalidate(p.tenantId),
    'events.missed': () => storeLifecycle.invalidate(),
  }),
});
