import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, SEEDED_HOSTS, type TestApp } from '../test/harness';

type Operation = {
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, { schema?: unknown }>; headers?: Record<string, unknown> }>;
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
};

let t: TestApp;
let doc: Document;
const host = SEEDED_HOSTS.lighting.host;

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { host } });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(async () => t?.close());

type Answer = Operation['responses'][string] & { $ref?: string };
/** A response, or the shared one it references (components.responses). */
const resolve = (answer: Answer) =>
  (answer.$ref ? doc.components.responses?.[answer.$ref.split('/').pop() ?? ''] : answer) as Answer;

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );

describe('the OpenAPI document (decision 076)', () => {
  it('is valid OpenAPI 3.1 for an independent validator', async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('says how every operation is authenticated, from what its route declares', () => {
    const schemes = Object.keys(doc.components.securitySchemes ?? {}).sort();
    expect(schemes).toEqual(['bearer', 'csrf', 'operatorCsrf', 'operatorSession', 'operatorToken', 'session']);
    for (const { path, method, op } of operations()) {
      expect(op.security, `${method} ${path}`).toBeDefined();
      for (const requirement of op.security ?? []) {
        for (const name of Object.keys(requirement)) expect(schemes, `${method} ${path}`).toContain(name);
      }
    }
    const security = (method: string, path: string) => doc.paths[path]?.[method]?.security;
    // An owner route (config.permission): bearer, or the cookie with the CSRF token on a change.
    expect(security('put', '/api/v1/store/detail/update/{id}')).toEqual([{ bearer: [] }, { session: [], csrf: [] }]);
    expect(security('get', '/api/v1/orders')).toEqual([{ bearer: [] }, { session: [] }]);
    // A shopper's own route (config.signedIn).
    expect(security('get', '/skulocity/api/v1/ecommerce/wishlist')).toEqual([{ bearer: [] }, { session: [] }]);
    // Open to visitors, acting for whoever is signed in.
    expect(security('post', '/skulocity/api/v1/public/ecommerce/product/addToCart')).toEqual([
      {},
      { bearer: [] },
      { session: [], csrf: [] },
    ]);
    // A platform route: no store, no account.
    expect(security('post', '/api/paypal/webhooks')).toEqual([]);
    // The operator's API (platform host): an operator token, or the console's cookie with its CSRF token.
    expect(security('post', '/platform-api/stores/{tenantId}/actions/{action}')).toEqual([
      { operatorToken: [] },
      { operatorSession: [], operatorCsrf: [] },
    ]);
  });

  it('a visitor gets 401 from every operation the document says needs an account, whatever the body', async () => {
    const protectedOps = operations().filter(
      ({ op }) => op.security?.length && !op.security.some((r) => !Object.keys(r).length),
    );
    expect(protectedOps.length).toBeGreaterThan(100);
    const wrong: string[] = [];
    for (const { path, method, op } of protectedOps) {
      const url = path.replace(/\{[^}]+\}/g, '1');
      // The operator's API answers on the platform host only.
      const on = path.startsWith('/platform-api/') ? 'platform.localhost' : host;
      const res = await t.app.inject({
        method: method as 'GET',
        url,
        headers: { host: on, ...(op.requestBody ? { 'content-type': 'application/json' } : {}) },
        ...(op.requestBody ? { payload: '{"unexpected":true}' } : {}),
      });
      if (res.statusCode !== 401) wrong.push(`${method} ${path}: ${res.statusCode}`);
      if (!op.responses['401']) wrong.push(`${method} ${path}: 401 not documented`);
    }
    expect(wrong).toEqual([]);
  });

  it('documents the statuses every operation can answer, with the one envelope', () => {
    const missing: string[] = [];
    for (const { path, method, op } of operations()) {
      const platform = op.security?.length === 0;
      const expected = [400, 503, ...(platform ? [] : [403, 404]), ...(method === 'GET' ? [] : [413, 415])];
      for (const status of expected) if (!op.responses[status]) missing.push(`${method} ${path}: ${status}`);
      for (const [status, listed] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        const answer = resolve(listed);
        const schema = answer.content?.['application/json']?.schema;
        if (JSON.stringify(schema) !== JSON.stringify({ $ref: '#/components/schemas/ErrorEnvelope' })) {
          missing.push(`${method} ${path}: ${status} without the envelope`);
        }
      }
      const limited = op.responses['429'] && resolve(op.responses['429']);
      if (limited && !limited.headers?.['Retry-After']) missing.push(`${method} ${path}: 429 Retry-After`);
    }
    expect(missing).toEqual([]);
  });
});

describe('examples of the main operations (decision 076)', () => {
  it('are in the document, and the server accepts each as it is written', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/login',
      headers: { host },
      payload: { email: 'owner@lighting.test', password: 'owner-demo-1' },
    });
    const bearer = { authorization: `Bearer ${login.json().data.token}` };
    const withExamples = operations().filter(
      ({ op }) =>
        op.parameters?.some((p) => 'example' in p) ||
        Object.values(op.requestBody?.content ?? {}).some((c) => 'example' in (c as object)),
    );
    const names = withExamples.map(({ method, path }) => `${method} ${path}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /skulocity/api/v1/login',
        'POST /skulocity/api/v1/public/ecommerce/main',
        'GET /skulocity/api/v1/public/ecommerce/getproductdetails',
        'GET /skulocity/api/v1/public/ecommerce/product/search',
        'POST /skulocity/api/v1/public/ecommerce/product/addToCart',
        'POST /skulocity/api/v1/ecommerce/checkout/processorder',
        'PUT /api/v1/store/detail/update/{id}',
      ]),
    );
    for (const { method, path, op } of withExamples) {
      const params = (op.parameters ?? []) as { in: string; name: string; example?: unknown }[];
      const url = path.replace(/\{([^}]+)\}/g, (_, name) => String(params.find((p) => p.name === name)?.example));
      const query = new URLSearchParams(
        params.filter((p) => p.in === 'query' && p.example !== undefined).map((p) => [p.name, String(p.example)]),
      );
      const body = (op.requestBody?.content['application/json'] as { example?: unknown } | undefined)?.example;
      const res = await t.app.inject({
        method: method as 'GET',
        url: `${url}${query.size ? `?${query}` : ''}`,
        headers: { host, ...bearer, 'idempotency-key': `example-${method}-${path}`.slice(0, 100) },
        ...(body !== undefined ? { payload: body as object } : {}),
      });
      // Accepted as written: no field refused. The checkout example meets this account's empty cart.
      const where = `${method} ${path}: ${res.body.slice(0, 300)}`;
      if (path.endsWith('processorder')) expect(res.json().code, where).not.toBe('VALIDATION_FAILED');
      else expect(res.statusCode, where).toBeLessThan(300);
    }
  });
});
