import { type StoreState, TENANT_NOT_SETUP_MESSAGE } from '@app/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { TenantContext } from '../lib/context';
import { AppError } from '../lib/errors';
import { DEV_TENANT_ALIAS, normaliseHost, type TenantService } from '../modules/tenant/index';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for every route whose config does not say `tenant: false`. */
    tenantCtx: TenantContext;
  }
  interface FastifyContextConfig {
    /** false for platform routes (health, tenant lookup by host name, docs). */
    tenant?: boolean;
  }
}

/**
 * Binds each request to its tenant by Host, on the server. The tenantId header
 * clients send must agree; a request naming another tenant is refused before any handler runs.
 */
async function tenancyPlugin(
  app: FastifyInstance,
  opts: { tenants: TenantService; platformPaths: string[]; stateOf?: StoreStateLookup },
) {
  app.decorateRequest('tenantCtx', null as unknown as TenantContext);

  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.config?.tenant === false) return;
    if (opts.platformPaths.some((p) => req.url === p || req.url.startsWith(`${p}/`))) return;
    req.tenantCtx = await resolveRequestTenant(req, opts.tenants, opts.stateOf);
  });
}

/** The store-lifecycle module's cached state of a tenant (decision 099). */
export type StoreStateLookup = (tenantId: string) => Promise<StoreState>;

/**
 * The request's store by its Host, with its lifecycle state. A purged store's host answers as an
 * unknown store's (decision 099); without `stateOf` (a harness without the module) every store is active.
 */
export async function resolveRequestTenant(
  req: FastifyRequest,
  tenants: TenantService,
  stateOf?: StoreStateLookup,
): Promise<TenantContext> {
  const hostName = normaliseHost(req.host ?? '');
  const binding = hostName ? await tenants.resolveHost(hostName) : null;
  if (!binding) throw new AppError(404, 'TENANT_NOT_FOUND', TENANT_NOT_SETUP_MESSAGE);
  const state = stateOf ? await stateOf(binding.tenantId) : 'active';
  if (state === 'purged') throw new AppError(404, 'TENANT_NOT_FOUND', TENANT_NOT_SETUP_MESSAGE);
  const claimed = headerValue(req.headers.tenantid);
  if (claimed !== undefined) {
    const agrees = claimed === binding.tenantId || (claimed === DEV_TENANT_ALIAS && tenants.isDevHost(hostName));
    if (!agrees) {
      throw new AppError(
        403,
        'TENANT_MISMATCH',
        `The tenantId header (${claimed.slice(0, 64)}) does not match the store of host ${hostName}.`,
      );
    }
  }
  return {
    tenantId: binding.tenantId,
    productStoreId: binding.productStoreId,
    hostName,
    viaDevAlias: binding.viaDevAlias,
    origin: `${req.protocol}://${req.host}`,
    state,
  };
}

function headerValue(v: string | string[] | undefined): string | undefined {
  if (v === undefined) return undefined;
  return (Array.isArray(v) ? v[0] : v)?.trim();
}

/** A productStoreId from a request must be one of the host tenant's stores; absent means the host's. */
export async function storeIdFor(
  ctx: TenantContext,
  tenants: TenantService,
  requested?: string | null,
): Promise<string> {
  if (!requested) return ctx.productStoreId;
  const ids = await tenants.storeIds(ctx.tenantId);
  if (!ids.has(requested)) {
    throw new AppError(404, 'NOT_FOUND', `Product store ${requested.slice(0, 32)} is not a store of this site.`);
  }
  return requested;
}

export default fp(tenancyPlugin, { name: 'tenancy' });
