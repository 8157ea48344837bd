import {
  analyticsQuerySchema,
  dashboardHomeSchema,
  dataEnvelope,
  errorEnvelopeSchema,
  ordersCleanupSchema,
} from '@app/contracts';
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
        summary:
          'The dashboard home: sales, orders, average order value and returning customers over a range, with the previous period; sales over time, top products, orders to fulfil, low stock, latest activity',
        description:
          'Staff of the store only: a visitor gets 401, a shopper 403. `range` is a preset or `custom` with `from` and `to` (inclusive UTC days, at most 366 days). Staff without the orders permission get `analytics`, `toFulfil` and `cleanup` as null. Amounts are minor units of `currency`.',
        querystring: analyticsQuerySchema,
        response: { 200: dataEnvelope(dashboardHomeSchema), ...errors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await dashboard.home(req.ctx, req.query) };
    },
  );

  app.get(
    '/api/v1/dashboard/orders-cleanup',
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['dashboard'],
        summary: "The unpaid-order clean-up's runs: what each cancelled, completed or left, and why",
        response: { 200: dataEnvelope(ordersCleanupSchema), ...errors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await dashboard.cleanup(req.ctx) };
    },
  );
}
