export { cmsModule } from './cms.module';
export { cmsPages } from './cms.pages';
export { cmsRoutes } from './cms.routes';
export { type CmsService, createCmsService, pageKind } from './cms.service';
