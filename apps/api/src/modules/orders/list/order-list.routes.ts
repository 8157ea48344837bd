import { Readable } from 'node:stream';
import {
  dataEnvelope,
  errorEnvelopeSchema,
  ORDER_LIST_PAGE_MAX,
  orderListFilterSchema,
  orderListPageSchema,
  orderListQuerySchema,
  orderViewCreateSchema,
  orderViewSchema,
} from '@app/contracts';
import { z } from 'zod';
import { CSV, fileAnswer } from '../../../lib/api-docs';
import type { App } from '../../../lib/app-types';
import { changeErrors, tenantErrors } from '../../../lib/app-types';
import { sendRefusal } from '../../../plugins/errors';
import type { OrderListService } from './order-list.service';

const owner = { ...tenantErrors, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };

/**
 * The dashboard's orders list, its CSV export and the staff member's saved views (decision 042); the orders permission. The order page and its actions are the orders module's.
 */
export async function orderListRoutes(app: App, { orderList }: { orderList: OrderListService }) {
  app.get(
    '/api/v1/orders',
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders admin'],
        summary: "The store's orders for the dashboard, newest first, filtered and searched",
        description:
          'q finds an order id or an email (exact or by its beginning, any case) or a customer (part of the ' +
          'account name or the ship-to name). Filters: status (several, comma-separated or repeated), payment ' +
          '(pending, paid, partially_refunded, refunded, voided), fulfilment (unfulfilled, shipped, delivered), ' +
          'from and to (placed dates, UTC, inclusive), totalMin and totalMax (decimals in the store currency). ' +
          `Sort newest, oldest, total-high, total-low. Pages of at most ${ORDER_LIST_PAGE_MAX}: pass nextCursor ` +
          '(or prevCursor) as cursor. Needs the orders permission.',
        querystring: orderListQuerySchema,
        response: { 200: dataEnvelope(orderListPageSchema), ...owner },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await orderList.list(req.ctx, req.query) };
    },
  );

  app.get(
    '/api/v1/orders/export.csv',
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders admin'],
        summary: 'The (filtered) orders list as CSV, streamed',
        description:
          'The same filters and sort as the list; every matching order. Amounts are decimals in the order ' +
          'currency. UTF-8 with a BOM. Needs the orders permission.',
        querystring: orderListFilterSchema,
        response: { 200: fileAnswer('The orders as CSV (attachment)', CSV), ...owner },
      },
    },
    async (req, reply) => {
      // A bad amount is refused here, before the first byte of the file.
      const filter = await orderList.resolve(req.ctx, req.query);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="orders-${day}.csv"`)
        .header('cache-control', 'private, no-store')
        .send(Readable.from(orderList.exportCsv(req.ctx, filter)) as never);
    },
  );

  app.get(
    '/api/v1/order-views',
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders admin'],
        summary: "The signed-in staff member's saved views of the orders list",
        response: { 200: dataEnvelope(z.array(orderViewSchema)), ...owner },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await orderList.views(req.ctx) };
    },
  );

  app.post(
    '/api/v1/order-views',
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders admin'],
        summary: 'Saves a named set of the orders list filters for the signed-in staff member',
        description: 'Names are unique per staff member (any case); at most 20 views each. Audited.',
        body: orderViewCreateSchema,
        response: { 201: dataEnvelope(orderViewSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      const saved = await orderList.createView(req.ctx, req.body);
      if (!saved.ok) return sendRefusal(reply, saved);
      return reply.code(201).send({ data: saved.value });
    },
  );

  app.delete(
    '/api/v1/order-views/:viewId',
    {
      config: { permission: 'orders' },
      schema: {
        tags: ['orders admin'],
        summary: "Deletes one of the signed-in staff member's saved views",
        params: z.object({ viewId: z.string().min(1).max(64) }),
        response: { 204: z.null(), ...changeErrors },
      },
    },
    async (req, reply) => {
      await orderList.deleteView(req.ctx, req.params.viewId);
      return reply.code(204).send(null);
    },
  );
}
