import { defineModule } from '../../lib/module';
import type { StorePreview } from '../store/index';
import { storeSettingsPages } from './store-settings.pages';
import { storeSettingsRoutes } from './store-settings.routes';
import { createStoreSettingsService, type StoreSettingsService } from './store-settings.service';

declare module '../../lib/module' {
  interface ModuleServices {
    /** `storePreview`: the owner's unpublished details, config and SEO over the published ones. */
    'store-settings': { storeSettings: StoreSettingsService; storePreview: StorePreview };
  }
}

export const storeSettingsModule = defineModule({
  name: 'store-settings',
  needs: ['drafts'],
  create({ db }, { drafts }) {
    // The theme and details draft kinds register with the drafts service here (decision 033).
    const storeSettings = createStoreSettingsService(db, { drafts });
    return {
      storeSettings,
      storePreview: {
        details: storeSettings.overlayDetails,
        config: storeSettings.overlayConfig,
        seo: storeSettings.overlaySeo,
      },
    };
  },
  routes: (app, { storeSettings }) => app.register(storeSettingsRoutes, { settings: storeSettings }),
  pages: ({ storeSettings, drafts }) => [storeSettingsPages({ settings: storeSettings, drafts })],
});
