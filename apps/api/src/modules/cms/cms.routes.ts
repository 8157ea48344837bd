import {
  cmsFetchQuerySchema,
  cmsPageIdSchema,
  cmsPageInputSchema,
  cmsPageSchema,
  cmsSavedSchema,
  dataEnvelope,
  productStoreQuerySchema,
} from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../lib/app-types';
import { changeErrors, tenantErrors } from '../../lib/app-types';
import { hasPermission } from '../../lib/context';
import type { PublicReadCache } from '../../lib/public-cache';
import { sendPublic } from '../../lib/public-cache';
import { sendRefusal } from '../../plugins/errors';
import { storeIdFor } from '../../plugins/tenancy';
import type { TenantService } from '../tenant/index';
import type { CmsService } from './cms.service';

interface Deps {
  cms: CmsService;
  tenants: TenantService;
  cache: PublicReadCache;
}

/** CMS pages: public reads, and the owner's drafts (decision 034). */
export async function cmsRoutes(app: App, { cms, tenants, cache }: Deps) {
  app.get(
    '/api/v1/cms/fetch',
    {
      schema: {
        tags: ['cms'],
        summary: 'Content pages: all, those flagged pageLink, or one by pageUrl (with its content)',
        description:
          'Shoppers get published pages. The owner (settings permission) gets drafts too, each with its status.',
        querystring: cmsFetchQuerySchema.extend(productStoreQuerySchema.shape),
        response: { 200: dataEnvelope(z.array(cmsPageSchema)), ...tenantErrors },
      },
    },
    async (req, reply) => {
      const ctx = req.ctx;
      const { pageUrl, pageLink, productStoreId } = req.query;
      const id = await storeIdFor(ctx, tenants, productStoreId);
      if (hasPermission(ctx, 'settings')) {
        // Drafts are the owner's alone: never through the shared cache, never kept by a browser.
        reply.header('cache-control', 'private, no-store');
        return { data: await cms.ownerPages(ctx, id, { pageUrl, pageLink }) };
      }
      const entry = await cache.get(ctx.tenantId, `cms:${id}:${pageUrl ?? ''}:${pageLink ?? ''}`, async () => ({
        data: await cms.storefrontPages({ ...ctx, preview: false }, id, { pageUrl, pageLink }),
      }));
      return sendPublic(req, reply, entry);
    },
  );

  app.post(
    '/api/v1/cms/create',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['cms'],
        summary: 'Create a page as a draft (publish it with POST /api/v1/drafts/page/{id}/publish)',
        body: cmsPageInputSchema,
        response: { 201: dataEnvelope(cmsSavedSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      const saved = await cms.save(req.ctx, null, req.body);
      if (!saved.ok) return sendRefusal(reply, saved);
      return reply.code(201).send({ data: saved.value });
    },
  );

  app.put(
    '/api/v1/cms/update/:id',
    {
      config: { permission: 'settings' },
      // Who asks (onRequest) and the page are checked before the body is read: another store's
      // page is a 404 whatever the body. The patch is laid over the working page, then validated whole.
      preParsing: async (req, _reply, payload) => {
        await cms.assertPage(req.ctx, (req.params as { id: string }).id);
        return payload;
      },
      preValidation: async (req) => {
        req.body = (await cms.updateBody(req.ctx, (req.params as { id: string }).id, req.body)) as typeof req.body;
      },
      schema: {
        tags: ['cms'],
        summary: "Save changes to a page as its draft; shoppers keep the published page until it's published",
        description:
          'A patch: fields left out keep their values. What `GET /api/v1/cms/fetch` answers for the page can be ' +
          'sent back as it is (id, productStoreId, status and updatedAt are read-only: taken when as read, else a ' +
          '400 naming them). A write that changes nothing saves nothing and answers the page as it stands.',
        params: cmsPageIdSchema,
        body: cmsPageInputSchema,
        response: { 200: dataEnvelope(cmsSavedSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      const saved = await cms.save(req.ctx, req.params.id, req.body);
      if (!saved.ok) return sendRefusal(reply, saved);
      return { data: saved.value };
    },
  );

  app.delete(
    '/api/v1/cms/delete/:id',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['cms'],
        summary: 'Delete a page: the live page and its draft',
        description: 'The existing clients call no delete path; this one sits beside create and update (decision 034).',
        params: cmsPageIdSchema,
        response: { 204: z.null(), ...changeErrors },
      },
    },
    async (req, reply) => {
      await cms.remove(req.ctx, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
