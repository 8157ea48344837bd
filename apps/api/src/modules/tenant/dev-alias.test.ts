import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

// Decision 020: in production the development alias answers only localhost and *.localhost, and
// only when DEV_TENANT_ID names its store; a domain an attacker registers with "development" or
// "localhost" in it is an unknown host like any other.

const main = (t: TestApp, host: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/skulocity/api/v1/public/ecommerce/main', headers: { host, ...headers } });

const LOOKALIKES = [
  'shop.development.attacker.example',
  'development.attacker.example',
  'localhost.attacker.example',
  'attacker-localhost.example',
  'mylocalhost',
];

describe('in production, with DEV_TENANT_ID set', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      config: { NODE_ENV: 'production', DEV_TENANT_ID: 'garden' },
      // The pages too (needs npm run build -w @app/web): an unknown host's page says so.
      webBuildDir: fileURLToPath(new URL('../../../../web/build', import.meta.url)),
    });
  });
  afterAll(() => t.close());

  it.each(LOOKALIKES)("answers %s like any unknown host: 404 'Tenant is not setup.'", async (host) => {
    const res = await main(t, host);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'TENANT_NOT_FOUND', message: 'Tenant is not setup.' });
    expect(res.body).not.toContain('catalogCol');
  });

  it("shows the 'Tenant is not setup.' page to a look-alike host, and the store to localhost", async () => {
    const page = await t.app.inject({ url: '/', headers: { host: 'shop.development.attacker.example' } });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Tenant is not setup.');
    expect(page.body).not.toMatch(/garden/i);
    const local = await t.app.inject({ url: '/', headers: { host: 'localhost' } });
    expect(local.statusCode).toBe(200);
    expect(local.body).not.toContain('Tenant is not setup.');
  });

  it('does not name a tenant for a look-alike in the host lookup, nor accept the development header there', async () => {
    const lookup = await t.app.inject({
      url: '/api/fetch/tenantid/by/hostname?hostName=shop.development.attacker.example',
    });
    expect(lookup.json().tenantId).toBeUndefined();
    const claimed = await main(t, 'shop.development.attacker.example', { tenantid: 'development' });
    expect(claimed.statusCode).toBe(404);
  });

  it('serves localhost and *.localhost through the alias, to the configured store', async () => {
    for (const host of ['localhost', 'localhost:3000', 'LOCALHOST.', 'preview.localhost', 'a.b.localhost:8080']) {
      const res = await main(t, host);
      expect(res.statusCode, host).toBe(200);
      expect(res.json().data.productStoreId, host).toBe('9001');
    }
  });

  it('still serves registered hosts as themselves', async () => {
    expect((await main(t, 'lighting.localhost')).json().data.productStoreId).toBe('9000');
    expect((await main(t, 'power.shop.test')).json().data.productStoreId).toBe('9002');
  });
});

describe('in production, without DEV_TENANT_ID', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { NODE_ENV: 'production', DEV_TENANT_ID: undefined } });
  });
  afterAll(() => t.close());

  it('has no development alias at all', async () => {
    for (const host of ['localhost', 'preview.localhost', 'shop.development.example']) {
      const res = await main(t, host);
      expect(res.statusCode, host).toBe(404);
      expect(res.json().code).toBe('TENANT_NOT_FOUND');
    }
  });

  it('still serves registered hosts', async () => {
    expect((await main(t, 'garden.localhost')).json().data.productStoreId).toBe('9001');
  });
});

describe('outside production', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { NODE_ENV: 'development' } });
  });
  afterAll(() => t.close());

  it('keeps the development alias outside production: any host containing development or localhost is the development store', async () => {
    for (const host of ['localhost', 'shop.development.attacker.example', 'mylocalhost', 'preview.localhost']) {
      const res = await main(t, host);
      expect(res.statusCode, host).toBe(200);
      expect(res.json().data.productStoreId, host).toBe('9000');
    }
  });
});
