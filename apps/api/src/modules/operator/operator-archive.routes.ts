import { Readable } from 'node:stream';
import {
  dataEnvelope,
  errorEnvelopeSchema,
  OPERATOR_API_PREFIX as P,
  STORE_ARCHIVE_CONTENT_TYPE,
  storeExportLatestSchema,
  storeExportSchema,
  storeImportResultSchema,
  tenantIdParamsSchema,
} from '@app/contracts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fileAnswer } from '../../lib/api-docs';
import type { App } from '../../lib/app-types';
import { AppError } from '../../lib/errors';
import type { BuildOptions } from '../../lib/module';
import { sendRefusal } from '../../plugins/errors';
import { platformContext, type StoreArchive, sendArchiveFile } from '../store-archive/index';
import type { StoreLifecycleService } from '../store-lifecycle/index';
import type { OperatorAuth } from './operator-auth.service';
import { operatorGuard, operatorOf } from './operator-guard';
import { operatorErrors as errors, noStore, operatorTags as tags } from './operator-route-kit';
import type { PlatformAudit } from './platform-audit.service';

/** Stores whose data the platform may take out without the owner: those the owner is leaving. */
const EXPORTABLE = new Set(['closing', 'closed']);

const operatorDownload = (tenantId: string) => (jobId: string) =>
  `${P}/stores/${encodeURIComponent(tenantId)}/archive/exports/${encodeURIComponent(jobId)}/download`;

/**
 * The operator's side of a store's archive (decision 122): the export of a closing (or closed) store
 * for its merchant, and the import of an archive into an empty store.
 */
export async function operatorArchiveRoutes(
  app: App,
  opts: {
    archive: StoreArchive;
    lifecycle: StoreLifecycleService;
    audit: PlatformAudit;
    auth: OperatorAuth;
    config: BuildOptions['config'];
    db: Parameters<PlatformAudit['record']>[0];
  },
) {
  const { archive, lifecycle, audit } = opts;
  app.addHook('onRequest', operatorGuard(opts.auth, opts.config));

  async function exportable(tenantId: string) {
    const l = await lifecycle.lifecycle(tenantId);
    if (!EXPORTABLE.has(l.state)) {
      throw new AppError(
        409,
        'INVALID_TRANSITION',
        `The store is ${l.state}: the platform exports a store only while it closes or is closed; its owner exports it from the dashboard.`,
      );
    }
  }

  app.post(
    `${P}/stores/:tenantId/archive/exports`,
    {
      config: { tenant: false, operator: 'signed-in' },
      schema: {
        tags,
        summary: "Starts an export of a closing or closed store's whole data (a job), or answers the one under way",
        description:
          "The same archive as the owner's export (decision 122). Only for a store that is closing or closed (409 " +
          'otherwise). Recorded in the platform audit log.',
        params: tenantIdParamsSchema,
        response: { 200: dataEnvelope(storeExportSchema), ...errors },
      },
    },
    async (req, reply) => {
      noStore(reply);
      await exportable(req.params.tenantId);
      const started = await archive.startExport(
        platformContext(req.params.tenantId),
        operatorDownload(req.params.tenantId),
      );
      await audit.record(opts.db, operatorOf(req), {
        action: 'store.export',
        tenantId: req.params.tenantId,
        reason: null,
        details: { jobId: started.jobId },
      });
      return { data: started };
    },
  );

  app.get(
    `${P}/stores/:tenantId/archive/exports/latest`,
    {
      config: { tenant: false, operator: 'signed-in' },
      schema: {
        tags,
        summary: "The store's newest export (null when none)",
        params: tenantIdParamsSchema,
        response: { 200: dataEnvelope(storeExportLatestSchema), ...errors },
      },
    },
    async (req, reply) => {
      noStore(reply);
      return {
        data: await archive.latestExport(platformContext(req.params.tenantId), operatorDownload(req.params.tenantId)),
      };
    },
  );

  app.get(
    `${P}/stores/:tenantId/archive/exports/:jobId/download`,
    {
      config: { tenant: false, operator: 'signed-in' },
      schema: {
        tags,
        summary: "A finished export's archive (.tar.gz), streamed",
        params: tenantIdParamsSchema.extend({ jobId: z.string().min(1).max(64) }),
        response: {
          200: fileAnswer('The store archive (attachment)', [STORE_ARCHIVE_CONTENT_TYPE], { binary: true }),
          ...errors,
        },
      },
    },
    async (req, reply) => {
      await exportable(req.params.tenantId);
      const file = await archive.archiveFile(platformContext(req.params.tenantId), req.params.jobId);
      return sendArchiveFile(reply, file);
    },
  );

  await app.register(async (plain) => {
    const scoped = plain.withTypeProvider<ZodTypeProvider>();
    // The archive stays a stream: it is unpacked to disk as it arrives, never held in memory.
    scoped.addContentTypeParser([STORE_ARCHIVE_CONTENT_TYPE, 'application/octet-stream'], (_req, payload, done) =>
      done(null, payload),
    );
    scoped.post(
      `${P}/stores/:tenantId/archive/import`,
      {
        config: { tenant: false, operator: 'signed-in' },
        schema: {
          tags,
          summary:
            'Imports a store archive into an empty store (no orders, no customers): replaces what provisioning wrote',
          description:
            'The body is the .tar.gz an export made (Content-Type application/gzip), from this deployment or another. ' +
            'Ids are kept (order numbers stay); accounts arrive without passwords (send the owner an invitation); the ' +
            'store keeps its host, state and connections. A store with orders or customers is 409; a damaged or ' +
            'foreign archive 422, with nothing written. Recorded in the platform audit log.',
          params: tenantIdParamsSchema,
          documentedBody: {
            description: 'The archive itself.',
            content: { [STORE_ARCHIVE_CONTENT_TYPE]: z.string(), 'application/octet-stream': z.string() },
          },
          response: { 200: dataEnvelope(storeImportResultSchema), ...errors, 415: errorEnvelopeSchema },
        },
      },
      async (req, reply) => {
        noStore(reply);
        const body = req.body instanceof Readable ? req.body : Readable.from([]);
        const done = await archive.importArchive(req.params.tenantId, body);
        if (!done.ok) {
          reply.header('connection', 'close');
          return sendRefusal(reply, done);
        }
        await audit.record(opts.db, operatorOf(req), {
          action: 'store.import',
          tenantId: req.params.tenantId,
          reason: null,
          details: { fromStoreId: done.value.fromStoreId, rows: done.value.rows },
        });
        return { data: done.value };
      },
    );
  });
}
