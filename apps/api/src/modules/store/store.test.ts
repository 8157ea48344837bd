import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, okData } from '../../test/api-client';
import { createTestApp, SEEDED_HOSTS, SEEDED_TENANTS, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = (url: string, host: string, headers: Record<string, string> = {}) =>
  t.app.inject({ url, headers: { host, ...headers } });
const RGB = /^\d{1,3}, ?\d{1,3}, ?\d{1,3}$/;
/** The store's details as a client generated from the OpenAPI document reads them (decision 076). */
const details = async (host: string, headers: Record<string, string> = {}) =>
  (await okData(apiClient(t.app, { host, headers }).GET('/api/v1/store/detail/fetch'))).data;

describe('GET /api/v1/store/detail/fetch', () => {
  it.each(SEEDED_TENANTS)('returns the details of %s', async (tenant) => {
    const { host, storeId } = SEEDED_HOSTS[tenant];
    // The fixed basic-auth credential some clients send is accepted and ignored.
    const d = await details(host, { authorization: 'Basic c3RvcmU6c3RvcmU=' });
    expect(d.productStoreId).toBe(storeId);
    expect(['DEFAULT', 'ONE']).toContain(d.template);
    expect(d.theme).toBe('THEME_FASHION');
    for (const k of ['primary', 'secondary', 'banner', 'action'] as const) expect(d.themeColors[k]).toMatch(RGB);
    expect(d.logo.url).toBe(`http://${host}/media/seed/${tenant}/logo.svg`);
    expect(d.companyName).toBeTruthy();
    expect(d.chat).toEqual({ dataWidgetId: null });
  });

  it('matches the seeded differences between stores', async () => {
    const [lighting, garden, power] = await Promise.all([
      details(SEEDED_HOSTS.lighting.host),
      details(SEEDED_HOSTS.garden.host),
      details(SEEDED_HOSTS.power.host),
    ]);
    expect(lighting.template).toBe('DEFAULT');
    expect(garden.template).toBe('ONE');
    expect(power.template).toBe('DEFAULT');
    expect(power.themeColors).not.toEqual(lighting.themeColors);
    expect(garden.newsLetter.iframe).toContain('<form');
    expect(lighting.newsLetter.iframe).toBeNull();
    // Power has no address or phone: the storefront shows the placeholders.
    expect(power.companyAddress.address1).toBeNull();
    expect(power.companyContact.contactNumber).toBeNull();
    expect(lighting.companyAddress.address1).toBeTruthy();
  });

  it('never sends script in the newsletter embed', async () => {
    const d = await details('garden.localhost');
    expect(d.newsLetter.iframe).not.toMatch(/<script|on\w+=|javascript:/i);
  });
});

describe('GET /api/v1/store/config/fetch', () => {
  it.each(SEEDED_TENANTS)('returns template, theme, themeColors and chat of %s', async (tenant) => {
    const { host, storeId } = SEEDED_HOSTS[tenant];
    const res = await get(`/api/v1/store/config/fetch?productStoreId=${storeId}`, host);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().data).sort()).toEqual(['chat', 'productStoreId', 'template', 'theme', 'themeColors']);
  });

  it("refuses another tenant's store id", async () => {
    const res = await get('/api/v1/store/config/fetch?productStoreId=9002', 'garden.localhost');
    expect(res.statusCode).toBe(404);
  });
});

describe('GET /api/v1/store/default/theme_colors/fetch', () => {
  it('returns the default palette as RGB strings', async () => {
    const res = await get('/api/v1/store/default/theme_colors/fetch', 'lighting.localhost');
    expect(res.statusCode).toBe(200);
    const { theme, themeColors } = res.json().data;
    expect(theme).toBe('THEME_FASHION');
    for (const k of ['primary', 'secondary', 'banner', 'action']) expect(themeColors[k]).toMatch(RGB);
  });
});

describe('GET /api/v1/cms/fetch', () => {
  it.each(SEEDED_TENANTS)('lists the pages of %s with every link flag in use', async (tenant) => {
    const res = await get('/api/v1/cms/fetch', SEEDED_HOSTS[tenant].host);
    expect(res.statusCode).toBe(200);
    const pages = res.json().data as Array<{
      pageTitle: string;
      pageUrl: string;
      pageLinks: string[];
      content?: string;
    }>;
    expect(pages.length).toBeGreaterThanOrEqual(4);
    for (const flag of ['TOP', 'MENU', 'BOTTOM', 'FOOTER'])
      expect(
        pages.some((p) => p.pageLinks.includes(flag)),
        flag,
      ).toBe(true);
    for (const p of pages) {
      expect(p.pageTitle).toBeTruthy();
      expect(p.content).toBeUndefined();
    }
  });

  it('filters by flag and returns one page with sanitised content by pageUrl', async () => {
    const menu = (await get('/api/v1/cms/fetch?pageLink=MENU', 'lighting.localhost')).json().data;
    expect(menu.length).toBeGreaterThan(0);
    expect(menu.every((p: { pageLinks: string[] }) => p.pageLinks.includes('MENU'))).toBe(true);
    const one = (await get(`/api/v1/cms/fetch?pageUrl=${menu[0].pageUrl}`, 'lighting.localhost')).json().data;
    expect(one).toHaveLength(1);
    expect(one[0].content).toMatch(/<p>/);
  });

  it('rejects a bad flag by name and keeps stores apart', async () => {
    const bad = await get('/api/v1/cms/fetch?pageLink=SIDEBAR', 'lighting.localhost');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('pageLink');
    const lighting = (await get('/api/v1/cms/fetch', 'lighting.localhost'))
      .json()
      .data.map((p: { id: string }) => p.id);
    const garden = (await get('/api/v1/cms/fetch', 'garden.localhost')).json().data.map((p: { id: string }) => p.id);
    expect(lighting.filter((id: string) => garden.includes(id))).toEqual([]);
  });
});

describe('GET /api/v1/product/banner/fetch', () => {
  it.each(SEEDED_TENANTS)('returns the banners of %s with absolute image URLs', async (tenant) => {
    const { host } = SEEDED_HOSTS[tenant];
    const res = await get('/api/v1/product/banner/fetch', host);
    expect(res.statusCode).toBe(200);
    const banners = res.json().data;
    expect(banners.length).toBeGreaterThanOrEqual(2);
    for (const b of banners) expect(b.imageUrl.startsWith(`http://${host}/media/`)).toBe(true);
  });
});

describe('GET /assets/seo-meta.config.json', () => {
  it.each(SEEDED_TENANTS)('gives per-route entries and the brand name as default for %s', async (tenant) => {
    const { host } = SEEDED_HOSTS[tenant];
    const entries = (await get('/assets/seo-meta.config.json', host)).json() as Array<Record<string, string>>;
    const details = (await get('/api/v1/store/detail/fetch', host)).json().data;
    const def = entries.find((e) => e.route === 'default');
    expect(def?.keywords).toBe(details.storeName);
    expect(def?.description).toBe(details.storeName);
    const home = entries.find((e) => e.route === '/');
    expect(home?.title).toBeTruthy();
  });
});

describe('media', () => {
  it("serves a store's seeded images as real images, and not to another store", async () => {
    const banner = (await get('/api/v1/product/banner/fetch', 'garden.localhost')).json().data[0];
    const path = new URL(banner.imageUrl).pathname;
    const res = await get(path, 'garden.localhost');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.rawPayload.subarray(8, 12).toString()).toBe('WEBP');
    expect((await get(path, 'lighting.localhost')).statusCode).toBe(404);
    expect((await get('/media/seed/garden/../lighting/logo.svg', 'garden.localhost')).statusCode).toBe(404);
  });
});
