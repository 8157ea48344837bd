import {
  dataEnvelope,
  errorEnvelopeSchema,
  MEDIA_UPLOAD_MAX_BYTES,
  mediaAltTextSchema,
  mediaUploadResultSchema,
  PRODUCT_CONTENT_MAX_BYTES,
  productDeleteResultSchema,
  productDuplicateInputSchema,
  productEditorInputSchema,
  productEditorViewSchema,
  productIdParamsSchema,
} from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../../lib/app-types';
import { changeErrors, costlyErrors } from '../../../lib/app-types';
import { AppError } from '../../../lib/errors';
import { sendRefusal } from '../../../plugins/errors';
import type { ProductAdminService } from './product-admin.service';

const BASE = '/skulocity/api/v1/catalog/products';
const WHO =
  "The owner and staff with the catalog permission; a visitor gets 401, a shopper 403; another store's product is 404.";
const notFound = { 404: errorEnvelopeSchema };

/** The product editor's API, in the style of the clients' catalog paths. */
export async function productAdminRoutes(app: App, { productAdmin }: { productAdmin: ProductAdminService }) {
  app.get(
    `${BASE}/:productId`,
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog'],
        summary: 'A product as the editor shows it: fields, pictures, features, options, related products, downloads',
        description: WHO,
        params: productIdParamsSchema,
        response: { 200: dataEnvelope(productEditorViewSchema), ...changeErrors, ...notFound },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      const view = await productAdmin.view(req.ctx, req.params.productId);
      if (!view) throw AppError.notFound('This product does not exist.');
      return { data: view };
    },
  );

  app.post(
    BASE,
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog'],
        summary: 'Creates a product (with pictures, features, options, related products and first stock)',
        description: `${WHO} Prices are minor units. A taken slug or SKU is 409 naming the field; an unknown category, picture or related product 422.`,
        body: productEditorInputSchema,
        response: { 201: dataEnvelope(productEditorViewSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      const saved = await productAdmin.save(req.ctx, null, req.body);
      if (!saved.ok) return sendRefusal(reply, saved);
      return reply.code(201).header('cache-control', 'private, no-store').send({ data: saved.value });
    },
  );

  app.put(
    `${BASE}/:productId`,
    {
      config: { permission: 'catalog' },
      // Another store's product is 404 whatever the body (who may act comes before what is sent).
      preParsing: async (req, _reply, payload) => {
        await productAdmin.assertProduct(req.ctx, (req.params as { productId: string }).productId);
        return payload;
      },
      // What the read answers can be written back: its flat shape becomes a patch of the write's.
      preValidation: async (req) => {
        const { productId } = req.params as { productId: string };
        req.body = (await productAdmin.writeBackBody(req.ctx, productId, req.body)) as typeof req.body;
      },
      schema: {
        tags: ['catalog'],
        summary: 'Updates a product; lists that are absent (images, features, options, related) stay as they are',
        description:
          `${WHO} Two shapes. The editor's: \`fields\` replaces the product's own fields whole (a field left out of it ` +
          "is cleared or defaulted), lists left out stay as they are. The read's (the `data` of the GET, flat): a patch, " +
          'fields left out keep their values; images, options and `related` as read; productId, productType, ' +
          'stockQuantity, contents, hasOrders and updatedAt are read-only (taken as read, else 400 naming the field). ' +
          'A write that changes nothing writes nothing (no audit entry, updatedAt kept). ' +
          'A changed slug keeps the old address as a redirect. initialStock is ignored (stock changes through the inventory).',
        params: productIdParamsSchema,
        body: productEditorInputSchema,
        response: { 200: dataEnvelope(productEditorViewSchema), ...changeErrors, ...notFound },
      },
    },
    async (req, reply) => {
      const saved = await productAdmin.save(req.ctx, req.params.productId, req.body);
      if (!saved.ok) return sendRefusal(reply, saved);
      return { data: saved.value };
    },
  );

  app.post(
    `${BASE}/:productId/duplicate`,
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog'],
        summary: 'Copies a product as a DRAFT named "Copy of …", with a new SKU (given, or the original\'s with -COPY)',
        description: WHO,
        params: productIdParamsSchema,
        body: productDuplicateInputSchema.optional(),
        response: { 201: dataEnvelope(productEditorViewSchema), ...changeErrors, ...notFound },
      },
    },
    async (req, reply) => {
      const copy = await productAdmin.duplicate(req.ctx, req.params.productId, { sku: req.body?.sku });
      if (!copy.ok) return sendRefusal(reply, copy);
      return reply.code(201).header('cache-control', 'private, no-store').send({ data: copy.value });
    },
  );

  app.delete(
    `${BASE}/:productId`,
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog'],
        summary: 'Deletes a product; one that orders name is archived instead (outcome says which)',
        description: WHO,
        params: productIdParamsSchema,
        response: { 200: dataEnvelope(productDeleteResultSchema), ...changeErrors, ...notFound },
      },
    },
    async (req) => ({ data: await productAdmin.remove(req.ctx, req.params.productId) }),
  );

  app.post(
    `${BASE}/images/upload`,
    {
      config: {
        permission: 'catalog',
        costly: 'upload',
        multipartOptions: {
          limits: { files: 1, fileSize: MEDIA_UPLOAD_MAX_BYTES + 1, fields: 4, parts: 5 },
          throwFileSizeLimit: false,
        },
      },
      schema: {
        tags: ['catalog'],
        summary:
          "Uploads a product picture into the store's media library (the media upload, with the catalog permission)",
        description: `${WHO} Checked by content, re-encoded to WebP, resized; 413 too large, 415 not a picture.`,
        consumes: ['multipart/form-data'],
        body: z.object({ file: z.any().describe('The picture (binary)'), altText: mediaAltTextSchema.optional() }),
        response: {
          200: dataEnvelope(mediaUploadResultSchema),
          ...changeErrors,
          ...costlyErrors,
          413: errorEnvelopeSchema,
          415: errorEnvelopeSchema,
        },
      },
    },
    async (req, reply) => {
      const file = req.body.file;
      if (!Buffer.isBuffer(file)) {
        throw AppError.field(400, 'VALIDATION_FAILED', 'file', 'choose a picture to upload (multipart field "file").');
      }
      reply.header('cache-control', 'private, no-store');
      return { data: await productAdmin.uploadImage(req.ctx, file, req.body.altText) };
    },
  );

  app.post(
    `${BASE}/:productId/contents`,
    {
      config: {
        permission: 'catalog',
        multipartOptions: {
          limits: { files: 1, fileSize: PRODUCT_CONTENT_MAX_BYTES + 1, fields: 4, parts: 5 },
          throwFileSizeLimit: false,
        },
      },
      schema: {
        tags: ['catalog'],
        summary: 'Adds a downloadable file (PDF or ZIP, told by its bytes) to a product',
        description: `${WHO} Over ${PRODUCT_CONTENT_MAX_BYTES / 1024 / 1024} MB: 413; not a PDF or ZIP: 415.`,
        consumes: ['multipart/form-data'],
        params: productIdParamsSchema,
        body: z.object({
          file: z.any().describe('The file (binary)'),
          title: z.string().trim().max(120, 'title is longer than 120 characters').optional(),
          /** The name shoppers download it as (multipart parts carry no trusted name). */
          fileName: z.string().trim().max(200, 'fileName is longer than 200 characters').optional(),
        }),
        response: {
          200: dataEnvelope(productEditorViewSchema),
          ...changeErrors,
          ...notFound,
          413: errorEnvelopeSchema,
          415: errorEnvelopeSchema,
        },
      },
    },
    async (req) => {
      const file = req.body.file;
      if (!Buffer.isBuffer(file)) {
        throw AppError.field(400, 'VALIDATION_FAILED', 'file', 'choose a file to upload (multipart field "file").');
      }
      return {
        data: await productAdmin.addContent(req.ctx, req.params.productId, file, {
          fileName: req.body.fileName ?? '',
          title: req.body.title ?? '',
        }),
      };
    },
  );

  app.delete(
    `${BASE}/:productId/contents/:contentId`,
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog'],
        summary: 'Removes a downloadable file from a product',
        description: WHO,
        params: z.strictObject({
          productId: productIdParamsSchema.shape.productId,
          contentId: z.string().regex(/^[0-9a-f]{24}$/, 'contentId is not a download of this product'),
        }),
        response: { 200: dataEnvelope(productEditorViewSchema), ...changeErrors, ...notFound },
      },
    },
    async (req) => ({ data: await productAdmin.removeContent(req.ctx, req.params.productId, req.params.contentId) }),
  );
}
