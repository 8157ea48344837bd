import { defineModule } from '../../lib/module';
import { shellPages } from './store.pages';
import { storeRoutes } from './store.routes';
import { createStoreService, type StoreService } from './store.service';
import { forgetStoreIdentity } from './store-identity';

declare module '../../lib/module' {
  interface ModuleServices {
    store: { store: StoreService };
  }
}

export const storeModule = defineModule({
  name: 'store',
  needs: [],
  uses: ['tenant', 'store-settings', 'cms', 'catalog', 'banners'],
  create: ({ db }) => ({ store: createStoreService(db) }),
  routes: (app, { store, tenants, storePreview }, { publicCache }) =>
    app.register(storeRoutes, { store, tenants, cache: publicCache, preview: storePreview }),
  pages: ({ store, cms, catalog, tenants, storePreview, banners }, { config }) => [
    shellPages({
      store,
      cms,
      catalog,
      tenants,
      chatWidgetUrl: config.CHAT_WIDGET_URL ?? 'https://embed.tawk.to',
      platformName: config.PLATFORM_NAME ?? 'Storefront Platform',
      preview: storePreview,
      previewBanners: (ctx) => banners.preview(ctx),
    }),
  ],
  events: (_s, { db }) => ({
    'settings.changed': ({ tenantId }) => forgetStoreIdentity(db, tenantId),
    'events.missed': () => forgetStoreIdentity(db),
  }),
});
