import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../test/harness';

// Errors Fastify or Node raise before a route runs (bad URL, body parse, timeout, oversized headers)
// still answer with the project's envelope and a request id, and never echo the address.

const host = 'lighting.localhost';
const ENVELOPE_KEYS = ['code', 'data', 'error', 'errors', 'message', 'requestId'];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    requestTimeoutMs: 300,
    extraRoutes: async (app) => {
      app.post(
        '/skulocity/api/v1/test/echo-json',
        { schema: { body: z.strictObject({ name: z.string() }) } },
        async (req) => ({ data: req.body }),
      );
      app.get('/skulocity/api/v1/test/item/:id', async () => ({ data: null }));
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

function port(): number {
  return (t.app.server.address() as { port: number }).port;
}

/** Writes raw bytes to the server and resolves with everything it answers before closing. */
function rawExchange(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port(), '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.write(request);
  });
}

function parseRaw(raw: string) {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [status = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return { status: Number(status.split(' ')[1]), headers, body };
}

function expectEnvelope(body: unknown, requestIdHeader: unknown) {
  const b = body as Record<string, unknown>;
  expect(Object.keys(b).sort()).toEqual(ENVELOPE_KEYS);
  expect(b.error).toBe(true);
  expect(requestIdHeader).toMatch(/^[A-Za-z0-9]{16}$/);
  expect(b.requestId).toBe(requestIdHeader);
  expect((b.data as { message: string }).message).toBe(b.message);
}

describe('errors raised before routing', () => {
  it('answers a badly encoded address with 400, the envelope and a request id, without echoing it', async () => {
    for (const url of ['/%E0%A4%A', '/skulocity/api/v1/%E0%A4%A']) {
      const res = await t.app.inject({ url, headers: { host } });
      expect(res.statusCode, url).toBe(400);
      expectEnvelope(res.json(), res.headers['x-request-id']);
      expect(res.json().code).toBe('BAD_REQUEST');
      expect(res.body).not.toContain('%E0');
      // The security headers every other answer carries.
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('answers a parameter over the length limit with 414 and the envelope', async () => {
    const res = await t.app.inject({ url: `/skulocity/api/v1/test/item/${'a'.repeat(300)}`, headers: { host } });
    expect(res.statusCode).toBe(414);
    expectEnvelope(res.json(), res.headers['x-request-id']);
    expect(res.body).not.toContain('aaaa');
  });

  it('answers invalid JSON with 400 and the envelope', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/test/echo-json',
      headers: { host, 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(res.statusCode).toBe(400);
    expectEnvelope(res.json(), res.headers['x-request-id']);
    expect(res.json().message).toMatch(/not valid JSON/);
  });

  it('answers an oversized chunked JSON body with 413 and the envelope', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const chunks = Array.from({ length: 20 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    const raw = await rawExchange(
      `POST /skulocity/api/v1/test/echo-json HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
        `Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunks}0\r\n\r\n`,
    );
    const res = parseRaw(raw);
    expect(res.status).toBe(413);
    expectEnvelope(JSON.parse(res.body), res.headers['x-request-id']);
  });

  it('answers a request whose body never arrives with 408 and the envelope, once the timeout passes', async () => {
    const raw = await rawExchange(
      `POST /skulocity/api/v1/test/echo-json HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 100\r\n\r\n{"name":',
    );
    const res = parseRaw(raw);
    expect(res.status).toBe(408);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expectEnvelope(JSON.parse(res.body), res.headers['x-request-id']);
    expect(JSON.parse(res.body).message).toMatch(/too long/);
  });

  it('answers headers too large for the server with 431 and the envelope', async () => {
    const raw = await rawExchange(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`);
    const res = parseRaw(raw);
    expect(res.status).toBe(431);
    expectEnvelope(JSON.parse(res.body), res.headers['x-request-id']);
  });

  it('answers a malformed request line with 400 and the envelope', async () => {
    const res = parseRaw(await rawExchange('GARBAGE\r\n\r\n'));
    expect(res.status).toBe(400);
    expectEnvelope(JSON.parse(res.body), res.headers['x-request-id']);
  });
});
