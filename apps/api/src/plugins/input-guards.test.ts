import { schema } from '@app/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hasControlCharacter } from '../lib/control-characters';
import { createTestApp, type TestApp } from '../test/harness';

// A NUL byte reaching PostgreSQL is a 500 ("invalid byte sequence"); other control characters
// are never text a person typed. Every address and body is checked once, before any schema.

const host = 'lighting.localhost';
const ENVELOPE_KEYS = ['code', 'data', 'error', 'errors', 'message', 'requestId'];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    extraRoutes: async (app) => {
      // A route whose schema forgot any rule of its own: the guard still holds.
      app.post(
        '/skulocity/api/v1/test/loose',
        { schema: { body: z.object({ note: z.unknown() }).passthrough() } },
        async (req) => ({ data: req.body }),
      );
    },
  });
});
afterAll(() => t.close());

function expect400(res: { statusCode: number; json(): Record<string, unknown>; headers: Record<string, unknown> }) {
  expect(res.statusCode).toBe(400);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(ENVELOPE_KEYS);
  expect(body.code).toBe('VALIDATION_FAILED');
  expect(body.message).toMatch(/control character/);
  expect(body.requestId).toBe(res.headers['x-request-id']);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
}

describe('control characters in the address', () => {
  it.each([
    ['product search', '/skulocity/api/v1/public/ecommerce/product/search?searchText=%00'],
    ['order status', '/skulocity/api/v1/ecommerce/order/status?orderId=%00'],
    ['order status key', '/skulocity/api/v1/ecommerce/order/status?orderId=1000&key=%00'],
    ['order PDF', '/skulocity/api/v1/ecommerce/order/order/pdf?orderId=%00'],
    ['escape in a search', '/skulocity/api/v1/public/ecommerce/product/search?searchText=lamp%1B'],
    ['DEL in a search', '/skulocity/api/v1/public/ecommerce/product/search?searchText=lamp%7f'],
    ['a line break in a one-line parameter', '/skulocity/api/v1/public/ecommerce/product/search?searchText=a%0Ab'],
    ['a control character in the path', '/skulocity/api/v1/public/ecommerce/product%00/search?searchText=lamp'],
  ])('refuses %s with 400 and the envelope, not 500', async (_label, url) => {
    expect400(await t.app.inject({ url, headers: { host } }));
  });

  it('still serves ordinary text, an encoded percent sign and non-Latin letters', async () => {
    for (const text of ['lamp', '100%25', '%E2%9C%93 l%C3%A4mpe', 'a+b']) {
      const res = await t.app.inject({
        url: `/skulocity/api/v1/public/ecommerce/product/search?searchText=${text}`,
        headers: { host },
      });
      expect(res.statusCode, text).toBe(200);
    }
  });
});

describe('cookies that do not decode to text', () => {
  it.each([
    ['a NUL', 'cart=%00'],
    ['bad percent-encoding', 'cart=%E0%A4%A'],
    ['a bad session cookie', 'sid=%E0%A4%A'],
  ])('treats %s as no cookie: an empty cart, not 500', async (_label, cookie) => {
    const res = await t.app.inject({
      url: '/skulocity/api/v1/public/ecommerce/cart/showcart',
      headers: { host, cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(JSON.stringify(res.json().data)).toContain('"lines":[]');
  });
});

describe('control characters in a JSON body', () => {
  it('refuses a NUL in a field no schema rule looks at, and stores nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/store/contact',
      headers: { host },
      payload: { name: 'Ann', email: 'ann@example.test', message: 'Hello\u0000there, a question about a lamp.' },
    });
    expect400(res);
    const kept = await t.database.db
      .select()
      .from(schema.contactMessages)
      .where(eq(schema.contactMessages.tenantId, 'lighting'));
    expect(kept.some((m) => m.message.includes('Hello'))).toBe(false);
  });

  it('looks into nested values and keys', async () => {
    for (const note of [{ deep: ['ok', { deeper: 'x\u0007' }] }, { 'key\u0000': 'v' }]) {
      expect400(
        await t.app.inject({
          method: 'POST',
          url: '/skulocity/api/v1/test/loose',
          headers: { host },
          payload: { note },
        }),
      );
    }
  });

  it('keeps tab and line breaks in text, where multi-line text belongs', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/store/contact',
      headers: { host },
      payload: { name: 'Ann', email: 'ann@example.test', message: 'Line one\r\nLine two\n\tindented' },
    });
    expect(res.statusCode).toBe(200);
  });

  it('does not fail on a deeply nested body', async () => {
    const payload = `{"note":${'['.repeat(5000)}"\\u0000"${']'.repeat(5000)}}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/test/loose',
      headers: { host, 'content-type': 'application/json' },
      payload,
    });
    expect400(res);
  });
});

describe('hasControlCharacter', () => {
  it('tells control characters from text', () => {
    expect(hasControlCharacter('plain text, ünïcode ✓', 'line')).toBe(false);
    expect(hasControlCharacter('a\tb', 'line')).toBe(true);
    expect(hasControlCharacter('a\tb\r\nc', 'multiline')).toBe(false);
    for (const c of ['\u0000', '\u0001', '\u000b', '\u001f', '\u007f']) {
      expect(hasControlCharacter(`a${c}b`, 'multiline'), JSON.stringify(c)).toBe(true);
    }
    // C1 controls and other Unicode stay allowed: they are not what breaks storage.
    expect(hasControlCharacter('\u0080\u00a0\u200b', 'line')).toBe(false);
  });
});
