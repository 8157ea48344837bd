import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    extraRoutes: async (app) => {
      // Routes used only here: a JSON body with a strict schema, and a failure of ours.
      app.post(
        '/skulocity/api/v1/test/echo',
        { schema: { body: z.strictObject({ name: z.string().min(1), qty: z.number().int() }) } },
        async (req) => ({ data: req.body }),
      );
      app.get('/skulocity/api/v1/test/boom', async () => {
        throw new Error('secret internal detail at /srv/app/db.ts:42');
      });
    },
  });
});
afterAll(() => t.close());

const host = 'lighting.localhost';
const ENVELOPE_KEYS = ['code', 'data', 'error', 'errors', 'message', 'requestId'];

describe('error envelope', () => {
  it('answers malformed JSON with 400 and a message naming the problem', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/test/echo',
      headers: { host, 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json()).sort()).toEqual(ENVELOPE_KEYS);
    expect(res.json().message).toMatch(/not valid JSON/);
    expect(res.json().data.message).toBe(res.json().message);
    expect(res.json().requestId).toBe(res.headers['x-request-id']);
  });

  it('names the field for a wrong type and for an unknown field', async () => {
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/test/echo',
      headers: { host },
      payload: { name: 'a', qty: 'many' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0]).toMatch(/^body\.qty: /);
    const extra = await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/test/echo',
      headers: { host },
      payload: { name: 'a', qty: 1, isAdmin: true },
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().errors.join()).toContain('isAdmin');
  });

  it('answers an over-long body with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/test/echo',
      headers: { host },
      payload: { name: 'x'.repeat(1_100_000), qty: 1 },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers an unknown API path with 404', async () => {
    const res = await t.app.inject({ url: '/skulocity/api/v1/no/such/thing', headers: { host } });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/skulocity/api/v1/public/ecommerce/main',
      headers: { host },
    });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    const get = await t.app.inject({ method: 'POST', url: '/api/v1/cms/fetch', headers: { host } });
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('GET');
  });

  it('hides internals of a server error', async () => {
    const res = await t.app.inject({ url: '/skulocity/api/v1/test/boom', headers: { host } });
    expect(res.statusCode).toBe(500);
    expect(res.json().message).toBe('Something went wrong, please try again.');
    expect(res.body).not.toMatch(/secret|\/srv|at \w|stack/);
  });
});

describe('request ids', () => {
  it('puts a 16-character alphanumeric id on every response, errors included', async () => {
    for (const url of ['/healthz', '/api/v1/cms/fetch', '/nope/nope']) {
      const res = await t.app.inject({ url, headers: { host } });
      expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9]{16}$/);
    }
    const a = await t.app.inject({ url: '/healthz' });
    const b = await t.app.inject({ url: '/healthz' });
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('keeps an incoming id only when it has that form', async () => {
    const kept = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'AbCdEfGh12345678' } });
    expect(kept.headers['x-request-id']).toBe('AbCdEfGh12345678');
    for (const bad of ['short', 'AbCdEfGh12345678x', 'AbCdEfGh1234567-', '<script>alert(1)</s']) {
      const res = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': bad } });
      expect(res.headers['x-request-id']).not.toBe(bad);
      expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9]{16}$/);
    }
  });
});

describe('health and headers', () => {
  it('answers /healthz and /readyz on any host', async () => {
    expect((await t.app.inject({ url: '/healthz', headers: { host: 'whatever.example' } })).json()).toEqual({
      status: 'ok',
    });
    expect((await t.app.inject({ url: '/readyz', headers: { host: 'whatever.example' } })).json()).toEqual({
      status: 'ready',
    });
  });

  it('sends security headers on every response', async () => {
    for (const url of ['/api/v1/cms/fetch', '/nope']) {
      const res = await t.app.inject({ url, headers: { host } });
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    }
  });
});

describe('OpenAPI', () => {
  it('documents every API path in OpenAPI 3.1, and serves the docs UI', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    for (const p of [
      '/api/fetch/tenantid/by/hostname',
      '/api/fetch/tenant',
      '/skulocity/api/v1/public/ecommerce/main',
      '/skulocity/api/v1/public/ecommerce/categories',
      '/api/v1/store/detail/fetch',
      '/api/v1/store/config/fetch',
      '/api/v1/store/default/theme_colors/fetch',
      '/api/v1/cms/fetch',
      '/api/v1/product/banner/fetch',
      '/assets/seo-meta.config.json',
    ]) {
      expect(doc.paths[p], p).toBeDefined();
    }
    const ui = await t.app.inject({ url: '/api/docs/', headers: { host: 'unknown.example' } });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
  });
});
