import { Readable } from 'node:stream';
import {
  adminProductQuerySchema,
  dataEnvelope,
  errorEnvelopeSchema,
  PRODUCT_BULK_INLINE_MAX,
  PRODUCT_LIST_PAGE_MAX,
  productBulkAnswerSchema,
  productBulkJobSchema,
  productBulkRequestSchema,
  productListFilterSchema,
  productListPageSchema,
} from '@app/contracts';
import { z } from 'zod';
import { CSV, fileAnswer } from '../../../lib/api-docs';
import type { App } from '../../../lib/app-types';
import { changeErrors, tenantErrors } from '../../../lib/app-types';
import { AppError } from '../../../lib/errors';
import type { ProductListService } from './product-list.service';

const owner = { ...tenantErrors, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };

/** The dashboard's product list, its bulk actions and its export (decision 036); the catalog permission. */
export async function productListRoutes(app: App, { productList }: { productList: ProductListService }) {
  app.get(
    '/api/v1/product-list',
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog admin'],
        summary: "The store's products for the dashboard (all statuses), filtered, searched and sorted",
        description:
          'q searches names, brands and descriptions (word prefixes), part of a name, or an exact SKU. Filters: ' +
          "category, brand, status (DRAFT, ACTIVE, ARCHIVED), stock (in, low: at or below the store's threshold, out). " +
          `Sort updated, name, price, stock or created, dir asc or desc. Pages of at most ${PRODUCT_LIST_PAGE_MAX}; ` +
          'pass nextCursor as cursor for the next page. Needs the catalog permission.',
        querystring: adminProductQuerySchema,
        response: { 200: dataEnvelope(productListPageSchema), ...owner },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await productList.list(req.ctx, req.query) };
    },
  );

  app.get(
    '/api/v1/product-list/export.csv',
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog admin'],
        summary: 'The (filtered) product list as CSV, streamed, in the product CSV format the import reads',
        description: 'The same filters and sort as the list. UTF-8 with a BOM. Needs the catalog permission.',
        querystring: productListFilterSchema,
        response: { 200: fileAnswer('The products as CSV (attachment)', CSV), ...owner },
      },
    },
    async (req, reply) => {
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="products-${day}.csv"`)
        .header('cache-control', 'private, no-store')
        .send(Readable.from(productList.exportCsv(req.ctx, req.query)) as never);
    },
  );

  app.post(
    '/api/v1/product-list/bulk',
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog admin'],
        summary: 'A bulk action on chosen products or on the whole filtered list',
        description:
          'action: status, category.add, category.remove, price (list or sale; set, amount or percent in hundredths ' +
          'of a percent, rounded half away from zero), stock (delta or set, with a reason), delete (products with ' +
          `orders are archived instead). Up to ${PRODUCT_BULK_INLINE_MAX} products change at once (mode done); more ` +
          'run as a job (mode job: poll /api/v1/product-list/jobs/{jobId}). Needs the catalog permission.',
        body: productBulkRequestSchema,
        response: { 200: dataEnvelope(productBulkAnswerSchema), ...changeErrors, 401: errorEnvelopeSchema },
      },
    },
    async (req) => ({ data: await productList.bulk(req.ctx, req.body) }),
  );

  app.get(
    '/api/v1/product-list/jobs/:jobId',
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog admin'],
        summary: 'How far a bulk job is, and its result once done',
        params: z.object({ jobId: z.string().min(1).max(64) }),
        response: { 200: dataEnvelope(productBulkJobSchema), ...owner },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      const job = await productList.job(req.ctx, req.params.jobId);
      if (!job) throw AppError.notFound('No such bulk change in this store.');
      return { data: job };
    },
  );
}
