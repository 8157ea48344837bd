import { dashboardHomeSchema, dataEnvelope, errorEnvelopeSchema } from '@app/contracts';
import type { FastifyRequest } from 'fastify';
import type { Access } from '../../lib/access';
import { requireAccess } from '../../lib/access';
import type { App } from '../../lib/app-types';
import { tenantErrors } from '../../lib/app-types';
import type { RequestContext } from '../../lib/context';
import type { AuthService } from '../auth/index';
import { requestToken } from '../auth/index';
import type { DashboardService } from './dashboard.service';
import { interimContext } from './interim-context';

// GUARD: the guard plugin declares `permission` at merge; drop this augmentation then.
declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call an owner route: refused before the handler (visitor 401, others 403). */
    permission?: Access;
  }
}

const errors = { ...tenantErrors, 401: errorEnvelopeSchema } as const;

/** The owner's dashboard over HTTP, for other clients: the same payload the pages read. */
export async function dashboardRoutes(
  app: App,
  { dashboard, auth }: { dashboard: DashboardService; auth: AuthService },
) {
  // GUARD: replaced by req.ctx at merge.
  async function contextOf(req: FastifyRequest): Promise<RequestContext> {
    const found = requestToken(req.headers);
    const user = found ? await auth.resolve(req.tenantCtx, found.token) : null;
    const ctx = interimContext(req.tenantCtx, user, req.headers, { requestId: String(req.id), ip: req.ip });
    requireAccess(ctx, req.routeOptions.config.permission ?? 'staff');
    return ctx;
  }

  app.get(
    '/api/v1/dashboard/home',
    {
      config: { permission: 'staff' },
      schema: {
        tags: ['dashboard'],
        summary: "The dashboard home: today's and 30 days' sales, orders to fulfil, low stock, latest activity",
        description:
          'Staff of the store only: a visitor gets 401, a shopper 403. "Today" is the UTC calendar day; amounts are minor units of `currency`.',
        response: { 200: dataEnvelope(dashboardHomeSchema), ...errors },
      },
    },
    async (req, reply) => {
      const ctx = await contextOf(req);
      reply.header('cache-control', 'private, no-store');
      return { data: await dashboard.home(ctx) };
    },
  );
}
