import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, type SeededTenant, type TestApp } from '../../test/harness';
import { auditEntries, ownerCaller, signInOwners } from '../../test/owners';

/**
 * What the API reads can be written back: the details and config reads, sent
 * back unchanged, are taken (2xx), change nothing and leave the audit log alone; an update names
 * only the fields it changes; another store's id is refused before the body is judged.
 */
let t: TestApp;
const owners = {} as Record<SeededTenant, BrowserSession>;

beforeAll(async () => {
  t = await createTestApp();
  await signInOwners(t.app, owners, ['lighting', 'garden', 'power']);
});
afterAll(() => t?.close());

const call = ownerCaller(() => t.app, owners);

const auditCount = (tenant: string) => auditEntries(t.database.db, tenant);

describe('store details: read, then write back', () => {
  it.each(['lighting', 'garden', 'power'] as const)('%s: the read written back changes nothing', async (tenant) => {
    const id = SEEDED_HOSTS[tenant].storeId;
    const read = (await call(tenant, 'GET', '/api/v1/store/detail/fetch')).json().data;
    const before = await auditCount(tenant);
    const res = await call(tenant, 'PUT', `/api/v1/store/detail/update/${id}`, read);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.kinds).toEqual([]);
    expect(await auditCount(tenant)).toBe(before);
  });

  it('a body naming only companyName changes only companyName', async () => {
    const id = SEEDED_HOSTS.power.storeId;
    const before = (
      await t.app.inject({
        method: 'GET',
        url: '/api/v1/store/detail/fetch',
        headers: { host: SEEDED_HOSTS.power.host },
      })
    ).json().data;
    const res = await call('power', 'PUT', `/api/v1/store/detail/update/${id}`, { companyName: 'Power Tools & Co.' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.kinds).toEqual(['details']);
    // The draft is the read with that one change: sent as a whole, there is nothing more to save.
    const published = await call('power', 'PUT', `/api/v1/store/detail/update/${id}`, {
      ...before,
      companyName: 'Power Tools & Co.',
    });
    expect(published.json().data.kinds).toEqual([]);
  });

  it('a read-only field sent different is refused, naming it', async () => {
    const res = await call('lighting', 'PUT', `/api/v1/store/detail/update/9000`, { storeName: 'Another name' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/storeName/);
  });

  it('an unknown field is refused', async () => {
    const res = await call('lighting', 'PUT', `/api/v1/store/detail/update/9000`, { companyNmae: 'Typo' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/companyNmae/);
  });

  it("another store's id is a 404 whatever the body", async () => {
    for (const body of [{ companyName: 'x' }, { logo: 5 }, 'not json at all']) {
      const res = await call('garden', 'PUT', `/api/v1/store/detail/update/9000`, body);
      expect(res.statusCode, res.body).toBe(404);
    }
  });
});

describe('theme: the config read written back', () => {
  it.each(['lighting', 'garden', 'power'] as const)('%s: taken, nothing saved', async (tenant) => {
    const id = SEEDED_HOSTS[tenant].storeId;
    const read = (await call(tenant, 'GET', '/api/v1/store/config/fetch')).json().data;
    const before = await auditCount(tenant);
    const res = await call(tenant, 'PUT', `/api/v1/store/theme/update/${id}`, read);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.kinds).toEqual([]);
    expect(await auditCount(tenant)).toBe(before);
  });
});
