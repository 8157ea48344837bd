import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { redactSecrets } from './redact';

// Reset links, guest order links and provider callbacks carry live secrets in their query; an
// operator reading the logs (or anyone the logs are shipped to) must not be able to use them.

describe('the log stream of the app', () => {
  const lines: string[] = [];
  let t: TestApp;
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    t = await createTestApp({
      logger: { level: 'info', stream },
      extraRoutes: async (app) => {
        app.get('/skulocity/api/v1/test/callback-failed', async () => {
          throw new Error('provider callback https://pay.example/cb?signature=ERRSIGNATURE77&id=9 failed');
        });
      },
    });
  });
  afterAll(() => t.close());

  it('never shows a secret query parameter, while the path and the other parameters stay', async () => {
    const host = 'lighting.localhost';
    const urls = [
      '/auth/reset-password?token=RESETTOKEN11',
      '/order?orderId=1000&key=GUESTKEY22',
      '/skulocity/api/v1/ecommerce/order/status?orderId=1000&key=APIKEY33',
      '/auth/login?redirectUrl=%2Forder%3ForderId%3D1000%26key%3DNESTEDKEY44',
      '/callback?code=OAUTHCODE55&state=s1&client_secret=CLIENTSECRET66&access_token=ACCESS77',
      '/x?password=PASSWORD88&X-Amz-Signature=AMZSIG99&apiKey=APIKEYCAMEL10',
      '/%E0%A4%A?token=BADURLTOKEN12',
      '/skulocity/api/v1/test/callback-failed',
    ];
    for (const url of urls) await t.app.inject({ url, headers: { host } });

    const log = lines.join('');
    for (const secret of [
      'RESETTOKEN11',
      'GUESTKEY22',
      'APIKEY33',
      'NESTEDKEY44',
      'OAUTHCODE55',
      'CLIENTSECRET66',
      'ACCESS77',
      'PASSWORD88',
      'AMZSIG99',
      'APIKEYCAMEL10',
      'BADURLTOKEN12',
      'ERRSIGNATURE77',
    ]) {
      expect(log, secret).not.toContain(secret);
    }
    // What an operator needs to follow a request is still there.
    expect(log).toContain('/auth/reset-password?token=');
    expect(log).toContain('orderId=1000');
    expect(log).toContain('state=s1');
    expect(log).toContain('provider callback https://pay.example/cb?signature=');
  });
});

describe('redactSecrets', () => {
  it.each([
    ['/r?token=abc', '/r?token=[redacted]'],
    ['/r?a=1&key=abc&b=2', '/r?a=1&key=[redacted]&b=2'],
    ['/r?KEY=abc#frag', '/r?KEY=[redacted]#frag'],
    ['/r?reset_token=abc', '/r?reset_token=[redacted]'],
    ['/r?next=%2Fo%3Fkey%3Dabc%26x%3D1', '/r?next=%2Fo%3Fkey%3D[redacted]%26x%3D1'],
    ['"url":"/r?secret=abc"', '"url":"/r?secret=[redacted]"'],
    // A product feed's URL is its own secret (decision 054).
    [
      '"url":"/feeds/google-merchant/Ab3_-xYz0123456789abcdefghijklmnopqrstuvwxy.xml"',
      '"url":"/feeds/google-merchant/[redacted].xml"',
    ],
  ])('%s', (input, output) => {
    expect(redactSecrets(input)).toBe(output);
  });

  it('leaves parameters that only look alike', () => {
    for (const s of [
      '/feeds/help.xml',
      '/r?postalCode=12345',
      '/r?promoCode=SPRING',
      '/r?keyword=lamp',
      '/r?monkey=1',
      'no url here',
    ]) {
      expect(redactSecrets(s)).toBe(s);
    }
  });
});
