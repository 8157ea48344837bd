import { dataEnvelope, mainDataSchema } from '@app/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../../lib/app-types';
import { tenantErrors } from '../../lib/app-types';
import type { PublicReadCache } from '../../lib/public-cache';
import { sendPublic } from '../../lib/public-cache';
import { storeIdFor } from '../../plugins/tenancy';
import type { TenantService } from '../tenant/index';
import type { CatalogService } from './catalog.service';

interface Deps {
  catalog: CatalogService;
  tenants: TenantService;
  cache: PublicReadCache;
}

const mainBodySchema = z
  .strictObject({
    productStoreId: z.string().trim().max(32, 'productStoreId is longer than 32 characters').optional(),
  })
  // A POST with no body at all arrives as null: the host's store.
  .nullish();

export async function catalogRoutes(app: App, { catalog, tenants, cache }: Deps) {
  async function sendMain(req: FastifyRequest, reply: FastifyReply, requested?: string) {
    const ctx = req.ctx;
    const id = await storeIdFor(ctx, tenants, requested);
    const entry = await cache.get(
      ctx.tenantId,
      `main:${id}`,
      async () => ({ data: await catalog.mainData(ctx, id) }),
      ctx.origin,
    );
    return sendPublic(req, reply, entry);
  }

  app.post(
    '/skulocity/api/v1/public/ecommerce/main',
    {
      schema: {
        tags: ['catalog'],
        summary: "Main store data: the store's catalogs with their categories",
        description:
          'A multipart form (or JSON) with productStoreId; without it, the store of the host. ' +
          "A productStoreId of another tenant's store is refused.",
        consumes: ['multipart/form-data', 'application/json'],
        body: mainBodySchema,
        examples: { body: { productStoreId: '9000' } },
        response: { 200: dataEnvelope(mainDataSchema), ...tenantErrors },
      },
    },
    (req, reply) => sendMain(req, reply, req.body?.productStoreId || undefined),
  );

  app.get(
    '/skulocity/api/v1/public/ecommerce/categories',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Categories fetch: the catalogs and categories of the host store (no parameters)',
        description: 'No existing client calls this path; the answer has productStoreId and catalogCol.',
        response: { 200: dataEnvelope(mainDataSchema), ...tenantErrors },
      },
    },
    (req, reply) => sendMain(req, reply),
  );
}
