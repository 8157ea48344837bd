export { catalogAdminModule } from './catalog-admin.module';
export { catalogAdminPages } from './catalog-admin.pages';
export { catalogAdminRoutes } from './catalog-admin.routes';
export { type CatalogAdminService, createCatalogAdminService } from './catalog-admin.service';
