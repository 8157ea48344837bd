import { defineModule } from '../../../lib/module';
import { catalogAdminPages } from './catalog-admin.pages';
import { catalogAdminRoutes } from './catalog-admin.routes';
import { type CatalogAdminService, createCatalogAdminService } from './catalog-admin.service';

declare module '../../../lib/module' {
  interface ModuleServices {
    'catalog-admin': { catalogAdmin: CatalogAdminService };
  }
}

export const catalogAdminModule = defineModule({
  name: 'catalog-admin',
  needs: ['audit', 'media', 'tenant'],
  create: ({ db, events }, { audit, media, tenants }) => ({
    catalogAdmin: createCatalogAdminService(db, { audit, events, media, tenants }),
  }),
  routes: (app, { catalogAdmin }) => app.register(catalogAdminRoutes, { catalogAdmin }),
  pages: ({ catalogAdmin }) => [catalogAdminPages({ catalogAdmin })],
});
