export { orderAdminModule } from './order-admin.module';
export { orderAdminPages } from './order-admin.pages';
export { orderAdminRoutes } from './order-admin.routes';
export { createOrderAdminService, type OrderAdminDeps, type OrderAdminService } from './order-admin.service';
