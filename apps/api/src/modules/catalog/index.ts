export { catalogModule } from './catalog.module';
export { catalogRoutes } from './catalog.routes';
export { type CatalogService, createCatalogService } from './catalog.service';
