import { defineModule } from '../../lib/module';
import { catalogRoutes } from './catalog.routes';
import { type CatalogService, createCatalogService } from './catalog.service';

declare module '../../lib/module' {
  interface ModuleServices {
    catalog: { catalog: CatalogService };
  }
}

export const catalogModule = defineModule({
  name: 'catalog',
  needs: [],
  uses: ['tenant'],
  create: ({ db }) => ({ catalog: createCatalogService(db) }),
  routes: (app, { catalog, tenants }, { publicCache }) =>
    app.register(catalogRoutes, { catalog, tenants, cache: publicCache }),
});
