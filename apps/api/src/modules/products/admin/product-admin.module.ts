import { defineModule } from '../../../lib/module';
import { productAdminPages } from './product-admin.pages';
import { productAdminRoutes } from './product-admin.routes';
import { createProductAdminService, type ProductAdminService } from './product-admin.service';
import { variantAdminRoutes } from './variant-admin.routes';
import { createVariantAdminService, type VariantAdminService } from './variant-admin.service';

declare module '../../../lib/module' {
  interface ModuleServices {
    'product-admin': { productAdmin: ProductAdminService; variantAdmin: VariantAdminService };
  }
}

export const productAdminModule = defineModule({
  name: 'product-admin',
  needs: ['audit', 'media'],
  create: ({ db, events }, { audit, media, storage }) => ({
    productAdmin: createProductAdminService(db, { audit, events, media, storage }),
    variantAdmin: createVariantAdminService(db, { audit, events }),
  }),
  routes: async (app, { productAdmin, variantAdmin }) => {
    await app.register(productAdminRoutes, { productAdmin });
    await app.register(variantAdminRoutes, { variantAdmin });
  },
  pages: ({ productAdmin }) => [productAdminPages({ productAdmin })],
});
