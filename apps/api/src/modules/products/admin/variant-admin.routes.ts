import {
  dataEnvelope,
  errorEnvelopeSchema,
  productIdParamsSchema,
  productOptionsInputSchema,
  productVariantParamsSchema,
  productVariantsViewSchema,
  productVariantWriteSchema,
  variantDeleteResultSchema,
} from '@app/contracts';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../../lib/app-types';
import { changeErrors } from '../../../lib/app-types';
import { AppError } from '../../../lib/errors';
import { sendRefusal } from '../../../plugins/errors';
import type { VariantAdminService } from './variant-admin.service';

const BASE = '/skulocity/api/v1/catalog/products/:productId';
const WHO =
  "The owner and staff with the catalog permission; a visitor gets 401, a shopper 403; another store's product or a variant of another product is 404 (before the body is read).";
const notFound = { 404: errorEnvelopeSchema };

/** The owner's variant paths (decision 112): options whole, variants one at a time. */
export async function variantAdminRoutes(app: App, { variantAdmin }: { variantAdmin: VariantAdminService }) {
  // Who may act, and on what, before what is sent is judged.
  const guard = async (req: FastifyRequest, _reply: unknown, payload: unknown) => {
    const { productId, variantId } = req.params as { productId: string; variantId?: string };
    await variantAdmin.assertVariant(req.ctx, productId, variantId);
    return payload;
  };

  app.get(
    `${BASE}/variants`,
    {
      config: { permission: 'catalog' },
      schema: {
        tags: ['catalog'],
        summary: "A product's options and variants, as the editor's grid shows them",
        description: WHO,
        params: productIdParamsSchema,
        response: { 200: dataEnvelope(productVariantsViewSchema), ...changeErrors, ...notFound },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      const view = await variantAdmin.view(req.ctx, req.params.productId);
      if (!view) throw AppError.notFound('This product does not exist.');
      return { data: view };
    },
  );

  app.put(
    `${BASE}/options`,
    {
      config: { permission: 'catalog' },
      preParsing: guard,
      schema: {
        tags: ['catalog'],
        summary: "Sets a product's options (at most three) and their values, in order",
        description:
          `${WHO} Options are matched by optionId, else by name; values by valueId (one of that option's, else 422), ` +
          'else by label, in the order sent, or by `position` when every option has one (as the GET answers them): ' +
          'options and values may be reordered (the variants follow). Options as read, sent back, change nothing. Every live ' +
          "variant takes a new option's first value. A value or option that live variants still use cannot go (409 naming them).",
        params: productIdParamsSchema,
        body: productOptionsInputSchema,
        response: { 200: dataEnvelope(productVariantsViewSchema), ...changeErrors, ...notFound },
      },
    },
    async (req, reply) => {
      const saved = await variantAdmin.writeOptions(req.ctx, req.params.productId, req.body);
      if (!saved.ok) return sendRefusal(reply, saved);
      return reply.header('cache-control', 'private, no-store').send({ data: saved.value });
    },
  );

  app.post(
    `${BASE}/variants`,
    {
      config: { permission: 'catalog' },
      preParsing: guard,
      schema: {
        tags: ['catalog'],
        summary:
          'Adds a variant: one value per option (labels or value ids, in order), its SKU, prices, stock and pictures',
        description:
          `${WHO} Prices are minor units. A SKU another live variant holds, or a combination a live variant has, ` +
          'is 409 naming that variant; a combination a removed variant had brings that variant back with its history. ' +
          "A value that is not one of its option's is 422. `stock` is the first count. The values are labels " +
          '(`values`) or the ids the GET answers (`valueIds`), one of the two.',
        params: productIdParamsSchema,
        body: productVariantWriteSchema,
        response: { 201: dataEnvelope(productVariantsViewSchema), ...changeErrors, ...notFound },
      },
    },
    async (req, reply) => {
      const saved = await variantAdmin.addVariant(req.ctx, req.params.productId, req.body);
      if (!saved.ok) return sendRefusal(reply, saved);
      return reply
        .code(201)
        .header('cache-control', 'private, no-store')
        .header(
          'location',
          `/skulocity/api/v1/catalog/products/${req.params.productId}/variants/${saved.value.variantId}`,
        )
        .send({ data: saved.value.view });
    },
  );

  app.put(
    `${BASE}/variants/:variantId`,
    {
      config: { permission: 'catalog' },
      preParsing: guard,
      // A variant as the GET answers it can be sent back: its read-only fields are taken when unchanged.
      preValidation: async (req) => {
        const { productId, variantId } = req.params as { productId: string; variantId: string };
        req.body = (await variantAdmin.writeBackVariant(req.ctx, productId, variantId, req.body)) as typeof req.body;
      },
      schema: {
        tags: ['catalog'],
        summary: 'Changes a variant whole: values, SKU, barcode, prices, weight, enabled, pictures, stock',
        description:
          `${WHO} \`stock\` with \`stockSeen\` (the count the form showed) is saved as an adjustment by the difference, ` +
          'so a sale meanwhile is not undone. A SKU or combination another live variant holds is 409 naming it; ' +
          'a removed variant is 422. The values are labels (`values`) or ids (`valueIds`), so a variant as the GET ' +
          'answers it can be sent back: productId, title and removed are read-only (taken as read, else 400 naming ' +
          'the field). A write that changes nothing writes nothing (no audit entry).',
        params: productVariantParamsSchema,
        body: productVariantWriteSchema,
        response: { 200: dataEnvelope(productVariantsViewSchema), ...changeErrors, ...notFound },
      },
    },
    async (req, reply) => {
      const saved = await variantAdmin.updateVariant(req.ctx, req.params.productId, req.params.variantId, req.body);
      if (!saved.ok) return sendRefusal(reply, saved);
      return reply.header('cache-control', 'private, no-store').send({ data: saved.value });
    },
  );

  app.delete(
    `${BASE}/variants/:variantId`,
    {
      config: { permission: 'catalog' },
      preParsing: guard,
      schema: {
        tags: ['catalog'],
        summary: 'Deletes a variant never sold nor moved; one with history is emptied and kept as removed',
        description: `${WHO} The last live variant of a product cannot go (409): archive the product instead.`,
        params: productVariantParamsSchema,
        response: { 200: dataEnvelope(variantDeleteResultSchema), ...changeErrors, ...notFound },
      },
    },
    async (req, reply) => {
      const done = await variantAdmin.removeVariant(req.ctx, req.params.productId, req.params.variantId);
      if (!done.ok) return sendRefusal(reply, done);
      return reply.header('cache-control', 'private, no-store').send({ data: done.value });
    },
  );
}
