export { productsRoutes } from './products.routes';
export { createProductsService, type ProductsService } from './products.service';
