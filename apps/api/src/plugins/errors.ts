import { type ErrorCode, type ErrorEnvelope, GENERIC_ERROR_MESSAGE } from '@app/contracts';
import { isDatabaseUnavailable } from '@app/db';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import FindMyWay from 'find-my-way';
import { AppError, DATABASE_RETRY_AFTER_S, DATABASE_UNAVAILABLE_MESSAGE } from '../lib/errors';
import type { Refusal } from '../lib/result';
import { isStoreSwitching, STORE_MOVING_RETRY_AFTER_S } from '../lib/store-databases';

export function sendError(
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  message: string,
  errors: string[] = [message],
) {
  const body: ErrorEnvelope = {
    error: true,
    code,
    message,
    errors,
    data: { message },
    requestId: String(reply.request.id),
  };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/**
 * The one mapping from an expected refusal (lib/result.ts) to HTTP: its status, its headers, and the
 * error envelope every failure has, with the refusal's code and message.
 */
export function sendRefusal(reply: FastifyReply, r: Refusal) {
  for (const [k, v] of Object.entries(r.headers ?? {})) reply.header(k, v);
  return sendError(reply, r.status, r.code, r.message);
}

const FASTIFY_CODES: Record<string, { status: number; code: ErrorCode; message: (e: FastifyError) => string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'BAD_REQUEST',
    message: () => 'The request body is not valid JSON.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'BAD_REQUEST',
    message: () => 'The request says it sends JSON but the body is empty.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: () => 'The request body is larger than this endpoint accepts.',
  },
  FST_REQ_FILE_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: () => 'The uploaded file is too large.' },
  FST_FILES_LIMIT: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: () => 'Too many files in the request.' },
  FST_FIELDS_LIMIT: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: () => 'Too many form fields in the request.' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: {
    status: 400,
    code: 'BAD_REQUEST',
    message: () => 'The request is not a valid multipart form.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: (e) =>
      `Unsupported content type${e.message.includes(':') ? `: ${e.message.split(':').pop()?.trim()}` : ''}.`,
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'BAD_REQUEST',
    message: () => 'The Content-Length header does not match the body.',
  },
  FST_ERR_VALIDATION: { status: 400, code: 'VALIDATION_FAILED', message: (e) => e.message },
  FST_PROTO_VIOLATION: {
    status: 400,
    code: 'BAD_REQUEST',
    message: () => 'A form field has a name no field may have.',
  },
  FST_INVALID_JSON_FIELD_ERROR: {
    status: 400,
    code: 'BAD_REQUEST',
    message: () => 'A form field declared as JSON is not valid JSON.',
  },
  FST_MP_PREMATURE_CLOSE: {
    status: 400,
    code: 'BAD_REQUEST',
    message: () => 'The request is not a valid multipart form: it ended before its last part.',
  },
  FST_PARTS_LIMIT: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: () => 'Too many parts in the form.' },
};

/**
 * The multipart parser (busboy) reports a broken body ("Unexpected end of multipart data", no
 * boundary, a part without headers) as a plain Error with no code: the body's fault, not ours.
 */
function isMalformedMultipart(err: FastifyError, req: FastifyRequest): boolean {
  if (err.code || err instanceof AppError) return false;
  if (
    !String(req.headers['content-type'] ?? '')
      .toLowerCase()
      .startsWith('multipart/')
  )
    return false;
  return /busboy|dicer/.test(err.stack ?? '') || /multipart|boundary|part header/i.test(err.message);
}

/** "body.email: Invalid email address" — every field problem names its field. */
function zodIssues(err: FastifyError & { validation?: unknown; validationContext?: string }): string[] {
  // fastify-type-provider-zod puts the zod path in `instancePath` ("/items/0/qty") and the rest
  // of the issue (keys, expected, ...) in `params`.
  const list = (err.validation ?? []) as Array<{
    instancePath?: string;
    keyword?: string;
    message?: string;
    params?: { keys?: string[] };
  }>;
  return list.map((v) => {
    const path = (v.instancePath ?? '').split('/').filter(Boolean);
    const where = [err.validationContext, ...path].filter((p) => p !== undefined && p !== '').join('.');
    let msg = v.message ?? 'is invalid';
    if (v.keyword === 'invalid_type' && msg.endsWith('received undefined')) msg = 'is required';
    if (v.keyword === 'unrecognized_keys' && v.params?.keys?.length)
      msg = `unknown field(s): ${v.params.keys.join(', ')}`;
    return where ? `${where}: ${msg}` : msg;
  });
}

async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof AppError) {
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      // Briefly unavailable (the database away, which /readyz says on every probe; the server busy
      // or shutting down) is a warning, as for the driver's errors below, not a bug.
      if (err.statusCode === 503 && err.code === 'UNAVAILABLE') req.log.warn({ err }, 'unavailable');
      else if (err.statusCode >= 500) req.log.error({ err }, 'request failed');
      return sendError(reply, err.statusCode, err.code, err.message, err.errors);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors = zodIssues(err as FastifyError & { validation?: unknown; validationContext?: string });
      return sendError(reply, 400, 'VALIDATION_FAILED', errors[0] ?? 'The request is not valid.', errors);
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err, issues: err.cause?.issues }, 'response did not match its schema');
      return sendError(reply, 500, 'INTERNAL', GENERIC_ERROR_MESSAGE);
    }
    const known = err.code ? FASTIFY_CODES[err.code] : undefined;
    if (known) return sendError(reply, known.status, known.code, known.message(err));
    if (isMalformedMultipart(err, req)) {
      return sendError(reply, 400, 'BAD_REQUEST', 'The request is not a valid multipart form.');
    }
    if (err.statusCode === 429) {
      return sendError(reply, 429, 'RATE_LIMITED', 'Too many requests. Please wait a moment and try again.');
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Client errors raised by plugins: their messages are written for callers.
      return sendError(reply, err.statusCode, 'BAD_REQUEST', err.message);
    }
    if (isDatabaseUnavailable(err)) {
      // Not the request's fault and not a bug: the database is down or restarting. Callers and load
      // balancers may retry; the driver's message stays in the log.
      req.log.warn({ err }, 'database unavailable');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_S));
      return sendError(reply, 503, 'UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE);
    }
    if (isStoreSwitching(err)) {
      // The store is switching databases (decision 123) and this process had not held its write:
      // nothing was written, and sent again in a moment it goes to the store's new database.
      req.log.warn({ err }, 'store switching databases: write refused');
      reply.header('retry-after', String(STORE_MOVING_RETRY_AFTER_S));
      return sendError(
        reply,
        503,
        'STORE_MOVING',
        'The store is being moved and takes no changes for a moment. Please try again in a second.',
      );
    }
    // Anything else is ours: log it whole, tell the caller nothing about internals.
    req.log.error({ err }, 'unhandled error');
    return sendError(reply, 500, 'INTERNAL', GENERIC_ERROR_MESSAGE);
  });

  // Fastify answers 404 for a known path with another method; HTTP says 405 with Allow.
  const known = FindMyWay({ ignoreTrailingSlash: true, ignoreDuplicateSlashes: true });
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (route.url === '*' || (route.url.endsWith('/*') && route.url.length <= 2)) return;
    let set = methodsByPath.get(route.url);
    if (!set) {
      set = new Set();
      methodsByPath.set(route.url, set);
      known.on('GET', route.url, () => {}, { path: route.url });
    }
    for (const m of methods) set.add(m);
  });

  const methodsOf = (path: string) => {
    const match = known.find('GET', path);
    return match ? methodsByPath.get((match.store as { path: string }).path) : undefined;
  };
  app.decorate('routeMethods', (path: string) => methodsOf(path));

  app.decorate('sendNotFound', (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split('?')[0] ?? '/';
    const allowed = methodsOf(path);
    if (allowed && !allowed.has(req.method)) {
      const allow = [...allowed].filter((m) => m !== 'HEAD');
      reply.header('Allow', allow.join(', '));
      return sendError(
        reply,
        405,
        'METHOD_NOT_ALLOWED',
        `${req.method} is not allowed on ${path}. Allowed: ${allow.join(', ')}.`,
      );
    }
    return sendError(reply, 404, 'NOT_FOUND', `No endpoint ${req.method} ${path}.`);
  });
  app.setNotFoundHandler((req, reply) => app.sendNotFound(req, reply));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** 404, or 405 with Allow when the path exists with other methods. */
    sendNotFound(req: FastifyRequest, reply: FastifyReply): FastifyReply;
    /** The methods of the route (other than the pages' catch-all) that serves this path, if any. */
    routeMethods(path: string): ReadonlySet<string> | undefined;
  }
}

export default fp(errorsPlugin, { name: 'errors' });
