export { mediaRoutes } from './media.routes';
export { createDiskStorage, type MediaObject, type MediaStorage } from './media.storage';
