import {
  bannerSchema,
  countriesSchema,
  dataEnvelope,
  faqQuerySchema,
  faqsSchema,
  productStoreQuerySchema,
  seoMetaEntrySchema,
  storeConfigSchema,
  storeDetailsSchema,
  themeColorsSchema,
} from '@app/contracts';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { App } from '../../lib/app-types';
import { tenantErrors } from '../../lib/app-types';
import type { PublicReadCache } from '../../lib/public-cache';
import { sendPublic } from '../../lib/public-cache';
import { storeIdFor } from '../../plugins/tenancy';
import { COUNTRIES } from '../geo/index';
import type { TenantService } from '../tenant/index';
import { DEFAULT_THEME_COLORS, type StorePreview, type StoreService } from './store.service';

interface Deps {
  store: StoreService;
  tenants: TenantService;
  cache: PublicReadCache;
  /** Lays the owner's drafts over what is live, in preview only (decision 032); absent: always live. */
  preview?: StorePreview;
}

/** The owner's preview answers with drafts: computed for them alone, never from or into the shared cache. */
function sendPreview<T>(reply: FastifyReply, body: T) {
  reply.header('cache-control', 'private, no-store');
  return body;
}

/** Store reads the clients call; public, tenant-bound, cacheable (CMS pages: modules/cms). */
export async function storeRoutes(app: App, { store, tenants, cache, preview }: Deps) {
  app.get(
    '/api/v1/store/detail/fetch',
    {
      schema: {
        tags: ['store'],
        summary: 'Store details: template, theme, colours, logo, company, newsletter embed, chat',
        querystring: productStoreQuerySchema,
        response: { 200: dataEnvelope(storeDetailsSchema), ...tenantErrors },
      },
    },
    async (req, reply) => {
      const ctx = req.ctx;
      const id = await storeIdFor(ctx, tenants, req.query.productStoreId);
      if (ctx.preview && preview) {
        return sendPreview(reply, { data: await preview.details(ctx, await store.details(ctx, id)) });
      }
      const entry = await cache.get(
        ctx.tenantId,
        `details:${id}`,
        async () => ({ data: await store.details(ctx, id) }),
        ctx.origin,
      );
      return sendPublic(req, reply, entry);
    },
  );

  app.get(
    '/api/v1/store/config/fetch',
    {
      schema: {
        tags: ['store'],
        summary: 'Store configuration read at start-up: template, theme, themeColors, chat',
        description: 'No existing client calls this path; it sits beside the other store-service reads.',
        querystring: productStoreQuerySchema,
        response: { 200: dataEnvelope(storeConfigSchema), ...tenantErrors },
      },
    },
    async (req, reply) => {
      const ctx = req.ctx;
      const id = await storeIdFor(ctx, tenants, req.query.productStoreId);
      if (ctx.preview && preview) {
        return sendPreview(reply, { data: await preview.config(ctx, await store.config(ctx, id)) });
      }
      const entry = await cache.get(ctx.tenantId, `config:${id}`, async () => ({ data: await store.config(ctx, id) }));
      return sendPublic(req, reply, entry);
    },
  );

  app.get(
    '/api/v1/store/default/theme_colors/fetch',
    {
      schema: {
        tags: ['store'],
        summary: "The platform's default theme colours (THEME_FASHION)",
        response: {
          200: dataEnvelope(z.object({ theme: z.string(), themeColors: themeColorsSchema })),
          ...tenantErrors,
        },
      },
    },
    async (req, reply) => {
      const entry = await cache.get(req.ctx.tenantId, 'default-theme', async () => ({
        data: { theme: 'THEME_FASHION', themeColors: DEFAULT_THEME_COLORS },
      }));
      return sendPublic(req, reply, entry, 3600);
    },
  );

  app.get(
    '/api/v1/product/banner/fetch',
    {
      schema: {
        tags: ['store'],
        summary: 'Home page banners in display order',
        querystring: productStoreQuerySchema,
        response: { 200: dataEnvelope(z.array(bannerSchema)), ...tenantErrors },
      },
    },
    async (req, reply) => {
      const ctx = req.ctx;
      const id = await storeIdFor(ctx, tenants, req.query.productStoreId);
      const entry = await cache.get(
        ctx.tenantId,
        `banners:${id}`,
        async () => ({ data: await store.banners(ctx, id) }),
        ctx.origin,
      );
      return sendPublic(req, reply, entry);
    },
  );

  app.get(
    '/assets/seo-meta.config.json',
    {
      schema: {
        tags: ['store'],
        summary: "Per-route title, keywords and description; 'default' carries the brand name",
        response: { 200: z.array(seoMetaEntrySchema), ...tenantErrors },
      },
    },
    async (req, reply) => {
      const ctx = req.ctx;
      if (ctx.preview && preview) return sendPreview(reply, await preview.seo(ctx, await store.seoMeta(ctx)));
      const entry = await cache.get(ctx.tenantId, 'seo-meta', () => store.seoMeta(ctx));
      return sendPublic(req, reply, entry, 300);
    },
  );

  app.get(
    '/skulocity/api/v1/public/ecommerce/surveyDetails',
    {
      schema: {
        tags: ['store'],
        summary: 'FAQs: the questions and answers of survey HELP_AND_FAQS',
        querystring: faqQuerySchema,
        response: { 200: dataEnvelope(faqsSchema), ...tenantErrors },
      },
    },
    async (req, reply) => {
      const ctx = req.ctx;
      const id = req.query.productStoreSurveyId;
      const entry = await cache.get(ctx.tenantId, `faqs:${id}`, async () => ({ data: await store.faqs(ctx, id) }));
      return sendPublic(req, reply, entry);
    },
  );

  app.get(
    '/skulocity/api/v1/public/ecommerce/countries',
    {
      schema: {
        tags: ['store'],
        summary: 'Countries with their states or regions, for address forms',
        response: { 200: dataEnvelope(countriesSchema), ...tenantErrors },
      },
    },
    async (req, reply) => {
      const entry = await cache.get('*', 'countries', async () => ({ data: COUNTRIES }));
      return sendPublic(req, reply, entry, 86_400);
    },
  );
}
