export { bannersKind } from './banners.kind';
export { bannersModule } from './banners.module';
export { bannersPages } from './banners.pages';
export { bannersRoutes } from './banners.routes';
export { type BannersService, createBannersService, publicBanner, showingAt } from './banners.service';
