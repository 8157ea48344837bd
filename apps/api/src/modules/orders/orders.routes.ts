import {
  dataEnvelope,
  errorEnvelopeSchema,
  orderHistoryQuerySchema,
  orderSchema,
  orderStatusQuerySchema,
  orderSummarySchema,
  reorderRequestSchema,
  reorderResultSchema,
} from '@app/contracts';
import { z } from 'zod';
import { requireSignedIn } from '../../lib/access';
import { fileAnswer, PDF } from '../../lib/api-docs';
import type { App } from '../../lib/app-types';
import { costlyErrors, tenantErrors } from '../../lib/app-types';
import { signedInUser } from '../../lib/context';
import type { CartService } from '../cart/index';
import type { StoreService } from '../store/index';
import { invoiceData } from './invoice-data';
import type { InvoiceRenderer } from './invoice-pdf-pool';
import type { OrdersService } from './orders.service';

const BASE = '/skulocity/api/v1';
const errors = { ...tenantErrors, 401: errorEnvelopeSchema } as const;

/** Order history, one order, and its PDF invoice; paths as the existing clients call them. */
export async function ordersRoutes(
  app: App,
  {
    orders,
    store,
    cart,
    invoices,
  }: { orders: OrdersService; store: StoreService; cart: CartService; invoices: InvoiceRenderer },
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
      const pdf = await invoices.render(invoiceData(order, details, req.ctx.hostName));
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="invoice-${order.orderId}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf as never);
    },
  );

  app.post(
    `${BASE}/ecommerce/order/reorder`,
    {
      config: { signedIn: true },
      schema: {
        tags: ['orders'],
        summary: "Buy again: the lines of one of the shopper's orders, into their cart",
        description:
          "At today's prices. A line whose product is gone, sold out or short of the quantity, or that had options " +
          "(they must be chosen again), is skipped and named in `skipped`. Another shopper's order is a 404.",
        body: reorderRequestSchema,
        response: { 200: dataEnvelope(reorderResultSchema), ...errors },
      },
    },
    async (req) => {
      const user = requireSignedIn(req.ctx);
      const order = await orders.read(req.ctx, req.body.orderId, { userId: user.userId });
      const { message, ...data } = await cart.reorder(req.ctx, { userId: user.userId, guestToken: null }, order.lines);
      return { data, message };
    },
  );
}
