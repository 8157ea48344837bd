export { productAdminModule } from './product-admin.module';
export { productAdminPages } from './product-admin.pages';
export { productAdminRoutes } from './product-admin.routes';
export { createProductAdminService, type ProductAdminService } from './product-admin.service';
export { writeProductTaxClass } from './product-tax-class';
export {
  auditedProduct,
  newProductId,
  type ProductWriteError,
  type ProductWriteInput,
  type ProductWriteResult,
  writeProduct,
  writeProducts,
} from './product-writer';
