export { productImportModule } from './product-import.module';
export { productImportPages } from './product-import.pages';
export { productImportRoutes } from './product-import.routes';
export {
  createProductImportService,
  IMPORT_JOB,
  type ProductImportService,
} from './product-import.service';
