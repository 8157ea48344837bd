import {
  dataEnvelope,
  errorEnvelopeSchema,
  STORE_ARCHIVE_CONTENT_TYPE,
  storeExportLatestSchema,
  storeExportParamsSchema,
  storeExportSchema,
} from '@app/contracts';
import type { Db } from '@app/db';
import { fileAnswer } from '../../lib/api-docs';
import type { App } from '../../lib/app-types';
import { changeErrors, tenantErrors } from '../../lib/app-types';
import type { AuditService } from '../audit/index';
import { sendArchiveFile } from './archive-download';
import { requireOwner, startOwnerExport } from './owner-export';
import type { StoreArchive } from './store-archive.service';

const owner = { ...tenantErrors, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };
const tags = ['store archive'];

/** The owner's export of the whole store: start it, follow it, download the archive (decision 122). */
export async function storeArchiveRoutes(
  app: App,
  { archive, audit, db }: { archive: StoreArchive; audit: AuditService; db: Db },
) {
  app.post(
    '/api/v1/store/archive/exports',
    {
      config: { permission: 'settings' },
      schema: {
        tags,
        summary: "Starts an export of the store's whole data as one archive (a job), or answers the one under way",
        description:
          'Catalog, pictures, categories, pages, banners, theme and settings, customers and addresses (no passwords), ' +
          'orders with payments, refunds and returns, reviews, promo codes, subscribers and the audit log, as a ' +
          '.tar.gz with manifest.json (decision 122). Follow it with GET /api/v1/store/archive/exports/latest. ' +
          "The store's owner only.",
        response: { 200: dataEnvelope(storeExportSchema), ...changeErrors, 401: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      requireOwner(req.ctx);
      reply.header('cache-control', 'private, no-store');
      const started = await startOwnerExport(req.ctx, { archive, audit, db });
      return { data: started };
    },
  );

  app.get(
    '/api/v1/store/archive/exports/latest',
    {
      config: { permission: 'settings' },
      schema: {
        tags,
        summary: "The store's newest export: how far it is, and its download once done (null when none)",
        response: { 200: dataEnvelope(storeExportLatestSchema), ...owner },
      },
    },
    async (req, reply) => {
      requireOwner(req.ctx);
      reply.header('cache-control', 'private, no-store');
      return { data: await archive.latestExport(req.ctx) };
    },
  );

  app.get(
    '/api/v1/store/archive/exports/:jobId/download',
    {
      config: { permission: 'settings' },
      schema: {
        tags,
        summary: "The finished export's archive (.tar.gz), streamed",
        params: storeExportParamsSchema,
        response: {
          200: fileAnswer('The store archive (attachment)', [STORE_ARCHIVE_CONTENT_TYPE], { binary: true }),
          ...owner,
        },
      },
    },
    async (req, reply) => {
      requireOwner(req.ctx);
      const file = await archive.archiveFile(req.ctx, req.params.jobId);
      return sendArchiveFile(reply, file);
    },
  );
}
