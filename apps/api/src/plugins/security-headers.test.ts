import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { securityHeaders, securityHeadersPlugin } from './security-headers';

describe('security headers, worked out once', () => {
  it("are helmet's for the options given", () => {
    const h = securityHeaders({
      contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], frameAncestors: ["'none'"] } },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      crossOriginResourcePolicy: { policy: 'same-site' },
    });
    expect(h['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(h['content-security-policy']).toContain("default-src 'self'");
    expect(h).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'cross-origin-resource-policy': 'same-site',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
    });
    expect(h['x-powered-by']).toBeUndefined();
  });

  it('are on every answer, and a route that sets its own CSP keeps it', async () => {
    const app = Fastify();
    await app.register(securityHeadersPlugin, { contentSecurityPolicy: { directives: { defaultSrc: ["'self'"] } } });
    app.get('/json', async () => ({ ok: true }));
    app.get('/page', async (_req, reply) => {
      reply.header('content-security-policy', "default-src 'none'");
      return 'page';
    });
    const json = await app.inject({ url: '/json' });
    expect(json.headers['x-content-type-options']).toBe('nosniff');
    expect(json.headers['content-security-policy']).toContain("default-src 'self'");
    const missing = await app.inject({ url: '/nowhere' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-frame-options']).toBe('SAMEORIGIN');
    const page = await app.inject({ url: '/page' });
    expect(page.headers['content-security-policy']).toBe("default-src 'none'");
    await app.close();
  });
});
