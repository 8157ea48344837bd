export { detailsKind, themeKind } from './kinds';
export { newsletterEmbedProblem } from './newsletter-embed';
export { openStoreSettings } from './opening-settings';
export { storeSettingsModule } from './store-settings.module';
export { storeSettingsPages } from './store-settings.pages';
export { storeSettingsRoutes } from './store-settings.routes';
export { createStoreSettingsService, type StoreSettingsService } from './store-settings.service';
