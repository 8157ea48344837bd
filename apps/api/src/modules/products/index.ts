// The products domain (decision 110): the storefront's product reads and search (this folder and
// search-index/), the dashboard's product editor (admin/), product list and bulk changes (list/),
// CSV import (import/) and stock (inventory/). Each sub-folder that is a module has its own
// index.ts, which modules/registry.ts loads; other domains import this file only.

export { writeProduct, writeProductTaxClass } from './admin/index';
export { changeStock, changeStockAlong, type StockChange, type StockMoved, type StockResult } from './inventory/index';
export { createProductListService } from './list/index';
export { productsModule } from './products.module';
export { catalogPages } from './products.pages';
export { productsRoutes } from './products.routes';
export { createProductsService, type ProductsService } from './products.service';
export { addStarterProducts, type StarterProduct } from './provision';
