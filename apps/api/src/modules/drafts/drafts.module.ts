import { defineModule } from '../../lib/module';
import { draftsPages } from './drafts.pages';
import { draftsRoutes } from './drafts.routes';
import { createDraftsService, type DraftsService } from './drafts.service';

declare module '../../lib/module' {
  interface ModuleServices {
    /** Drafts of look and content; each kind registers where it is built (tests register their own). */
    drafts: { drafts: DraftsService };
  }
}

export const draftsModule = defineModule({
  name: 'drafts',
  needs: ['audit'],
  create: ({ db, events }, { audit }) => ({ drafts: createDraftsService(db, { audit, events }) }),
  routes: (app, { drafts }) => app.register(draftsRoutes, { drafts }),
  pages: ({ drafts }) => [draftsPages({ drafts })],
});
