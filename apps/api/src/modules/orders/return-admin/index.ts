export { returnAdminModule } from './return-admin.module';
