import {
  dataEnvelope,
  paymentIssueIdParamsSchema,
  paymentIssueResolveSchema,
  paymentIssueSchema,
  paymentIssuesPageSchema,
  paymentIssuesQuerySchema,
} from '@app/contracts';
import type { App } from '../../../lib/app-types';
import { changeErrors } from '../../../lib/app-types';
import type { PaymentIssuesService } from './payment-issues.service';

const noStore = { 'cache-control': 'private, no-store' };

/** The owner's "Payments needing attention" (decision 053): the payment issues, listed and resolved. */
export async function paymentIssuesRoutes(app: App, { issues }: { issues: PaymentIssuesService }) {
  app.get(
    '/api/paypal/issues',
    {
      config: { permission: 'payments' },
      schema: {
        tags: ['payments'],
        summary: 'Payments needing attention: money PayPal reported that matches no order (open or resolved)',
        querystring: paymentIssuesQuerySchema,
        response: { 200: dataEnvelope(paymentIssuesPageSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await issues.list(req.ctx, req.query) };
    },
  );

  app.post(
    '/api/paypal/issues/:issueId/resolve',
    {
      config: { permission: 'payments' },
      schema: {
        tags: ['payments'],
        summary: 'Mark a payment issue resolved, with a note of what was done (audited)',
        params: paymentIssueIdParamsSchema,
        body: paymentIssueResolveSchema,
        response: { 200: dataEnvelope(paymentIssueSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await issues.resolve(req.ctx, req.params.issueId, req.body.note) };
    },
  );
}
