export { productsModule } from './products.module';
export { catalogPages } from './products.pages';
export { productsRoutes } from './products.routes';
export { createProductsService, type ProductsService } from './products.service';
