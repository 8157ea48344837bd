import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

// The footer's newsletter frame loads the store's embed from /newsletter/embed (a route of the web
// app), so that it can load lazily. Needs the web build.

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ webBuildDir: fileURLToPath(new URL('../../../../web/build', import.meta.url)) });
});
afterAll(() => t.close());

const get = (host: string, url = '/newsletter/embed') => t.app.inject({ method: 'GET', url, headers: { host } });

describe('the newsletter embed', () => {
  it("serves the store's own embed under a policy that allows its form and nothing else", async () => {
    const res = await get('garden.localhost');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<form action="https://newsletter.example/fernwood/subscribe" method="post">');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain('sandbox allow-forms allow-popups');
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).not.toContain('script-src');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers['x-robots-tag']).toBe('noindex');
  });

  it('is not found for a store without one, nor on an unknown host', async () => {
    expect((await get('lighting.localhost')).statusCode).toBe(404);
    expect((await get('nowhere.shop.test')).statusCode).toBe(404);
  });

  it('leaves the pages their own policy, which may frame it', async () => {
    const home = await get('garden.localhost', '/');
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('src="/newsletter/embed"');
    const csp = String(home.headers['content-security-policy']);
    expect(csp).toContain("frame-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self' 'nonce-/);
  });
});
