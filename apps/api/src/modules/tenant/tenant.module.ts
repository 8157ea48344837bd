import { defineModule } from '../../lib/module';
import { homeTransactions } from '../../lib/store-databases';
import { createStoreVisibilityService, type StoreVisibilityService } from './store-visibility';
import { tenantRoutes } from './tenant.routes';
import { createTenantService, type TenantService } from './tenant.service';
import { tenantAccessRoutes } from './tenant-access.routes';

declare module '../../lib/module' {
  interface ModuleServices {
    /** The stores, and who sees each (decision 027). Every app boots this module: tenancy needs it. */
    tenant: { tenants: TenantService; visibility: StoreVisibilityService };
  }
}

export const tenantModule = defineModule({
  name: 'tenant',
  needs: ['audit'],
  optional: ['cancel-request'],
  // A store's hosts and its tenants row (its access mode) are the platform's: read by tenancy before
  // the store is known, so read and written on the home database wherever the store lives (decision 123).
  create: ({ db, stores, config, events, memory }, { auditFromHome }) => ({
    tenants: createTenantService(db, {
      memory,
      devTenantId: config.DEV_TENANT_ID,
      production: config.NODE_ENV === 'production',
      platformHost: config.PLATFORM_HOST,
      platformDb: stores.home.db,
    }),
    // The access mode's audit entry goes to the store's own log, where its activity feed reads it.
    visibility: createStoreVisibilityService(stores.home.db, {
      events: homeTransactions(stores, events),
      audit: auditFromHome,
    }),
  }),
  async routes(app, { tenants, visibility, cancelRequests }) {
    await app.register(tenantAccessRoutes, { visibility });
    await app.register(tenantRoutes, {
      tenants,
      cancelRequestState: cancelRequests && ((tenantId) => cancelRequests.state(tenantId)),
    });
  },
  events: ({ tenants }) => ({
    'settings.changed': () => tenants.invalidate(),
    'events.missed': () => tenants.invalidate(),
  }),
});
