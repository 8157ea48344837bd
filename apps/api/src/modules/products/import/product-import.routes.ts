import { Readable } from 'node:stream';
import {
  dataEnvelope,
  errorEnvelopeSchema,
  PRODUCT_IMPORT_MAX_BYTES,
  productCsvTemplate,
  productImportIdSchema,
  productImportSchema,
} from '@app/contracts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CSV, fileAnswer } from '../../../lib/api-docs';
import type { App } from '../../../lib/app-types';
import { changeErrors } from '../../../lib/app-types';
import type { ProductImportService } from './product-import.service';

const BASE = '/skulocity/api/v1/catalog/products/import';
const MB = PRODUCT_IMPORT_MAX_BYTES / 1024 / 1024;
const params = z.object({ importId: productImportIdSchema });

/**
 * The product CSV import's API, the catalog permission. The file is the request body
 * itself (text/csv), streamed to disk as it arrives: no multipart buffering, memory flat at any size.
 */
export async function productImportRoutes(app: App, { imports }: { imports: ProductImportService }) {
  await app.register(async (plain) => {
    const scoped = plain.withTypeProvider<ZodTypeProvider>();
    // The body stays a stream for the handler; the size limit is counted while it is written.
    scoped.addContentTypeParser(['text/csv', 'application/csv', 'application/octet-stream'], (_req, payload, done) =>
      done(null, payload),
    );
    scoped.post(
      BASE,
      {
        config: {
          permission: 'catalog',
          // A declared length over the limit is refused before a byte is read (input-guards); a
          // chunked body is counted as it streams (the service).
          maxBodyBytes: PRODUCT_IMPORT_MAX_BYTES,
          tooLargeMessage: `file: The file is larger than ${MB} MB; split it in parts.`,
        },
        schema: {
          tags: ['catalog'],
          summary: 'Uploads a product CSV and dry-runs it (nothing is written)',
          description:
            `The body is the CSV file (Content-Type text/csv), at most ${MB} MB; \`fileName\` names it. The columns are ` +
            "the export's (product-csv.ts); sku, name and list_price are required. Answers 201 with the import and its " +
            'dry run: what would be created, updated (with the changed columns) and refused (row, column, message). ' +
            'A header with unknown or missing columns, or a file that is not CSV, is 422; a larger file 413.',
          querystring: z.object({ fileName: z.string().trim().max(200).optional() }),
          documentedBody: {
            description: 'The CSV file itself, as exported (UTF-8, a BOM allowed, a header row first).',
            content: { 'text/csv': z.string(), 'application/csv': z.string(), 'application/octet-stream': z.string() },
          },
          response: {
            201: dataEnvelope(productImportSchema),
            ...changeErrors,
            413: errorEnvelopeSchema,
            415: errorEnvelopeSchema,
            422: errorEnvelopeSchema,
          },
        },
      },
      async (req, reply) => {
        const body = req.body instanceof Readable ? req.body : Readable.from([]);
        const created = await imports.receive(req.ctx, body, req.query.fileName ?? 'products.csv').catch((err) => {
          // The rest of a too-large body is not read: the connection closes after the answer.
          if ((err as { statusCode?: number }).statusCode === 413) reply.header('connection', 'close');
          throw err;
        });
        reply.code(201).header('cache-control', 'private, no-store');
        return { data: created };
      },
    );
  });

  app.get(
    `${BASE}/template.csv`,
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog'],
        summary: 'A product CSV template: the header and one example row',
        response: { 200: fileAnswer('The template (attachment)', CSV), ...changeErrors },
      },
    },
    async (_req, reply) => {
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="products-template.csv"')
        .header('cache-control', 'private, no-store');
      return productCsvTemplate();
    },
  );

  app.get(
    `${BASE}/:importId`,
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog'],
        summary: 'An import: its dry run, and the run’s progress and counts',
        params,
        response: { 200: dataEnvelope(productImportSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await imports.get(req.ctx, req.params.importId) };
    },
  );

  app.post(
    `${BASE}/:importId/run`,
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog'],
        summary: 'Runs a dry-run import (a job): valid rows are applied, invalid rows change nothing',
        description: 'Answers 202 with the import; running it again answers the same run.',
        params,
        response: { 202: dataEnvelope(productImportSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.code(202);
      return { data: await imports.start(req.ctx, req.params.importId) };
    },
  );

  app.get(
    `${BASE}/:importId/errors.csv`,
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog'],
        summary: 'The run’s error report as CSV: row, sku, column, message',
        params,
        response: { 200: fileAnswer('The error report (attachment)', CSV), ...changeErrors },
      },
    },
    async (req, reply) => {
      const lines = imports.errorReport(req.ctx, req.params.importId);
      // The first line is the header: reading it checks the import exists before the 200 goes out.
      const first = await lines.next();
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="import-${req.params.importId}-errors.csv"`)
        .header('cache-control', 'private, no-store');
      return reply.send(
        Readable.from(
          (async function* () {
            if (!first.done) yield first.value;
            yield* lines;
          })(),
        ),
      );
    },
  );
}
