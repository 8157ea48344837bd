import { defineModule } from '../../lib/module';
import { bannersPages } from './banners.pages';
import { bannersRoutes } from './banners.routes';
import { type BannersService, createBannersService } from './banners.service';

declare module '../../lib/module' {
  interface ModuleServices {
    banners: { banners: BannersService };
  }
}

export const bannersModule = defineModule({
  name: 'banners',
  needs: ['drafts', 'media', 'tenant'],
  create({ db }, { drafts, media, tenants }) {
    const banners = createBannersService(db, { drafts, media, tenants });
    drafts.register(banners.kind);
    return { banners };
  },
  routes: (app, { banners }) => app.register(bannersRoutes, { banners }),
  pages: ({ banners, drafts }) => [bannersPages({ banners, drafts })],
});
