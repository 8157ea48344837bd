export { storeModule } from './store.module';
export { shellPages } from './store.pages';
export { storeRoutes } from './store.routes';
export { createStoreService, DEFAULT_THEME_COLORS, type StorePreview, type StoreService } from './store.service';
export { forgetStoreIdentity, storeIdentity } from './store-identity';
