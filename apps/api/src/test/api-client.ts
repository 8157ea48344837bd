import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from '../../generated/openapi.gen';
import type { App } from '../lib/app-types';
import { openapiDocument } from './openapi-types';

/** The API as a client generated from its document sees it: every path, parameter and answer typed. */
export type ApiClient = Client<paths>;

type Answer = { $ref?: string; content?: Record<string, unknown> };
type OpenApiDocument = {
  paths: Record<string, Record<string, { responses: Record<string, Answer> }>>;
  components: { responses?: Record<string, Answer> };
};

const documents = new WeakMap<App, Promise<OpenApiDocument>>();

/**
 * A typed client (openapi-fetch over the types generated from /api/openapi.json) that calls the app
 * through `inject`, as a browser or a script would over HTTP: the store is the host of `baseUrl`,
 * `headers` are sent with every request (a session's cookie and CSRF token, a bearer token).
 * Every answer must be one the document lists for the operation, with a content type it lists: an
 * answer it does not promise fails the test (decision 076).
 */
export function apiClient(app: App, opts: { host: string; headers?: Record<string, string> }): ApiClient {
  const client = createClient<paths>({
    baseUrl: `http://${opts.host}`,
    headers: opts.headers,
    fetch: (request) => injectFetch(app, request),
  });
  client.use(documentedAnswers(app));
  return client;
}

async function injectFetch(app: App, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const res = await app.inject({
    method: request.method as 'GET',
    url: `${url.pathname}${url.search}`,
    headers: { ...headers, host: url.host },
    ...(body ? { payload: body } : {}),
  });
  const answerHeaders = new Headers();
  for (const [key, value] of Object.entries(res.headers)) {
    for (const v of [value ?? []].flat()) answerHeaders.append(key, String(v));
  }
  const empty = res.statusCode === 204 || res.statusCode === 304 || request.method === 'HEAD';
  return new Response(empty ? null : new Uint8Array(res.rawPayload), {
    status: res.statusCode,
    headers: answerHeaders,
  });
}

function documentedAnswers(app: App): Middleware {
  return {
    async onResponse({ request, response, schemaPath }) {
      let doc = documents.get(app);
      if (!doc) {
        doc = openapiDocument(app) as Promise<OpenApiDocument>;
        documents.set(app, doc);
      }
      const operation = (await doc).paths[schemaPath]?.[request.method.toLowerCase()];
      const where = `${request.method} ${schemaPath}`;
      if (!operation) throw new Error(`${where} is not in the OpenAPI document`);
      let answer = operation.responses[String(response.status)] ?? operation.responses.default;
      if (!answer) {
        throw new Error(
          `${where} answered ${response.status}, which the document does not list: ${await response.clone().text()}`,
        );
      }
      if (answer.$ref) answer = (await doc).components.responses?.[answer.$ref.split('/').pop() ?? ''] ?? answer;
      const type = response.headers.get('content-type')?.split(';')[0]?.trim();
      const listed = Object.keys(answer.content ?? {});
      if (type && listed.length && !listed.some((t) => matches(t, type))) {
        throw new Error(`${where} answered ${response.status} as ${type}; the document lists ${listed.join(', ')}`);
      }
      if (!type && listed.length && response.status !== 304) {
        throw new Error(
          `${where} answered ${response.status} without a content type; the document lists ${listed.join(', ')}`,
        );
      }
      return undefined;
    },
  };
}

/** A documented media range (`image/*`, `*\/*`) covers the actual type. */
function matches(range: string, type: string): boolean {
  if (range === '*/*' || range === type) return true;
  return range.endsWith('/*') && type.startsWith(range.slice(0, -1));
}

/** The data of an answer the test expects to be 200, or a failure that shows what came instead. */
export async function okData<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.status !== 200 || data === undefined) {
    throw new Error(`${response.url} answered ${response.status}: ${JSON.stringify(error).slice(0, 300)}`);
  }
  return data;
}
