import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { schema } from '@app/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestApp } from '../test/harness';
import { PAGE_BODY_LIMIT_BYTES } from './page-guards';

// The storefront's pages (React Router's build behind Fastify) get the same guards as the API:
// a body limit checked before the body is read, control characters refused, 405 for a method a
// page does not take, and a CSP that lets the chat provider in only where its widget may appear.
// Needs the web build: npm run build -w @app/web.

const webBuildDir = fileURLToPath(new URL('../../../web/build', import.meta.url));
const host = 'lighting.localhost';
const origin = `http://${host}`;
const ENVELOPE_KEYS = ['code', 'data', 'error', 'errors', 'message', 'requestId'];
const CHAT_URL = 'https://chat.example';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ webBuildDir, config: { CHAT_WIDGET_URL: `${CHAT_URL}/embed` } });
  // No demo store has a chat widget: the garden store gets one, as its owner would set it.
  await t.database.db
    .update(schema.storeSettings)
    .set({ chatWidgetId: 'garden-widget/1' })
    .where(eq(schema.storeSettings.tenantId, 'garden'));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

function expectEnvelope(res: { json(): Record<string, unknown>; headers: Record<string, unknown> }) {
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(ENVELOPE_KEYS);
  expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9]{16}$/);
  expect(body.requestId).toBe(res.headers['x-request-id']);
}

/** A browser's first visit to the login page: its pre-session cookie and the form's CSRF token. */
async function loginForm(pageHost = host) {
  const res = await t.app.inject({ url: '/auth/login', headers: { host: pageHost } });
  expect(res.statusCode).toBe(200);
  const cookie = String(res.headers['set-cookie']).split(';')[0] ?? '';
  const token = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1];
  expect(token).toBeTruthy();
  return { cookie, token: token ?? '' };
}

/** Raw HTTP against the listening server: what a client that does not play by the rules sends. */
function rawRequest(
  method: string,
  path: string,
  headers: Record<string, string | number>,
  body: string | null,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const { port } = t.app.server.address() as { port: number };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host, ...headers } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    // The server may answer and close before the client has sent everything it announced.
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') reject(err);
    });
    if (body !== null) req.write(body);
    // A body announced but never sent in full: the answer must not wait for it.
    if (headers['content-length'] === undefined || body?.length === Number(headers['content-length'])) req.end();
  });
}

describe('page form posts: body limit', () => {
  it('is the API limit, 1 MiB', () => {
    expect(PAGE_BODY_LIMIT_BYTES).toBe(1024 * 1024);
  });

  it('answers a 2 MiB login post with a 413 page, as a person posted it', async () => {
    const { cookie, token } = await loginForm();
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { host, origin, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${token}&email=a%40b.test&password=${'x'.repeat(2 * 1024 * 1024)}`,
    });
    expect(res.statusCode).toBe(413);
    expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
    expect(res.body).toContain('This form is larger than this site accepts.');
    expect(res.body).toContain(`Request id ${res.headers['x-request-id']}`);
  });

  it('refuses an announced 60 MB body before reading it', async () => {
    const res = await rawRequest(
      'POST',
      '/auth/login',
      { 'content-type': 'application/x-www-form-urlencoded', 'content-length': 60 * 1024 * 1024 },
      'email=a',
    );
    expect(res.status).toBe(413);
    expect(res.body).toContain(`Request id ${res.headers['x-request-id']}`);
  });

  it('counts the bytes of a chunked body and stops at the limit', async () => {
    const res = await rawRequest(
      'POST',
      '/auth/login',
      { 'content-type': 'application/x-www-form-urlencoded', 'transfer-encoding': 'chunked' },
      `email=${'x'.repeat(PAGE_BODY_LIMIT_BYTES + 10)}`,
    );
    expect(res.status).toBe(413);
    expect(res.body).toContain('This form is larger than this site accepts.');
  });

  it('reads a browser-made multipart form, whose boundary has capitals', async () => {
    const { cookie, token } = await loginForm();
    const b = '----WebKitFormBoundaryAbCdEf123';
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { host, origin, cookie, 'content-type': `multipart/form-data; boundary=${b}` },
      payload:
        `--${b}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${token}\r\n` +
        `--${b}\r\nContent-Disposition: form-data; name="email"\r\n\r\nshopper@lighting.test\r\n` +
        `--${b}\r\nContent-Disposition: form-data; name="password"\r\n\r\nshopper-demo-1\r\n--${b}--\r\n`,
    });
    expect(res.statusCode).toBe(302);
  });

  it.each([
    [
      'a broken multipart form',
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na',
    ],
    ['JSON', 'application/json', '{"email":'],
    ['plain text', 'text/plain', 'email=a'],
  ])('answers %s posted to a page with a 400 page, not a 500', async (_label, type, payload) => {
    const { cookie } = await loginForm();
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { host, origin, cookie, 'content-type': type },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
    expect(res.body).toContain('cannot read');
  });

  it('still logs a shopper in with a normal login form', async () => {
    const { cookie, token } = await loginForm();
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { host, origin, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        _csrf: token,
        email: 'shopper@lighting.test',
        password: 'shopper-demo-1',
      }).toString(),
    });
    expect(res.statusCode).toBe(302);
    expect(String(res.headers['set-cookie'])).toMatch(/sid=/);
  });
});

describe('page addresses and forms: control characters', () => {
  it.each([
    ['the guest order page key', '/order?orderId=1000&key=%00'],
    ['the order page id', '/order?orderId=%00'],
    ['a search page', '/product/search/lamp%00'],
    ['a page data request', '/order.data?orderId=%01'],
  ])('answers %s with a 400 page, not 500', async (_label, url) => {
    const res = await t.app.inject({ url, headers: { host } });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(res.body).toContain('Error 400');
    expect(res.body).toContain(String(res.headers['x-request-id']));
  });

  it('answers a form post with a NUL in a field with a 400 page and does not act on it', async () => {
    const { cookie, token } = await loginForm();
    const res = await t.app.inject({
      method: 'POST',
      url: '/contact',
      headers: { host, origin, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${token}&name=Ann&email=ann%40example.test&message=Hello%00there%2C+about+a+lamp`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Error 400');
    const kept = await t.database.db
      .select()
      .from(schema.contactMessages)
      .where(eq(schema.contactMessages.tenantId, 'lighting'));
    expect(kept).toEqual([]);
  });

  it('keeps line breaks in a multi-line form field', async () => {
    const { cookie, token } = await loginForm();
    const res = await t.app.inject({
      method: 'POST',
      url: '/contact',
      headers: { host, origin, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${token}&name=Ann&email=ann%40example.test&message=Line+one%0D%0ALine+two%09tabbed`,
    });
    expect(res.statusCode).toBe(200);
    const kept = await t.database.db
      .select()
      .from(schema.contactMessages)
      .where(eq(schema.contactMessages.tenantId, 'lighting'));
    expect(kept.map((m) => m.message)).toEqual(['Line one\r\nLine two\ttabbed']);
  });
});

describe('page paths with a method they do not take', () => {
  it.each([
    ['PUT', '/auth/login'],
    ['TRACE', '/'],
    ['DELETE', '/cart'],
    ['PATCH', '/product/search/lamp'],
    ['OPTIONS', '/checkout'],
  ] as const)('%s %s answers 405 with Allow and the envelope', async (method, url) => {
    // light-my-request's type leaves TRACE out; it sends it all the same.
    const res = await t.app.inject({ method: method as 'PUT', url, headers: { host } });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    expectEnvelope(res);
    expect(res.json().code).toBe('METHOD_NOT_ALLOWED');
  });

  it('answers before reading the body of such a request', async () => {
    const res = await rawRequest(
      'PUT',
      '/auth/login',
      { 'content-type': 'application/x-www-form-urlencoded', 'content-length': 60 * 1024 * 1024 },
      'email=a',
    );
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    expect(res.headers.connection).toBe('close');
  });

  it("keeps an API route's own Allow, even for a path outside the API prefixes", async () => {
    for (const method of ['POST', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/healthz', headers: { host } });
      expect(res.statusCode, method).toBe(405);
      expect(res.headers.allow, method).toBe('GET');
    }
  });

  it('keeps 404 for API paths that do not exist', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/skulocity/api/v1/no/such/thing', headers: { host } });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });
});

describe('page CSP and the chat provider', () => {
  const chatAllowedBy = (csp: unknown) => String(csp).includes(CHAT_URL);

  it("lets the chat provider's scripts in on the home page of a store with a widget", async () => {
    const res = await t.app.inject({ url: '/', headers: { host: 'garden.localhost' } });
    expect(res.statusCode).toBe(200);
    expect(chatAllowedBy(res.headers['content-security-policy'])).toBe(true);
  });

  it('keeps them out of a store without a widget', async () => {
    const res = await t.app.inject({ url: '/', headers: { host } });
    expect(res.statusCode).toBe(200);
    expect(chatAllowedBy(res.headers['content-security-policy'])).toBe(false);
  });

  it('keeps them out of checkout, account, order, auth and dashboard pages', async () => {
    const shopper = await signIn(t.app, 'shopper@garden.test', 'shopper-demo-1', 'garden.localhost');
    const owner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', 'garden.localhost');
    const pages: [string, string][] = [
      ['/checkout', shopper.cookie],
      ['/CHECKOUT/', shopper.cookie],
      ['/account/profile', shopper.cookie],
      ['/order/history', shopper.cookie],
      ['/auth/login', ''],
      ['/manage-store/settings/theme', owner.cookie],
      ['/manage-store/settings/cms', owner.cookie],
    ];
    for (const [url, cookie] of pages) {
      const res = await t.app.inject({ url, headers: { host: 'garden.localhost', cookie } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy'], url).toContain("script-src 'self' 'nonce-");
      expect(chatAllowedBy(res.headers['content-security-policy']), url).toBe(false);
    }
  });
});
