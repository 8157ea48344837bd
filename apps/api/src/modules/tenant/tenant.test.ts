import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, SEEDED_HOSTS, SEEDED_TENANTS, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const main = (host: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/skulocity/api/v1/public/ecommerce/main', headers: { host, ...headers } });

describe("a store's answers on its several hosts", () => {
  it('are kept once for the store, each host getting links to itself (decision 124)', async () => {
    t.services.publicCache.clear();
    const local = await main('lighting.localhost');
    const alias = await main('lighting.shop.test');
    expect(local.statusCode).toBe(200);
    expect(alias.statusCode).toBe(200);
    // The category pictures are absolute links: each host's answer names that host only.
    expect(local.body).toContain('http://lighting.localhost');
    expect(alias.body).toContain('http://lighting.shop.test');
    expect(alias.body).not.toContain('lighting.localhost');
    expect(t.services.publicCache.stats()).toMatchObject({ stores: 1, answers: 1 });
    // A revalidation on the alias is answered 304 with the alias's own ETag.
    const again = await main('lighting.shop.test', { 'if-none-match': String(alias.headers.etag) });
    expect(again.statusCode).toBe(304);
  });
});

describe('host to tenant', () => {
  it.each(SEEDED_TENANTS)('binds %s hosts (.localhost and .shop.test, any port) to their store', async (tenant) => {
    const { storeId } = SEEDED_HOSTS[tenant];
    for (const host of [`${tenant}.localhost:3000`, `${tenant}.shop.test`, `${tenant.toUpperCase()}.SHOP.TEST:8080`]) {
      const res = await main(host);
      expect(res.statusCode, host).toBe(200);
      expect(res.json().data.productStoreId).toBe(storeId);
    }
  });

  it('serves plain localhost and other development hosts through the development alias (first seeded store)', async () => {
    for (const host of ['localhost:3000', '127-0-0-1.development.example', 'shop.localhost']) {
      const res = await main(host);
      expect(res.statusCode, host).toBe(200);
      expect(res.json().data.productStoreId).toBe('9000');
    }
  });

  it('lets registered hosts win over the development rule', async () => {
    expect((await main('power.localhost')).json().data.productStoreId).toBe('9002');
  });

  it("answers 404 'Tenant is not setup.' for an unknown host", async () => {
    const res = await main('unknown-store.example.com');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: true, code: 'TENANT_NOT_FOUND', message: 'Tenant is not setup.' });
  });
});

describe('tenantId header', () => {
  it('is accepted when it names the host tenant, or development on a development host', async () => {
    expect((await main('garden.localhost', { tenantid: 'garden' })).statusCode).toBe(200);
    expect((await main('garden.localhost', { tenantid: 'development' })).statusCode).toBe(200);
    expect((await main('localhost', { tenantid: 'development' })).statusCode).toBe(200);
  });

  it('is refused with 403 and no data when it names another tenant', async () => {
    const res = await main('garden.localhost', { tenantid: 'lighting' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('TENANT_MISMATCH');
    expect(res.body).not.toContain('catalogCol');
  });

  it('is refused when it says development on a production host', async () => {
    expect((await main('garden.shop.test', { tenantid: 'development' })).statusCode).toBe(403);
  });
});

describe('GET /api/fetch/tenantid/by/hostname', () => {
  it.each(SEEDED_TENANTS)('returns tenantId, isWs2Public and erpUrl for %s', async (tenant) => {
    const res = await t.app.inject({
      url: `/api/fetch/tenantid/by/hostname?hostName=${tenant}.shop.test`,
      headers: { host: 'api.example.com' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ tenantId: tenant, isWs2Public: true, accessMode: 'public', erpUrl: null });
  });

  it('returns no tenantId for an unknown host', async () => {
    const res = await t.app.inject({ url: '/api/fetch/tenantid/by/hostname?hostName=nobody.example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.json().tenantId).toBeUndefined();
  });

  it('names the missing parameter', async () => {
    const res = await t.app.inject({ url: '/api/fetch/tenantid/by/hostname' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('hostName');
  });
});

describe('GET /api/fetch/tenant', () => {
  it.each(SEEDED_TENANTS)('returns %s with its stores and host names', async (tenant) => {
    const { host, storeId } = SEEDED_HOSTS[tenant];
    const res = await t.app.inject({ url: `/api/fetch/tenant?tenantId=${tenant}`, headers: { host } });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.tenantId).toBe(tenant);
    expect(data.productStores).toHaveLength(1);
    expect(data.productStores[0]).toMatchObject({ productStoreId: storeId, hostName: host });
    expect(data.productStores[0].hostNames).toEqual([`${tenant}.localhost`, `${tenant}.shop.test`]);
  });

  it("refuses to read another tenant from a store's host", async () => {
    const res = await t.app.inject({
      url: '/api/fetch/tenant?tenantId=garden',
      headers: { host: 'lighting.localhost' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain('garden.localhost');
  });
});
