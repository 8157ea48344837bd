import {
  dataEnvelope,
  returnApproveSchema,
  returnDetailSchema,
  returnIdParamsSchema,
  returnListQuerySchema,
  returnListSchema,
  returnReceiveSchema,
  returnRefundSchema,
  returnRejectSchema,
} from '@app/contracts';
import type { App } from '../../../lib/app-types';
import { changeErrors } from '../../../lib/app-types';
import { sendRefusal } from '../../../plugins/errors';
import type { ReturnAdminService } from './return-admin.service';

const noStore = { 'cache-control': 'private, no-store' };
const BASE = '/api/v1/returns';

/**
 * The store's side of return requests. The existing clients call no paths for it, so they sit
 * beside the other owner routes under /api/v1; each needs the `orders` permission (decision 041).
 */
export async function returnAdminRoutes(app: App, { returnAdmin }: { returnAdmin: ReturnAdminService }) {
  app.get(
    BASE,
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders'],
        summary: "The store's return requests, newest first (tab, search by order id, return id or email)",
        querystring: returnListQuerySchema,
        response: { 200: dataEnvelope(returnListSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await returnAdmin.list(req.ctx, req.query) };
    },
  );

  app.get(
    `${BASE}/:returnId`,
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders'],
        summary: 'One return request: lines, the order, the customer, history and refunds',
        params: returnIdParamsSchema,
        response: { 200: dataEnvelope(returnDetailSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await returnAdmin.get(req.ctx, req.params.returnId) };
    },
  );

  app.post(
    `${BASE}/:returnId/approve`,
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders'],
        summary: 'Approve a requested return; the instructions are emailed to the shopper',
        description: '409 unless the return is requested.',
        params: returnIdParamsSchema,
        body: returnApproveSchema,
        response: { 200: dataEnvelope(returnDetailSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const done = await returnAdmin.approve(req.ctx, req.params.returnId, req.body);
      if (!done.ok) return sendRefusal(reply, done);
      return { data: done.value };
    },
  );

  app.post(
    `${BASE}/:returnId/reject`,
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders'],
        summary: 'Reject a requested return, or a received one that did not qualify; the reason is emailed',
        description: '409 unless the return is requested or received.',
        params: returnIdParamsSchema,
        body: returnRejectSchema,
        response: { 200: dataEnvelope(returnDetailSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const done = await returnAdmin.reject(req.ctx, req.params.returnId, req.body);
      if (!done.ok) return sendRefusal(reply, done);
      return { data: done.value };
    },
  );

  app.post(
    `${BASE}/:returnId/receive`,
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders'],
        summary: 'Mark an approved return received, putting the chosen units of each line back in stock',
        description:
          'Per line, `restock` units (0 to the line quantity; lines not named: 0) go back to stock as RETURNED ' +
          "movements carrying the return's id, once. 409 unless the return is approved.",
        params: returnIdParamsSchema,
        body: returnReceiveSchema,
        response: { 200: dataEnvelope(returnDetailSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const done = await returnAdmin.receive(req.ctx, req.params.returnId, req.body);
      if (!done.ok) return sendRefusal(reply, done);
      return { data: done.value };
    },
  );

  app.post(
    `${BASE}/:returnId/refund`,
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders'],
        summary: 'Refund a received return through the payment provider; the shopper is emailed',
        description:
          'Never more than is left of the capture (422 REFUND_EXCEEDS_CAPTURED naming amount); a refusal by the ' +
          'provider (422 REFUND_DECLINED) leaves the return received. 409 unless the return is received.',
        params: returnIdParamsSchema,
        body: returnRefundSchema,
        response: { 200: dataEnvelope(returnDetailSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const done = await returnAdmin.refund(req.ctx, req.params.returnId, req.body);
      if (!done.ok) return sendRefusal(reply, done);
      return { data: done.value };
    },
  );
}
