import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, type SeededTenant, type TestApp } from '../../test/harness';
import { auditEntries, ownerCaller, signInOwners } from '../../test/owners';

/**
 * What the API reads can be written back, for the banners: the draft read sent
 * back whole, and one banner of it sent back alone, are taken (2xx) and change nothing (no draft, no
 * audit entry); one banner's update is a patch; read-only fields sent different, and unknown
 * fields, are refused naming them; another store's owner gets a 404 whatever the body.
 */
let t: TestApp;
const owners = {} as Record<SeededTenant, BrowserSession>;

beforeAll(async () => {
  t = await createTestApp();
  await signInOwners(t.app, owners, ['lighting', 'garden']);
});
afterAll(() => t?.close());

const call = ownerCaller(() => t.app, owners);

const auditCount = (tenant: string) => auditEntries(t.database.db, tenant);

type Banner = { bannerId: string; imageUrl: string; title: string | null; altText: string; text: string | null };
const readDraft = async () => (await call('lighting', 'GET', '/api/v1/product/banner/draft')).json().data;

describe('banners: read, then write back', () => {
  it('the draft read written back whole changes nothing', async () => {
    const read = await readDraft();
    expect(read.banners.length).toBeGreaterThan(0);
    const before = await auditCount('lighting');
    const res = await call('lighting', 'PUT', '/api/v1/product/banner/draft', read);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual(read);
    expect(await auditCount('lighting')).toBe(before);
    expect(await readDraft()).toEqual(read);
  });

  it('one banner as read, sent back alone, changes nothing', async () => {
    const read = await readDraft();
    const banner = read.banners[0] as Banner;
    const before = await auditCount('lighting');
    const res = await call('lighting', 'PUT', `/api/v1/product/banner/update/${banner.bannerId}`, banner);
    expect(res.statusCode, res.body).toBe(200);
    expect(await auditCount('lighting')).toBe(before);
    expect(await readDraft()).toEqual(read);
  });

  it('an update naming only the title changes only the title', async () => {
    const read = await readDraft();
    const banner = read.banners[0] as Banner;
    const res = await call('lighting', 'PUT', `/api/v1/product/banner/update/${banner.bannerId}`, {
      title: 'Only the title',
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = await readDraft();
    expect(after.banners).toEqual([{ ...banner, title: 'Only the title' }, ...read.banners.slice(1)]);
  });

  it('a read-only field sent different is refused, naming it', async () => {
    const read = await readDraft();
    const banner = read.banners[0] as Banner;
    const one = await call('lighting', 'PUT', `/api/v1/product/banner/update/${banner.bannerId}`, {
      ...banner,
      imageUrl: '/media/seed/lighting/other.jpg',
    });
    expect(one.statusCode).toBe(400);
    expect(one.json().message).toMatch(/imageUrl/);
    const whole = await call('lighting', 'PUT', '/api/v1/product/banner/draft', { ...read, isDraft: !read.isDraft });
    expect(whole.statusCode).toBe(400);
    expect(whole.json().message).toMatch(/isDraft/);
    const store = await call('lighting', 'PUT', '/api/v1/product/banner/draft', { ...read, productStoreId: '9001' });
    expect(store.statusCode).toBe(400);
    expect(store.json().message).toMatch(/productStoreId/);
  });

  it('an unknown field is refused', async () => {
    const read = await readDraft();
    const banner = read.banners[0] as Banner;
    const one = await call('lighting', 'PUT', `/api/v1/product/banner/update/${banner.bannerId}`, { titel: 'x' });
    expect(one.statusCode).toBe(400);
    expect(one.json().message).toMatch(/titel/);
    const whole = await call('lighting', 'PUT', '/api/v1/product/banner/draft', { ...read, banerz: [] });
    expect(whole.statusCode).toBe(400);
    expect(whole.json().message).toMatch(/banerz/);
  });

  it("another store's owner gets a 404 whatever the body", async () => {
    const banner = (await readDraft()).banners[0] as Banner;
    for (const body of [{ title: 'x' }, { altText: 5 }, 'not json at all']) {
      const one = await call('garden', 'PUT', `/api/v1/product/banner/update/${banner.bannerId}`, body);
      expect(one.statusCode, one.body).toBe(404);
      const whole = await call('garden', 'PUT', '/api/v1/product/banner/draft?productStoreId=9000', body);
      expect(whole.statusCode, whole.body).toBe(404);
    }
  });
});
