import {
  dataEnvelope,
  errorEnvelopeSchema,
  sitemapGenerateSchema,
  sitemapJobSchema,
  sitemapStatusSchema,
  tenantIdQuerySchema,
} from '@app/contracts';
import { z } from 'zod';
import { fileAnswer, XML } from '../../lib/api-docs';
import type { App } from '../../lib/app-types';
import { changeErrors, tenantErrors } from '../../lib/app-types';
import { AppError } from '../../lib/errors';
import type { SitemapService } from './sitemap.service';
import { PART_FILE } from './sitemap-xml';

const notGenerated = () => AppError.notFound('This store has no sitemap.');

/** The clients' sitemap call, its status for the settings page, and each host's files. */
export async function sitemapRoutes(app: App, { sitemap }: { sitemap: SitemapService }) {
  app.post(
    '/api/sitemap/generate',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['sitemap'],
        summary: "Generate the tenant's sitemap.xml for each of its store hosts (a job)",
        description:
          'Answers 202 with the job. While a generation waits or runs, another request answers that same job. ' +
          'Private stores get no sitemap. The settings permission; another tenant is 404.',
        body: sitemapGenerateSchema,
        response: { 202: dataEnvelope(sitemapJobSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      const job = await sitemap.generate(req.ctx, req.body.tenantId);
      reply.code(202);
      return { data: job };
    },
  );

  app.get(
    '/api/sitemap/fetch',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['sitemap'],
        summary: 'The last sitemap generation: its job and progress, and URL counts per store host',
        querystring: tenantIdQuerySchema,
        response: { 200: dataEnvelope(sitemapStatusSchema), ...tenantErrors, 401: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await sitemap.status(req.ctx, req.query.tenantId) };
    },
  );

  const fileSchema = { response: { 200: fileAnswer('The sitemap (XML)', XML), 404: errorEnvelopeSchema } };

  app.get(
    '/sitemap.xml',
    { schema: { tags: ['sitemap'], summary: "The host's sitemap", ...fileSchema } },
    async (req, reply) => {
      const body = await sitemap.file(req.ctx, 'sitemap.xml');
      if (body === null) throw notGenerated();
      reply.header('content-type', 'application/xml; charset=utf-8').header('cache-control', 'public, max-age=300');
      return body;
    },
  );

  app.get(
    '/sitemaps/:file',
    {
      schema: {
        tags: ['sitemap'],
        summary: 'A part of a sitemap split past 50,000 URLs',
        params: z.object({ file: z.string().max(40) }),
        ...fileSchema,
      },
    },
    async (req, reply) => {
      const body = PART_FILE.test(req.params.file) ? await sitemap.file(req.ctx, req.params.file) : null;
      if (body === null) throw notGenerated();
      reply.header('content-type', 'application/xml; charset=utf-8').header('cache-control', 'public, max-age=300');
      return body;
    },
  );

  app.get(
    '/robots.txt',
    {
      schema: {
        tags: ['sitemap'],
        summary: "The host's robots.txt",
        response: { 200: fileAnswer('robots.txt', ['text/plain']) },
      },
    },
    async (req, reply) => {
      reply.header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'public, max-age=300');
      return sitemap.robots(req.ctx);
    },
  );
}
