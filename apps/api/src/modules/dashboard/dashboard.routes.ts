import { dashboardHomeSchema, dataEnvelope, errorEnvelopeSchema } from '@app/contracts';
import type { App } from '../../lib/app-types';
import { tenantErrors } from '../../lib/app-types';
import type { DashboardService } from './dashboard.service';

const errors = { ...tenantErrors, 401: errorEnvelopeSchema } as const;

/** The owner's dashboard over HTTP, for other clients: the same payload the pages read. */
export async function dashboardRoutes(app: App, { dashboard }: { dashboard: DashboardService }) {
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
      reply.header('cache-control', 'private, no-store');
      return { data: await dashboard.home(req.ctx) };
    },
  );
}
