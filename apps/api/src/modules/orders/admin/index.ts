export { orderAdminModule } from './order-admin.module';
