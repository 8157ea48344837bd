import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';

// Decision 027, the pages of a private store (needs npm run build -w @app/web): a visitor is sent
// to the login page from every other page, the login page's frame carries no catalog, and no page
// of a private store may be kept by any cache.

const LIGHTING = 'lighting.localhost';
let t: TestApp;
let owner: BrowserSession;

beforeAll(async () => {
  t = await createTestApp({ webBuildDir: fileURLToPath(new URL('../../../../web/build', import.meta.url)) });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
});
afterAll(() => t.close());

const page = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { host: LIGHTING, ...headers } });
const setPublic = async (isPublic: boolean) => {
  const url = isPublic ? '/api/tenant/remove/constraints' : '/api/tenant/add/constraints';
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { host: LIGHTING, ...owner },
    payload: { tenantId: 'lighting' },
  });
  expect(res.statusCode).toBe(200);
};

/** A category id of the seeded lighting store: its home page links to it; only catalog data names it. */
let categoryName = '';

describe('pages of a private store', () => {
  it('show the catalog while public; after the switch a visitor is sent to login from every page', async () => {
    const home = await page('/');
    expect(home.statusCode).toBe(200);
    const main = await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/public/ecommerce/main',
      headers: { host: LIGHTING },
    });
    categoryName = main.json().data.catalogCol[0].categoryList[0].productCategoryId as string;
    expect(categoryName.length).toBeGreaterThan(2);
    expect(home.body).toContain(categoryName);

    await setPublic(false);
    try {
      for (const url of ['/', '/product/search/lamp', '/cart', '/faqs', '/contact', '/page', '/manage-store']) {
        const res = await page(url);
        expect(res.statusCode, url).toBe(302);
        expect(res.headers.location, url).toMatch(/^\/auth\/login/);
        expect(res.headers['cache-control'], url).toBe('private, no-store');
      }
      expect((await page('/product/search/lamp?x=1')).headers.location).toBe(
        `/auth/login?redirectUrl=${encodeURIComponent('/product/search/lamp?x=1')}`,
      );
      // React Router's data requests (client navigation) are refused too, never answered with data.
      const data = await page('/product/search/lamp.data');
      expect(data.body).not.toContain(categoryName);
      expect(data.statusCode).toBe(202);
      expect(data.body).toContain('SingleFetchRedirect');
      expect(data.body).toContain('/auth/login?redirectUrl=%2Fproduct%2Fsearch%2Flamp');
      expect(data.body).not.toContain('"productId"');

      const login = await page('/auth/login');
      expect(login.statusCode).toBe(200);
      expect(login.body).toContain('This store is private');
      expect(login.body).not.toContain(categoryName);
      expect(login.headers['cache-control']).toBe('private, no-store');
      expect((await page('/auth/register')).statusCode).toBe(200);
      expect((await page('/auth/forgot-password')).statusCode).toBe(200);
    } finally {
      await setPublic(true);
    }
    const again = await page('/');
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain(categoryName);
  });

  it('are shown to signed-in shoppers of the store, uncached', async () => {
    await setPublic(false);
    try {
      const shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
      const home = await page('/', { cookie: shopper.cookie });
      expect(home.statusCode).toBe(200);
      expect(home.body).toContain(categoryName);
      expect(home.headers['cache-control']).toBe('private, no-store');
    } finally {
      await setPublic(true);
    }
  });

  it('answer a closed form post with a redirect to login, not an action', async () => {
    await setPublic(false);
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/contact',
        headers: {
          host: LIGHTING,
          origin: 'http://lighting.localhost',
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: 'name=x',
      });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toMatch(/^\/auth\/login/);
    } finally {
      await setPublic(true);
    }
  });
});
