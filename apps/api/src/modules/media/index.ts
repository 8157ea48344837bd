export { mediaModule } from './media.module';
export { mediaPages } from './media.pages';
export { mediaRoutes } from './media.routes';
export { createMediaService, detectImageFormat, type MediaService } from './media.service';
export { createDiskStorage, type MediaObject, type MediaStorage } from './media.storage';
export { mediaUploadRoutes } from './media.upload.routes';
