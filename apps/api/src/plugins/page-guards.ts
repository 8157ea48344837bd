import { MEDIA_UPLOAD_MAX_BYTES } from '@app/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasControlCharacter, urlHasControlCharacter } from '../lib/control-characters';
import { BODY_LIMIT_BYTES } from '../lib/limits';
import { sendError } from './errors';

/**
 * The guards the API gets from Fastify and from the input-guards plugin, for the storefront's pages
 * (React Router behind a catch-all route): a body limit, control characters, and 405 for methods a
 * page does not take. pages.ts calls these; they hold no page logic of their own.
 */

/** Form posts to pages: the API's limit. Dashboard uploads (multipart) will get a larger one of their own. */
export const PAGE_BODY_LIMIT_BYTES = BODY_LIMIT_BYTES;
/**
 * A dashboard form that carries a picture without JavaScript (the media field): the upload limit
 * plus room for the form's fields. Only multipart posts to /manage-store/ pages get it.
 */
export const PAGE_UPLOAD_LIMIT_BYTES = MEDIA_UPLOAD_MAX_BYTES + 256 * 1024;
const UPLOAD_PAGES = '/manage-store/';

/** What a page answers to: rendering (GET, HEAD) and its form actions (POST). */
export const PAGE_METHODS = ['GET', 'HEAD', 'POST'] as const;

/**
 * Page bodies are read by Fastify's own reader, which refuses a Content-Length over the limit before
 * reading a byte and counts the bytes of a chunked body as they come (413 in the envelope). React
 * Router then gets the bytes, at most the limit, instead of the socket.
 */
export function readPageBodies(pages: FastifyInstance) {
  pages.removeAllContentTypeParsers();
  pages.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: PAGE_BODY_LIMIT_BYTES }, (_req, body, done) =>
    done(null, body),
  );
  pages.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: PAGE_UPLOAD_LIMIT_BYTES },
    (_req, body, done) => done(null, body),
  );
  // Anywhere else a multipart post keeps the ordinary limit, refused before a byte is read when its
  // length says so (a chunked one is still bounded by the upload limit above).
  pages.addHook('preParsing', async (req, reply) => {
    if (req.url.startsWith(UPLOAD_PAGES)) return;
    if (!(req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data')) return;
    if (Number(req.headers['content-length'] ?? 0) > PAGE_BODY_LIMIT_BYTES) {
      reply.header('connection', 'close');
      return sendTooLargePage(req, reply);
    }
  });
  // A person posting a form gets a page, not the API's JSON, when its body is over the limit.
  pages.setErrorHandler(async (err: FastifyError, req, reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      reply.header('connection', 'close');
      return sendTooLargePage(req, reply);
    }
    throw err;
  });
}

function sendTooLargePage(req: FastifyRequest, reply: FastifyReply) {
  return sendPlainPage(
    req,
    reply,
    413,
    'This form is larger than this site accepts.',
    'If you attached a file, choose a smaller one and try again.',
  );
}

/**
 * 405 for a page path called with another method (PUT /auth/login, TRACE /), answered before the
 * body is read. A path that belongs to an API route keeps the API's own 404/405.
 */
export function refuseOtherPageMethods(
  app: FastifyInstance,
  pages: FastifyInstance,
  isApiPath: (path: string) => boolean,
) {
  const refuse = async (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split('?')[0] ?? '/';
    if (isApiPath(path) || app.routeMethods(path)) return app.sendNotFound(req, reply);
    // A body the client is still sending is never read: end the connection rather than drain it.
    if (req.headers['content-length'] || req.headers['transfer-encoding']) reply.header('connection', 'close');
    const allow = PAGE_METHODS.join(', ');
    reply.header('Allow', allow);
    return sendError(reply, 405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${path}. Allowed: ${allow}.`);
  };
  pages.route({
    method: pages.supportedMethods.filter((m) => !(PAGE_METHODS as readonly string[]).includes(m)),
    url: '*',
    config: { tenant: false, page: true },
    schema: { hide: true },
    onRequest: refuse,
    handler: refuse,
  });
}

/**
 * Whether a page request's address or form cannot be taken: a control character (see
 * input-guards), or a body that is not a form React Router can read (a broken multipart body,
 * JSON, anything but a form), which its action would meet as a thrown error and a 500.
 */
export async function pageInputHasControlCharacter(req: FastifyRequest): Promise<boolean> {
  if (urlHasControlCharacter(req.url)) return true;
  const body = req.body;
  if (!Buffer.isBuffer(body) || body.length === 0) return false;
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded')) {
    for (const [k, v] of new URLSearchParams(body.toString('utf8'))) {
      if (hasControlCharacter(k, 'line') || hasControlCharacter(v, 'multiline')) return true;
    }
    return false;
  }
  if (type.startsWith('multipart/form-data')) {
    let form: FormData;
    try {
      // The header as sent: a boundary is case-sensitive (a browser's is WebKitFormBoundaryAbC...).
      const sent = String(req.headers['content-type']);
      form = await new Response(body as Buffer<ArrayBuffer>, { headers: { 'content-type': sent } }).formData();
    } catch {
      return true; // not a form React Router can read either
    }
    for (const [k, v] of form) {
      if (hasControlCharacter(k, 'line')) return true;
      if (typeof v === 'string' ? hasControlCharacter(v, 'multiline') : hasControlCharacter(v.name, 'line'))
        return true;
    }
    return false;
  }
  // Pages take forms only; the API takes JSON and files.
  return true;
}

/**
 * The page for a refused address or form: plain, self-contained HTML (no script, no store data,
 * nothing of the request echoed but its id), so nothing of the bad input reaches a loader.
 */
export function sendBadRequestPage(req: FastifyRequest, reply: FastifyReply) {
  return sendPlainPage(
    req,
    reply,
    400,
    'This address or form contains something this site cannot read.',
    'Please check what you typed and try again, or go to the <a href="/">home page</a>.',
  );
}

/** A refusal a person sees as a page: plain HTML, no script, nothing of the request but its id. */
function sendPlainPage(req: FastifyRequest, reply: FastifyReply, status: 400 | 413, title: string, text: string) {
  const id = String(req.id);
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Error ${status}</title>
<style>body{margin:0;font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a}main{max-width:28rem;margin:0 auto;padding:6rem 1rem;text-align:center}p.k{font-size:.875rem;font-weight:600;letter-spacing:.05em;text-transform:uppercase;color:#64748b}h1{font-size:1.875rem;margin:.75rem 0}p{color:#475569}a{color:inherit}small{color:#94a3b8}</style>
</head><body><main id="main"><p class="k">Error ${status}</p><h1>${title}</h1>
<p>${text}</p><p><small>Request id ${id}</small></p></main></body></html>`;
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    )
    .send(html);
}
