import {
  dataEnvelope,
  errorEnvelopeSchema,
  orderHistoryQuerySchema,
  orderSchema,
  orderStatusQuerySchema,
  orderSummarySchema,
} from '@app/contracts';
import { z } from 'zod';
import { requireSignedIn } from '../../lib/access';
import { fileAnswer, PDF } from '../../lib/api-docs';
import type { App } from '../../lib/app-types';
import { costlyErrors, tenantErrors } from '../../lib/app-types';
import { signedInUser } from '../../lib/context';
import type { StoreService } from '../store/index';
import { type InvoiceRenderer, invoiceData } from './invoice/index';
import type { OrdersService } from './orders.service';

const BASE = '/skulocity/api/v1';
const errors = { ...tenantErrors, 401: errorEnvelopeSchema } as const;

/** Order history, one order, and its PDF invoice; paths as the existing clients call them. */
export async function ordersRoutes(
  app: App,
  { orders, store, invoices }: { orders: OrdersService; store: StoreService; invoices: InvoiceRenderer },
) {
  app.get(
    `${BASE}/ecommerce/order/history`,
    {
      config: { signedIn: true },
      schema: {
        tags: ['orders'],
        summary: "The signed-in shopper's orders, newest first, 10 a page",
        querystring: orderHistoryQuerySchema,
        response: {
          200: dataEnvelope(
            z.object({
              orders: z.array(orderSummarySchema),
              total: z.number().int(),
              page: z.number().int(),
              pageSize: z.number().int(),
            }),
          ),
          ...errors,
        },
      },
    },
    async (req, reply) => {
      const user = requireSignedIn(req.ctx);
      reply.header('cache-control', 'private, no-store');
      return { data: await orders.history(req.ctx, user.userId, req.query.page) };
    },
  );

  app.get(
    `${BASE}/ecommerce/order/status`,
    {
      schema: {
        tags: ['orders'],
        summary: 'One order: lines, address, payment, shipping, status history',
        description:
          "The shopper's own order, or, for a guest, the order its signed link names (`key`). Anyone else gets 404.",
        querystring: orderStatusQuerySchema,
        response: { 200: dataEnvelope(orderSchema), ...errors },
      },
    },
    async (req, reply) => {
      const user = signedInUser(req.ctx);
      reply.header('cache-control', 'private, no-store');
      return {
        data: await orders.read(req.ctx, req.query.orderId, { userId: user?.userId ?? null, key: req.query.key }),
      };
    },
  );

  app.get(
    `${BASE}/ecommerce/order/order/pdf`,
    {
      config: { costly: 'pdf' },
      schema: {
        tags: ['orders'],
        summary: "The order's invoice as a PDF, for its owner (or its signed link)",
        description: 'Each store renders a few invoices at once; past that the answer is 429 with Retry-After.',
        querystring: orderStatusQuerySchema,
        response: { 200: fileAnswer('The invoice (attachment)', PDF, { binary: true }), ...errors, ...costlyErrors },
      },
    },
    async (req, reply) => {
      const user = signedInUser(req.ctx);
      const order = await orders.read(req.ctx, req.query.orderId, {
        userId: user?.userId ?? null,
        key: req.query.key,
      });
      const details = await store.details(req.ctx, req.ctx.productStoreId);
      const pdf = await invoices.render(
        invoiceData(order, details, req.ctx.hostName, await invoices.taxNumber(req.ctx)),
      );
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="invoice-${order.orderId}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf as never);
    },
  );
}
