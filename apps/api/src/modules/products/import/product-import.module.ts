import { defineModule } from '../../../lib/module';
import { productImportPages } from './product-import.pages';
import { productImportRoutes } from './product-import.routes';
import { createProductImportService, type ProductImportService } from './product-import.service';

declare module '../../../lib/module' {
  interface ModuleServices {
    'product-import': { imports: ProductImportService };
  }
}

export const productImportModule = defineModule({
  name: 'product-import',
  needs: ['jobs', 'audit'],
  create: ({ db, events, log, config }, { jobs, audit }) => ({
    imports: createProductImportService(db, { jobs, events, audit, dataDir: config.DATA_DIR, log }),
  }),
  routes: (app, { imports }) => app.register(productImportRoutes, { imports }),
  pages: ({ imports }) => [productImportPages({ imports })],
});
