import {
  bannerIdParamsSchema,
  bannerInputSchema,
  bannerPatchSchema,
  bannersDraftBodySchema,
  bannersReorderSchema,
  bannersStoreQuerySchema,
  bannersWorkingSchema,
  dataEnvelope,
} from '@app/contracts';
import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import { z } from 'zod';
import type { App } from '../../lib/app-types';
import { changeErrors } from '../../lib/app-types';
import { sendRefusal } from '../../plugins/errors';
import type { BannersService } from './banners.service';

const DRAFT_NOTE =
  'Changes are saved as the banners draft; shoppers see them after POST /api/v1/drafts/banners/{productStoreId}/publish. ' +
  'Needs the settings permission.';

/**
 * The owner's banner writes, in the style of the clients' `GET /api/v1/product/banner/fetch` (which
 * stays the public read). Each edits the store's one banners draft; publish, discard, versions and
 * restore are the generic draft routes (`/api/v1/drafts/banners/{productStoreId}/...`).
 */
export async function bannersRoutes(app: App, { banners }: { banners: BannersService }) {
  const working = { 200: dataEnvelope(bannersWorkingSchema), ...changeErrors };
  const noStore = { 'cache-control': 'private, no-store' };
  // Who asks (onRequest), the store and the banner are checked before the body is read: another
  // store's owner gets 401/403/404 whatever the body.
  const targetFirst = async (req: FastifyRequest, _reply: FastifyReply, payload: RequestPayload) => {
    const { productStoreId } = (req.query ?? {}) as { productStoreId?: unknown };
    const { id } = (req.params ?? {}) as { id?: unknown };
    await banners.assertTarget(
      req.ctx,
      typeof productStoreId === 'string' ? productStoreId : undefined,
      typeof id === 'string' ? id : undefined,
    );
    return payload;
  };

  app.get(
    '/api/v1/product/banner/draft',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['store'],
        summary: "The banners the owner edits: the store's draft if there is one, else the published list",
        querystring: bannersStoreQuerySchema,
        response: working,
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await banners.working(req.ctx, req.query.productStoreId) };
    },
  );

  app.put(
    '/api/v1/product/banner/draft',
    {
      config: { permission: 'settings' },
      preParsing: targetFirst,
      schema: {
        tags: ['store'],
        summary: 'Replace the banners draft with this ordered list (banners without a bannerId are new)',
        description:
          'A full replace of the list. What `GET /api/v1/product/banner/draft` answers can be sent back as it is ' +
          "(productStoreId, isDraft and each banner's imageUrl are read-only: taken when as read, else a 400 " +
          'naming them); a list equal to the working one saves nothing and answers it as it stands. ' +
          DRAFT_NOTE,
        querystring: bannersStoreQuerySchema,
        body: bannersDraftBodySchema,
        response: working,
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const { banners: list, ...readOnly } = req.body;
      return { data: await banners.replace(req.ctx, list, req.query.productStoreId, readOnly) };
    },
  );

  app.post(
    '/api/v1/product/banner/create',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['store'],
        summary: 'Add a banner at the end of the banners draft',
        description: DRAFT_NOTE,
        querystring: bannersStoreQuerySchema,
        body: bannerInputSchema,
        response: {
          200: dataEnvelope(z.object({ bannerId: z.string(), working: bannersWorkingSchema })),
          ...changeErrors,
        },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const added = await banners.add(req.ctx, req.body, req.query.productStoreId);
      if (!added.ok) return sendRefusal(reply, added);
      return { data: added.value };
    },
  );

  app.put(
    '/api/v1/product/banner/update/:id',
    {
      config: { permission: 'settings' },
      preParsing: targetFirst,
      schema: {
        tags: ['store'],
        summary: 'Change one banner of the banners draft (without mediaId it keeps its picture)',
        description:
          'A patch: fields left out keep their values. A banner as the draft read lists it can be sent back as ' +
          'it is (bannerId and imageUrl are read-only); a write that changes nothing saves nothing. ' +
          DRAFT_NOTE,
        params: bannerIdParamsSchema,
        querystring: bannersStoreQuerySchema,
        body: bannerPatchSchema,
        response: working,
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await banners.update(req.ctx, req.params.id, req.body, req.query.productStoreId) };
    },
  );

  app.delete(
    '/api/v1/product/banner/delete/:id',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['store'],
        summary: 'Remove one banner from the banners draft',
        description: DRAFT_NOTE,
        params: bannerIdParamsSchema,
        querystring: bannersStoreQuerySchema,
        response: working,
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await banners.remove(req.ctx, req.params.id, req.query.productStoreId) };
    },
  );

  app.post(
    '/api/v1/product/banner/reorder',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['store'],
        summary: 'Put the banners draft in this order (every bannerId once)',
        description: DRAFT_NOTE,
        querystring: bannersStoreQuerySchema,
        body: bannersReorderSchema,
        response: working,
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await banners.reorder(req.ctx, req.body.bannerIds, req.query.productStoreId) };
    },
  );
}
