import { defineModule } from '../../../lib/module';
import { productListPages } from './product-list.pages';
import { productListRoutes } from './product-list.routes';
import { createProductListService, type ProductListService } from './product-list.service';

declare module '../../../lib/module' {
  interface ModuleServices {
    'product-list': { productList: ProductListService };
  }
}

export const productListModule = defineModule({
  name: 'product-list',
  needs: ['audit', 'jobs'],
  create: ({ db, events }, { audit, jobs }) => ({ productList: createProductListService(db, { audit, events, jobs }) }),
  routes: (app, { productList }) => app.register(productListRoutes, { productList }),
  pages: ({ productList }) => [productListPages({ productList })],
});
