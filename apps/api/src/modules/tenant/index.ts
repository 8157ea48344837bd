export {
  AWAITING_APPROVAL_PATH,
  isMember,
  OPEN_API_ROUTES,
  PRIVATE_CACHE_CONTROL,
  privatePageRedirect,
  privateStore,
  privateStoreRefusal,
  type Standing,
  standingOf,
  visitorPages,
} from './private-store';
export {
  bindDomainHost,
  bindStoreHost,
  canonicalHostsOf,
  hostHolder,
  type NewStore,
  openStoreRow,
  openTenant,
  storeHostsOf,
  unbindDomainHost,
  writeCanonicalHost,
  writeCanonicalHostCopy,
  writeLowStockThreshold,
} from './store-row';
export { createStoreVisibilityService, requireOwner, type StoreVisibilityService } from './store-visibility';
export { tenantModule } from './tenant.module';
export { tenantRoutes } from './tenant.routes';
export { createTenantService, DEV_TENANT_ALIAS, isDevHost, normaliseHost, type TenantService } from './tenant.service';
export { tenantAccessRoutes } from './tenant-access.routes';
