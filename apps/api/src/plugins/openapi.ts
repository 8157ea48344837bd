import { errorEnvelopeSchema } from '@app/contracts';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CSRF_HEADER, SESSION_COOKIE } from '../modules/auth/index';
import { OPEN_API_ROUTES } from '../modules/tenant/index';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * Documentation only: the body of a route that parses it itself (a CSV stream, a webhook's exact
     * bytes), by content type. Fastify never validates against it; the route's own parser and
     * service do.
     */
    documentedBody?: { description?: string; content: Record<string, z.ZodType> };
    /**
     * Documentation only: an example request (query parameters, body), shown in /api/docs; a test
     * sends each to the server, which must accept it.
     */
    examples?: { query?: Record<string, string | number>; path?: Record<string, string>; body?: unknown };
  }
}

/** Every failure's body, referenced instead of repeated in each operation. */
const ENVELOPE_REF = { $ref: '#/components/schemas/ErrorEnvelope' };

/** Control characters (U+0000-U+001F, U+007F; tab and line breaks allowed in multi-line text). */
const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F]*$';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What a generic status means, for the operations the central rules give it to. */
const GENERIC = {
  400:
    'The request is not valid: a field (named in `errors`), JSON that does not parse, a malformed multipart ' +
    'body, or a control character anywhere in the address or body (VALIDATION_FAILED, BAD_REQUEST).',
  401: 'Nobody is signed in, the session has expired, or the store is private (UNAUTHENTICATED, STORE_PRIVATE).',
  403:
    'The tenantId header names another store (TENANT_MISMATCH); a change sent with the session cookie without ' +
    'the CSRF token or from another origin; or the account may not do this (FORBIDDEN).',
  404: 'No store answers on this host (TENANT_NOT_FOUND), or what the path or query names is not one of its own.',
  409:
    'The store is read-only: suspended, or closing after its cancel request was approved; the change is not ' +
    'taken (STORE_READ_ONLY).',
  410: 'The store is closed, or closing: its storefront and checkout are off (STORE_CLOSED).',
  413: 'The body is larger than this operation accepts (PAYLOAD_TOO_LARGE).',
  415: 'The body has a content type this operation does not accept (UNSUPPORTED_MEDIA_TYPE).',
  429: 'Too many requests of this kind for now: try again after Retry-After seconds (RATE_LIMITED).',
  503:
    'The database is unavailable or the server is shutting down: try again after Retry-After (UNAVAILABLE); or ' +
    'the store is suspended (STORE_SUSPENDED) or not open yet (STORE_NOT_OPEN).',
} as const;

type Access = 'platform' | 'operator' | 'protected' | 'optional';

/** Who may call a route, from what it declares (config.operator, config.permission, config.signedIn, config.tenant). */
function accessOf(route: RouteOptions): Access {
  const config = (route.config ?? {}) as {
    tenant?: boolean;
    permission?: unknown;
    signedIn?: boolean;
    operator?: string;
  };
  // The platform operator's API (decision 101): an operator token, or the console's session cookie.
  if (config.operator === 'signed-in') return 'operator';
  if (config.tenant === false) return 'platform';
  if (config.permission || config.signedIn) return 'protected';
  return 'optional';
}

/** The security requirement of an operation: bearer, or the session cookie (with the CSRF token on a change). */
function securityOf(access: Access, method: string, config: { csrf?: string }) {
  if (access === 'platform') return [];
  const needsCsrf = !SAFE_METHODS.has(method) && config.csrf !== 'origin-only';
  if (access === 'operator') {
    return [{ operatorToken: [] }, needsCsrf ? { operatorSession: [], operatorCsrf: [] } : { operatorSession: [] }];
  }
  const signedIn = [{ bearer: [] }, needsCsrf ? { session: [], csrf: [] } : { session: [] }];
  return access === 'protected' ? signedIn : [{}, ...signedIn];
}

/** The statuses the shared plugins can answer for this route, whatever its handler does. */
function genericStatuses(route: RouteOptions, method: string, access: Access, url: string): number[] {
  const config = (route.config ?? {}) as { costly?: string };
  const statuses = [400, 503];
  if (access === 'operator') statuses.push(401, 403, 404);
  else if (access !== 'platform') {
    statuses.push(403, 404);
    // A private store closes every route but the few a visitor needs to sign in (decision 027).
    if (access === 'protected' || !OPEN_API_ROUTES.has(url)) statuses.push(401);
    // The store's lifecycle (decision 099): a closed or closing store's routes answer 410, and a
    // suspended or closing store's dashboard takes no change.
    statuses.push(410);
    if (!SAFE_METHODS.has(method)) statuses.push(409);
  }
  if (!SAFE_METHODS.has(method)) statuses.push(413, 415);
  if (config.costly) statuses.push(429);
  return statuses;
}

/** Adds `format` from a pipe's output (`z.string().trim().pipe(z.email())`) to its input, which zod omits. */
function inputOverride(ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown> }) {
  const def = (ctx.zodSchema as { _zod: { def: { type: string; out?: { _zod: { def: { format?: string } } } } } })._zod
    .def;
  if (def.type === 'pipe' && ctx.jsonSchema.type === 'string') {
    const format = def.out?._zod.def.format;
    if (format && !ctx.jsonSchema.format) ctx.jsonSchema.format = format;
  }
  // The control-character rule (input-guards) as a pattern, where the string has no stricter shape.
  const s = ctx.jsonSchema;
  if (s.type === 'string' && !s.pattern && !s.format && !s.enum && s.const === undefined)
    s.pattern = NO_CONTROL_CHARACTERS;
  dropEmptyUnionBranches(ctx);
}

function dropEmptyUnionBranches(ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown> }) {
  const anyOf = ctx.jsonSchema.anyOf as object[] | undefined;
  if (anyOf) ctx.jsonSchema.anyOf = anyOf.filter((s) => Object.keys(s).length > 0);
}

function outputOverride(ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown> }) {
  const type = (ctx.zodSchema as { _zod: { def: { type: string } } })._zod.def.type;
  if (type === 'date') Object.assign(ctx.jsonSchema, { type: 'string', format: 'date-time' });
  if (type === 'undefined' || type === 'void') ctx.jsonSchema.type = 'null';
  dropEmptyUnionBranches(ctx);
}

const inputTransform = createJsonSchemaTransform({ zodToJsonConfig: { override: inputOverride } });
const outputTransform = createJsonSchemaTransform({ zodToJsonConfig: { override: outputOverride } });

type TransformArg = Parameters<typeof inputTransform>[0];
type JsonObject = Record<string, unknown>;

/**
 * One route's operation: its zod schemas as JSON Schema, plus what the shared plugins decide for
 * every route (who may call it, the statuses they answer), so no route can forget them.
 */
function transformRoute(doc: TransformArg) {
  const { schema, url } = doc;
  const route = (doc as { route?: RouteOptions }).route;
  if (!schema || (schema as { hide?: boolean }).hide || !route) return inputTransform(doc);
  const { response, documentedBody, examples, ...rest } = schema as JsonObject & {
    response?: Record<string, unknown>;
    documentedBody?: { description?: string; content: Record<string, z.ZodType> };
    examples?: { query?: Record<string, string | number>; path?: Record<string, string>; body?: unknown };
  };
  const method = [route.method].flat().find((m) => m !== 'HEAD') ?? 'GET';
  const access = accessOf(route);
  const responses: Record<string, unknown> = { ...response };
  for (const status of genericStatuses(route, method, access, url)) {
    if (!(status in responses) && !(String(status) in responses)) responses[status] = errorEnvelopeSchema;
  }
  const input = inputTransform({ ...doc, schema: rest } as TransformArg).schema as JsonObject;
  const output = outputTransform({ ...doc, schema: { response: responses } } as TransformArg).schema as JsonObject;
  const out: JsonObject = { ...input, response: output.response };
  out.security = securityOf(access, method, (route.config ?? {}) as { csrf?: string });
  if (documentedBody) {
    const content: JsonObject = {};
    for (const [type, zodSchema] of Object.entries(documentedBody.content)) {
      content[type] = { schema: z.toJSONSchema(zodSchema, { io: 'input', target: 'draft-2020-12' }) };
    }
    out.body = { ...(documentedBody.description ? { description: documentedBody.description } : {}), content };
  }
  if (examples) out['x-examples'] = examples;
  return { schema: out, url };
}

/** Names of the shared answers in components.responses. */
const SHARED_NAMES: Record<keyof typeof GENERIC, string> = {
  400: 'BadRequest',
  401: 'Unauthenticated',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'StoreReadOnly',
  410: 'StoreClosed',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  429: 'RateLimited',
  503: 'Unavailable',
};

const RETRY_AFTER = { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } };

/**
 * After every operation is built: the envelope and the shared answers referenced rather than
 * repeated (the document and the generated types stay a third of the size), descriptions and
 * headers filled in, examples placed.
 */
function finishDocument(document: JsonObject): JsonObject {
  let envelope: unknown = null;
  const shared: Record<string, JsonObject> = {};
  const paths = document.paths as Record<string, Record<string, JsonObject>>;
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      const responses = operation.responses as Record<string, JsonObject>;
      for (const [status, answer] of Object.entries(responses)) {
        const code = Number(status);
        const json = (answer.content as Record<string, { schema?: unknown }> | undefined)?.['application/json'];
        if (code >= 400 && json && isEnvelope(json.schema)) {
          envelope ??= json.schema;
          json.schema = ENVELOPE_REF;
        }
        if (answer.description === 'Default Response') {
          answer.description = GENERIC[code as keyof typeof GENERIC] ?? (code < 300 ? 'Success' : 'See the operation');
        }
        if (code === 429 || code === 503)
          answer.headers = { 'Retry-After': RETRY_AFTER, ...(answer.headers as object) };
        if (code >= 300 && code < 400 && code !== 304) {
          answer.headers = {
            Location: { description: 'Where to go next.', schema: { type: 'string' } },
            ...(answer.headers as object),
          };
        }
        const name = SHARED_NAMES[code as keyof typeof GENERIC];
        if (name && answer.description === GENERIC[code as keyof typeof GENERIC] && json?.schema === ENVELOPE_REF) {
          shared[name] = answer;
          responses[status] = { $ref: `#/components/responses/${name}` };
        }
      }
      const examples = operation['x-examples'] as
        | { query?: Record<string, unknown>; path?: Record<string, unknown>; body?: unknown }
        | undefined;
      if (examples) {
        delete operation['x-examples'];
        const parameters = (operation.parameters ?? []) as { in: string; name: string; example?: unknown }[];
        for (const parameter of parameters) {
          const value = (parameter.in === 'query' ? examples.query : parameter.in === 'path' ? examples.path : null)?.[
            parameter.name
          ];
          if (value !== undefined) parameter.example = value;
        }
        const content = (operation.requestBody as { content?: Record<string, JsonObject> } | undefined)?.content;
        const body = content?.['application/json'];
        if (examples.body !== undefined && body) body.example = examples.body;
      }
    }
  }
  const components = (document.components ?? {}) as JsonObject;
  if (envelope) components.schemas = { ...(components.schemas as object), ErrorEnvelope: envelope };
  components.responses = { ...(components.responses as object), ...shared };
  return { ...document, components };
}

const ENVELOPE_KEYS = Object.keys(errorEnvelopeSchema.shape).sort().join();

/** The envelope as the zod conversion wrote it (errorEnvelopeSchema), wherever a route used it. */
function isEnvelope(schema: unknown): boolean {
  const properties = (schema as { properties?: object } | undefined)?.properties;
  return !!properties && Object.keys(properties).sort().join() === ENVELOPE_KEYS;
}

const DESCRIPTION = [
  'Commerce API under /skulocity/api/v1 and the tenant/store service under /api. Every request is bound to a',
  'store by its Host header; a tenantId header, when sent, must name the same tenant (else 403).',
  '',
  'Success is `{ "data": ... }`. Every failure, of every operation, is one envelope: `{ error, code, message,',
  'errors, data: { message }, requestId }` (components.schemas.ErrorEnvelope); a field problem names its field',
  'in `errors`.',
  '',
  '**Who acts.** An operation that needs an account declares `bearer` (`Authorization: Bearer <token>` from',
  '`POST /skulocity/api/v1/login`) or `session` (the `sid` cookie a browser gets at login). A change sent with',
  "the session cookie must also carry the session's CSRF token in the `x-csrf-token` header (`csrf`), and come",
  "from the store's own origin. An operation whose security list starts with `{}` is open to visitors too and",
  'acts for whoever is signed in. Owner operations say the permission they need; a visitor gets 401, a shopper',
  'or a staff member without the permission 403.',
  '',
  '**Text.** No field, query parameter or path accepts a control character (U+0000 to U+001F and U+007F); tab,',
  'line feed and carriage return are accepted only inside multi-line text. Such a request is refused with 400',
  'before any field is read. Numbers are JSON numbers, never strings.',
  '',
  '**Statuses every operation can answer** besides its own: 400 (validation, bad JSON, control characters),',
  "503 with Retry-After (database unavailable); on a store's host also 403 and 404 (see above) and, unless the",
  'operation is open on a private store, 401; with a body 413 and 415.',
  '',
  "**The platform operator's API** (`/platform-api/`, tag `platform operator`) answers on the platform's own host",
  'only (404 on any other). It takes an operator token (`operatorToken`: `Authorization: Bearer opt_...`, made in',
  "the console and shown once) or the console's `psid` cookie (`operatorSession`, with `operatorCsrf` on a change);",
  "a store's session or token is 401 there. Every action takes a `reason` and is written to the platform's audit log.",
].join('\n');

/** OpenAPI 3.1 generated from the routes' zod schemas and their declared access (decision 076). */
async function openapiPlugin(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Storefront platform API', version: '1.0.0', description: DESCRIPTION },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'The token of `POST /skulocity/api/v1/login` (data.token). Needs no CSRF token.',
          },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description: 'The httpOnly session cookie a browser gets at login.',
          },
          operatorToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An operator token (`opt_...`, POST /platform-api/tokens). Platform host only; needs no CSRF token.',
          },
          operatorSession: {
            type: 'apiKey',
            in: 'cookie',
            name: 'psid',
            description: "The operator console's httpOnly session cookie, set by the platform host only.",
          },
          operatorCsrf: {
            type: 'apiKey',
            in: 'header',
            name: CSRF_HEADER,
            description:
              "The console session's CSRF token (data.csrfToken of the sign-in or GET /platform-api/session).",
          },
          csrf: {
            type: 'apiKey',
            in: 'header',
            name: CSRF_HEADER,
            description:
              "The session's CSRF token (data.csrfToken of login, or GET /skulocity/api/v1/public/ecommerce/csrftoken), " +
              'required on every change sent with the session cookie.',
          },
        },
      },
    },
    transform: (doc) => transformRoute(doc as TransformArg),
    transformObject: (object) =>
      finishDocument((object as unknown as { openapiObject: JsonObject }).openapiObject) as never,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  app.get('/api/openapi.json', { config: { tenant: false }, schema: { hide: true } }, async () => app.swagger());
}

export default fp(openapiPlugin, { name: 'openapi' });
