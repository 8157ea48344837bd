import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { bodyHasControlCharacter, urlHasControlCharacter } from '../lib/control-characters';
import { BODY_LIMIT_BYTES } from '../lib/limits';
import { sendError } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers people with HTML: it runs these checks itself and renders its own refusal. */
    page?: boolean;
    /**
     * The largest body the route reads, when its parser is not Fastify's own (multipart, a streamed
     * file): a declared length over it is refused before a byte is read. Others use the body limit.
     */
    maxBodyBytes?: number;
    /** What a body over that limit is told, when the route has its own words for it. */
    tooLargeMessage?: string;
  }
}

export const CONTROL_CHARACTER_MESSAGE = 'The request contains a control character, which no field accepts.';

function refuse(reply: FastifyReply) {
  return sendError(reply, 400, 'VALIDATION_FAILED', CONTROL_CHARACTER_MESSAGE);
}

/** Room for a multipart form's boundaries, part headers and small fields beside its file. */
const FORM_ROOM_BYTES = 64 * 1024;

/**
 * The largest body a route reads: its own `maxBodyBytes`; for a multipart upload, its file limit
 * (`multipartOptions.limits.fileSize`) and room for the form; else its body limit.
 */
function bodyMax(req: FastifyRequest): number {
  const config = req.routeOptions.config as
    | { maxBodyBytes?: number; multipartOptions?: { limits?: { fileSize?: number } } }
    | undefined;
  if (config?.maxBodyBytes) return config.maxBodyBytes;
  const fileSize = config?.multipartOptions?.limits?.fileSize;
  if (fileSize) return fileSize + FORM_ROOM_BYTES;
  return req.routeOptions.bodyLimit ?? BODY_LIMIT_BYTES;
}

/**
 * One check for every text that enters the API: the address (path and query) and the
 * parsed body (JSON, form fields) before any schema. A schema written tomorrow cannot forget it.
 */
async function inputGuards(app: FastifyInstance) {
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.routeOptions.config?.page) return;
    if (urlHasControlCharacter(req.url)) return refuse(reply);
    // Multipart and streamed uploads are read by parsers that count bytes only as they come: a
    // client declaring 50 MB would be read to the end before hearing 413. Its length is known now.
    const declared = Number(req.headers['content-length'] ?? 0);
    const max = bodyMax(req);
    if (declared > max) {
      reply.header('connection', 'close');
      // Over 1 MB, the limit is a file's: say it, as the route's own check would.
      const mb = Math.floor(max / 1024 / 1024);
      const message =
        req.routeOptions.config?.tooLargeMessage ??
        `The request body is larger than this endpoint accepts${mb > 1 ? ` (${mb} MB)` : ''}.`;
      return sendError(reply, 413, 'PAYLOAD_TOO_LARGE', message);
    }
  });
  app.addHook('preValidation', async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.routeOptions.config?.page) return;
    if (req.body !== undefined && bodyHasControlCharacter(req.body)) return refuse(reply);
  });
}

export default fp(inputGuards, { name: 'input-guards' });
