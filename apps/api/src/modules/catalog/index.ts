// The catalog domain (decision 110): the store's catalogs and categories, read by the storefront
// (this folder) and edited on the dashboard (admin/, a module of its own with its own index.ts, which
// modules/registry.ts loads). Other domains import this file only.
export { catalogModule } from './catalog.module';
export { catalogRoutes } from './catalog.routes';
export { type CatalogService, createCatalogService } from './catalog.service';
export { openStoreCatalog, type StarterCategory } from './provision';
