import {
  cancelRequestIdParamsSchema,
  cancelRequestInitiateSchema,
  cancelRequestSchema,
  dataEnvelope,
} from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../lib/app-types';
import { changeErrors } from '../../lib/app-types';
import { sendRefusal } from '../../plugins/errors';
import type { CancelRequestService } from './cancel-request.service';

const about =
  'The owner only (role admin): a visitor gets 401, a shopper or staff 403. `{id}` is the tenantId; another tenant is 404. ' +
  'A transition the state machine refuses is 409 INVALID_TRANSITION.';

/** The clients' cancel request, and its withdrawal in the same style. */
export async function cancelRequestRoutes(app: App, { cancelRequests }: { cancelRequests: CancelRequestService }) {
  app.get(
    '/api/tenant/cancel_request/:id',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['tenant'],
        summary: "The tenant's cancel request, with its reason",
        description: about,
        params: cancelRequestIdParamsSchema,
        response: { 200: dataEnvelope(cancelRequestSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await cancelRequests.get(req.ctx, req.params.id) };
    },
  );

  app.patch(
    '/api/tenant/cancel_request/:id/initiate',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['tenant'],
        summary: 'Ask the platform to cancel the store (requested); the owner gets a confirmation email',
        description: about,
        params: cancelRequestIdParamsSchema,
        body: cancelRequestInitiateSchema,
        response: { 200: dataEnvelope(cancelRequestSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      const done = await cancelRequests.initiate(req.ctx, req.params.id, req.body.cancelRequestReason);
      if (!done.ok) return sendRefusal(reply, done);
      return { data: done.value };
    },
  );

  app.patch(
    '/api/tenant/cancel_request/:id/withdraw',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['tenant'],
        summary: 'Withdraw the cancel request (withdrawn); the store stays open',
        description: about,
        params: cancelRequestIdParamsSchema,
        body: z.strictObject({}).nullish(),
        response: { 200: dataEnvelope(cancelRequestSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      const done = await cancelRequests.withdraw(req.ctx, req.params.id);
      if (!done.ok) return sendRefusal(reply, done);
      return { data: done.value };
    },
  );
}
