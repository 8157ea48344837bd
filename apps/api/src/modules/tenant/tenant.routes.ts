import {
  dataEnvelope,
  errorEnvelopeSchema,
  hostNameQuerySchema,
  tenantIdQuerySchema,
  tenantLookupSchema,
  tenantSchema,
} from '@app/contracts';
import type { App } from '../../lib/app-types';
import { tenantErrors } from '../../lib/app-types';
import { AppError } from '../../lib/errors';
import { DEV_TENANT_ALIAS, type TenantService } from './tenant.service';

/** The state of the tenant's cancel request (modules/cancel-request), reported with the tenant. */
type CancelRequestStateOf = (tenantId: string) => Promise<import('@app/contracts').CancelRequestState>;

/** Tenant service reads the clients call. */
export async function tenantRoutes(
  app: App,
  { tenants, cancelRequestState }: { tenants: TenantService; cancelRequestState?: CancelRequestStateOf },
) {
  app.get(
    '/api/fetch/tenantid/by/hostname',
    {
      // Platform-level: this is how a client finds its tenant, so it cannot need one.
      config: { tenant: false },
      schema: {
        tags: ['tenant'],
        summary: 'Find the tenant of a host name; an unknown host answers without tenantId',
        querystring: hostNameQuerySchema,
        response: { 200: tenantLookupSchema, 400: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'public, max-age=60');
      return tenants.lookupByHostName(req.query.hostName);
    },
  );

  app.get(
    '/api/fetch/tenant',
    {
      schema: {
        tags: ['tenant'],
        summary: "The host's tenant with its product stores and host names",
        querystring: tenantIdQuerySchema,
        response: { 200: dataEnvelope(tenantSchema), ...tenantErrors },
      },
    },
    async (req) => {
      const ctx = req.ctx;
      const asked = req.query.tenantId;
      if (asked !== ctx.tenantId && asked !== DEV_TENANT_ALIAS) {
        throw new AppError(403, 'TENANT_MISMATCH', `Tenant ${asked.slice(0, 64)} cannot be read from this host.`);
      }
      const tenant = await tenants.getTenant(ctx.tenantId);
      if (!tenant) throw AppError.notFound(`Tenant ${ctx.tenantId} not found.`);
      return {
        data: cancelRequestState ? { ...tenant, cancelRequest: await cancelRequestState(ctx.tenantId) } : tenant,
      };
    },
  );
}
