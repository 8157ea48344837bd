import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

// The platform's own host serves no store: neither a registered host nor the development alias
// (which answers every *localhost host outside production) may bind it to one.

const main = (t: TestApp, host: string) =>
  t.app.inject({ method: 'POST', url: '/skulocity/api/v1/public/ecommerce/main', headers: { host } });

describe('the platform host', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ modules: ['catalog'], config: { NODE_ENV: 'development' } });
  });
  afterAll(() => t.close());

  it('answers store routes with 404 TENANT_NOT_FOUND, though *.localhost opens a store through the alias', async () => {
    const aliased = await main(t, 'anything.localhost');
    expect(aliased.statusCode).toBe(200);
    for (const host of ['platform.localhost', 'platform.localhost:3000', 'PLATFORM.localhost.']) {
      const res = await main(t, host);
      expect(res.statusCode, host).toBe(404);
      expect(res.json().code).toBe('TENANT_NOT_FOUND');
    }
  });

  it('does not name a tenant for the platform host in the host lookup', async () => {
    const lookup = await t.app.inject({ url: '/api/fetch/tenantid/by/hostname?hostName=platform.localhost' });
    expect(lookup.json().tenantId).toBeUndefined();
  });

  it('follows PLATFORM_HOST when configured', async () => {
    const other = await createTestApp({
      database: t.database,
      modules: ['catalog'],
      config: { NODE_ENV: 'development', PLATFORM_HOST: 'admin.localhost' },
    });
    try {
      expect((await main(other, 'admin.localhost')).statusCode).toBe(404);
      expect((await main(other, 'platform.localhost')).statusCode).toBe(200);
    } finally {
      await other.app.close();
    }
  });
});
