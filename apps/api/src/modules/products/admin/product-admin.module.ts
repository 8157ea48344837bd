import { defineModule } from '../../../lib/module';
import { productAdminPages } from './product-admin.pages';
import { productAdminRoutes } from './product-admin.routes';
import { createProductAdminService, type ProductAdminService } from './product-admin.service';

declare module '../../../lib/module' {
  interface ModuleServices {
    'product-admin': { productAdmin: ProductAdminService };
  }
}

export const productAdminModule = defineModule({
  name: 'product-admin',
  needs: ['audit', 'media'],
  create: ({ db, events }, { audit, media, storage }) => ({
    productAdmin: createProductAdminService(db, { audit, events, media, storage }),
  }),
  routes: (app, { productAdmin }) => app.register(productAdminRoutes, { productAdmin }),
  pages: ({ productAdmin }) => [productAdminPages({ productAdmin })],
});
