export { productListModule } from './product-list.module';
export { productListPages } from './product-list.pages';
export { productListRoutes } from './product-list.routes';
export {
  BULK_JOB,
  bulkPrice,
  createProductListService,
  type ProductListService,
  statusTransition,
} from './product-list.service';
