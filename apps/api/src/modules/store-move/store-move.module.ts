import { defineModule } from '../../lib/module';
import { createStoreMove, type StoreMoveService } from './store-move.service';

declare module '../../lib/module' {
  interface ModuleServices {
    /** Moving a store to another of the deployment's databases (decision 123). */
    'store-move': { storeMove: StoreMoveService };
  }
  interface BuildOptions {
    /** How long the database a store left refuses its writes before it is cleared; 5 s by default. */
    storeMove?: { sourceGraceMs?: number };
  }
}

export const storeMoveModule = defineModule({
  name: 'store-move',
  needs: ['jobs', 'store-archive'],
  create({ stores, events, log, options }, { jobs }) {
    return {
      storeMove: createStoreMove({
        stores,
        jobs,
        events,
        log,
        sourceGraceMs: options.storeMove?.sourceGraceMs ?? 5_000,
      }),
    };
  },
  events: (_services, { stores }) => ({
    // Another process switched a store (or this one lost word of the others): read the placements again.
    'store.moved': () => stores.reload(),
    'events.missed': () => stores.reload(),
  }),
});
