import {
  dataEnvelope,
  errorEnvelopeSchema,
  fulfilRequestSchema,
  orderActionResultSchema,
  orderCancelSchema,
  orderIdParamsSchema,
  orderNoteSchema,
  orderRefundParamsSchema,
  refundRequestSchema,
  staffOrderSchema,
} from '@app/contracts';
import { z } from 'zod';
import { fileAnswer, PDF } from '../../../lib/api-docs';
import type { App } from '../../../lib/app-types';
import { changeErrors, costlyErrors } from '../../../lib/app-types';
import { sendRefusal } from '../../../plugins/errors';
import type { OrderAdminService } from './order-admin.service';

const noStore = { 'cache-control': 'private, no-store' };
/** A refund's provider that cannot be reached answers 502; the refund waits as pending (retry). */
const moneyErrors = { ...changeErrors, 502: errorEnvelopeSchema } as const;
const BASE = '/api/v1/orders/:orderId';

/**
 * One order on the store side (beside the other owner routes under /api/v1). Each
 * needs the `orders` permission (decision 041). The list, its export and saved views are another
 * module's (GET /api/v1/orders, /api/v1/orders/export.csv, /api/v1/order-views).
 */
export async function orderAdminRoutes(app: App, { orderAdmin }: { orderAdmin: OrderAdminService }) {
  app.get(
    BASE,
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders'],
        summary: 'One order for staff: lines, money, payment and refunds, customer, addresses, timeline',
        params: orderIdParamsSchema,
        response: { 200: dataEnvelope(staffOrderSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await orderAdmin.view(req.ctx, req.params.orderId) };
    },
  );

  app.post(
    `${BASE}/notes`,
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders'],
        summary: "A staff note on the order's timeline (never shown to the shopper)",
        params: orderIdParamsSchema,
        body: orderNoteSchema,
        response: { 200: dataEnvelope(orderActionResultSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const { message, ...data } = await orderAdmin.addNote(req.ctx, req.params.orderId, req.body);
      return { data: { ...data, message }, message };
    },
  );

  app.post(
    `${BASE}/fulfil`,
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders'],
        summary: 'Ship a paid order: carrier and tracking number; the shopper is emailed the tracking link',
        description:
          "Only a paid order can be shipped: any other status is 409. Carrier 'other' needs carrierName and an http(s) trackingUrl.",
        params: orderIdParamsSchema,
        body: fulfilRequestSchema,
        response: { 200: dataEnvelope(orderActionResultSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const done = await orderAdmin.fulfil(req.ctx, req.params.orderId, req.body);
      if (!done.ok) return sendRefusal(reply, done);
      const { message, ...data } = done.value;
      return { data: { ...data, message }, message };
    },
  );

  app.post(
    `${BASE}/deliver`,
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders'],
        summary: 'Mark a shipped order as delivered (any other status is 409)',
        params: orderIdParamsSchema,
        body: z.strictObject({}).optional(),
        response: { 200: dataEnvelope(orderActionResultSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const done = await orderAdmin.deliver(req.ctx, req.params.orderId);
      if (!done.ok) return sendRefusal(reply, done);
      const { message, ...data } = done.value;
      return { data: { ...data, message }, message };
    },
  );

  app.post(
    `${BASE}/cancel`,
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders'],
        summary:
          'Cancel a placed or paid order: its stock comes back, what was captured is refunded, the shopper is emailed',
        description: 'A second cancel (or a shipped order) is 409 and releases nothing.',
        params: orderIdParamsSchema,
        body: orderCancelSchema,
        response: { 200: dataEnvelope(orderActionResultSchema), ...moneyErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const done = await orderAdmin.cancel(req.ctx, req.params.orderId, req.body);
      if (!done.ok) return sendRefusal(reply, done);
      const { message, ...data } = done.value;
      return { data: { ...data, message }, message };
    },
  );

  app.post(
    `${BASE}/refund`,
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders'],
        summary:
          'Refund all or part of an order (by lines, shipping and/or an amount) through the provider that took it',
        description:
          'Never more than captured in total: 422 REFUND_EXCEEDS_CAPTURED naming `amount` (or `lines`, `shipping`). ' +
          'A refused refund is 422 REFUND_DECLINED; a provider that cannot be reached is 502 and the refund waits as pending.',
        params: orderIdParamsSchema,
        body: refundRequestSchema,
        response: { 200: dataEnvelope(orderActionResultSchema), ...moneyErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const done = await orderAdmin.refund(req.ctx, req.params.orderId, req.body);
      if (!done.ok) return sendRefusal(reply, done);
      const { message, ...data } = done.value;
      return { data: { ...data, message }, message };
    },
  );

  app.post(
    `${BASE}/refunds/:refundId/retry`,
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders'],
        summary: 'Ask the provider again about a pending refund (same idempotency key: it is never made twice)',
        params: orderRefundParamsSchema,
        body: z.strictObject({}).optional(),
        response: { 200: dataEnvelope(orderActionResultSchema), ...moneyErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const done = await orderAdmin.retry(req.ctx, req.params.orderId, req.params.refundId);
      if (!done.ok) return sendRefusal(reply, done);
      const { message, ...data } = done.value;
      return { data: { ...data, message }, message };
    },
  );

  app.get(
    `${BASE}/invoice.pdf`,
    {
      config: { permission: 'orders', costly: 'pdf' },
      schema: {
        tags: ['orders'],
        summary: "The order's invoice as a PDF (as the shopper's, with its refunds)",
        params: orderIdParamsSchema,
        response: {
          200: fileAnswer('The invoice (inline)', PDF, { binary: true }),
          ...changeErrors,
          ...costlyErrors,
        },
      },
    },
    async (req, reply) => {
      const pdf = await orderAdmin.invoice(req.ctx, req.params.orderId);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="invoice-${req.params.orderId}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf as never);
    },
  );
}
