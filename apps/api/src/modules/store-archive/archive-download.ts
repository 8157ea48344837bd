import { createReadStream } from 'node:fs';
import { STORE_ARCHIVE_CONTENT_TYPE } from '@app/contracts';
import type { FastifyReply } from 'fastify';
import { AppError } from '../../lib/errors';

/**
 * Sends a finished export as an attachment, streamed from disk, never cached (the owner's and the
 * operator's download routes alike); no such export is a 404.
 */
export function sendArchiveFile(reply: FastifyReply, file: { path: string; name: string; bytes: number } | null) {
  if (!file) throw AppError.notFound('No finished export of this store has that id.');
  return reply
    .header('content-type', STORE_ARCHIVE_CONTENT_TYPE)
    .header('content-length', String(file.bytes))
    .header('content-disposition', `attachment; filename="${file.name}"`)
    .header('cache-control', 'private, no-store')
    .send(createReadStream(file.path));
}
