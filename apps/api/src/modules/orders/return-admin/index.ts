export { returnAdminModule } from './return-admin.module';
export { returnAdminPages } from './return-admin.pages';
export { returnAdminRoutes } from './return-admin.routes';
export { createReturnAdminService, lineRefundValue, type ReturnAdminService } from './return-admin.service';
