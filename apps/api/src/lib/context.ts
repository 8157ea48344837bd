import type { Db } from '@app/db';

/**
 * Who a request acts for (Vendure's RequestContext): every service function takes it first,
 * and no service reads the tenant from anywhere else.
 */
export interface TenantContext {
  tenantId: string;
  /** The product store the host serves; requests may name another store of the same tenant. */
  productStoreId: string;
  hostName: string;
  /** True when the host reached the tenant through the `development` alias. */
  viaDevAlias: boolean;
  /** scheme://host[:port] of the request, for absolute URLs in answers. */
  origin: string;
}

/** What services are built with: the database and nothing request-specific. */
export interface ServiceDeps {
  db: Db;
}
