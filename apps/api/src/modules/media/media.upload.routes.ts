import {
  dataEnvelope,
  errorEnvelopeSchema,
  MEDIA_UPLOAD_MAX_BYTES,
  mediaAltTextSchema,
  mediaListQuerySchema,
  mediaPageSchema,
  mediaUploadResultSchema,
} from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../lib/app-types';
import { changeErrors, costlyErrors } from '../../lib/app-types';
import { AppError } from '../../lib/errors';
import type { MediaService } from './media.service';

/** The owner's side of media: uploading a picture into the store's library, and listing the library. */
export async function mediaUploadRoutes(app: App, { media }: { media: MediaService }) {
  app.post(
    '/api/v1/media/upload',
    {
      config: {
        permission: 'settings',
        // sharp's work is bounded per store (decision 024): one store's uploads cannot take every thread.
        costly: 'upload',
        multipartOptions: {
          // One byte over the limit is read so the service can tell "too large" in its own words.
          limits: { files: 1, fileSize: MEDIA_UPLOAD_MAX_BYTES + 1, fields: 4, parts: 5 },
          throwFileSizeLimit: false,
        },
      },
      schema: {
        tags: ['media'],
        summary: "Uploads a picture into the store's media library",
        description:
          'multipart/form-data with `file` (the picture) and optionally `altText`. The type is read from the ' +
          'bytes: JPEG, PNG, WebP, AVIF or GIF (first frame); SVG and anything else get 415. Over ' +
          `${MEDIA_UPLOAD_MAX_BYTES / 1024 / 1024} MB or over 40 megapixels: 413. The picture is re-encoded to ` +
          'WebP without metadata, at most 1600 px wide, under a random name; `url` serves it, with `?w=` ' +
          'for narrower copies. Needs the settings permission.',
        consumes: ['multipart/form-data'],
        body: z.object({
          file: z.any().describe('The picture (binary)'),
          altText: mediaAltTextSchema.optional(),
        }),
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
      return { data: await media.upload(req.ctx, file, { altText: req.body.altText }) };
    },
  );

  app.get(
    '/api/v1/media',
    {
      config: { permission: 'settings' },
      schema: {
        tags: ['media'],
        summary: "The store's media library, newest first",
        description:
          'Pages of `limit` pictures; pass `nextCursor` as `cursor` for the next page. Needs the settings permission.',
        querystring: mediaListQuerySchema,
        response: { 200: dataEnvelope(mediaPageSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await media.list(req.ctx, req.query) };
    },
  );
}
