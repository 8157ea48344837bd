export { tenantRoutes } from './tenant.routes';
export { createTenantService, DEV_TENANT_ALIAS, isDevHost, normaliseHost, type TenantService } from './tenant.service';
