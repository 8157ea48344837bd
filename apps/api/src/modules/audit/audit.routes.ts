import { AUDIT_PAGE_MAX, auditPageSchema, auditQuerySchema, dataEnvelope, errorEnvelopeSchema } from '@app/contracts';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../lib/app-types';
import { tenantErrors } from '../../lib/app-types';
import { type Permission, type RequestContext, systemContext } from '../../lib/context';
import type { AuditService } from './audit.service';

// GUARD: the guard plugin declares this config at merge; drop it here then.
declare module 'fastify' {
  interface FastifyContextConfig {
    /** What an owner route needs (decision 016): the guard refuses visitors 401, others 403. */
    permission?: Permission | 'staff';
  }
}

// GUARD: replaced by req.ctx at merge
function contextOf(req: FastifyRequest): RequestContext {
  return { ...systemContext(req.tenantCtx, 'audit-route', req.id), ip: req.ip };
}

/** The store's audit log for its owner (decision 019). */
export async function auditRoutes(app: App, { audit }: { audit: AuditService }) {
  app.get(
    '/api/v1/audit/fetch',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['store'],
        summary: "The store's audit log: who changed what and when, newest first",
        description:
          'Filters: entity (with entityId), actorId, action, from (inclusive) and to (exclusive) as ISO 8601 ' +
          `times. Pages of limit entries (at most ${AUDIT_PAGE_MAX}); pass nextCursor as cursor for the next ` +
          'page. Each entry holds the fields that changed, secrets as "[redacted]". Needs the settings permission.',
        querystring: auditQuerySchema,
        response: { 200: dataEnvelope(auditPageSchema), ...tenantErrors, 401: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await audit.list(contextOf(req), req.query) };
    },
  );
}
