import { AUDIT_PAGE_MAX, auditPageSchema, auditQuerySchema, dataEnvelope, errorEnvelopeSchema } from '@app/contracts';
import type { App } from '../../lib/app-types';
import { tenantErrors } from '../../lib/app-types';
import type { AuditService } from './audit.service';

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
      return { data: await audit.list(req.ctx, req.query) };
    },
  );
}
