import { defineModule } from '../../lib/module';
import { storeAccessPages } from './store-access.pages';
import { storeAccessRoutes } from './store-access.routes';
import { createStoreAccessService, type StoreAccessService } from './store-access.service';

declare module '../../lib/module' {
  interface ModuleServices {
    /** Accounts waiting for the owner's approval and customer invitations (decision 105). */
    'store-access': { access: StoreAccessService };
  }
}

export const storeAccessModule = defineModule({
  name: 'store-access',
  needs: ['tenant', 'mail', 'audit'],
  create: ({ db, events, linkOrigin }, { audit, mailer, visibility, tenants }) => ({
    access: createStoreAccessService(db, { events, audit, mailer, visibility, tenants, linkOrigin }),
  }),
  routes: (app, { access }) => app.register(storeAccessRoutes, { access }),
  pages: ({ access }) => [storeAccessPages({ access })],
});
