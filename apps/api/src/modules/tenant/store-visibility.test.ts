import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';
import { createStaff } from '../../test/staff';

// Decision 027: tenant constraints make every store of the tenant private; visitors then see only
// what it takes to log in or register, and no cache hands them what members saw.

const LIGHTING = 'lighting.localhost';
const GARDEN = 'garden.localhost';
const ADD = '/api/tenant/add/constraints';
const REMOVE = '/api/tenant/remove/constraints';
let t: TestApp;
const heard: { tenantId: string; what: string }[] = [];
const sessions: Record<string, BrowserSession> = {};

beforeAll(async () => {
  t = await createTestApp();
  t.services.events.on('settings.changed', (p) => {
    heard.push(p);
  });
  await createStaff(t.database, 'lighting', 'settings.staff@lighting.test', ['settings']);
});
afterAll(() => t.close());

async function as(email: string, host = LIGHTING): Promise<BrowserSession> {
  const password = email.startsWith('shopper') ? 'shopper-demo-1' : 'owner-demo-1';
  sessions[`${email}@${host}`] ??= await signIn(t.app, email, password, host);
  return sessions[`${email}@${host}`] as BrowserSession;
}

const post = (url: string, payload: unknown, headers: Record<string, string> = {}, host = LIGHTING) =>
  t.app.inject({ method: 'POST', url, headers: { host, ...headers }, payload: payload as object });
const get = (url: string, headers: Record<string, string> = {}, host = LIGHTING) =>
  t.app.inject({ method: 'GET', url, headers: { host, ...headers } });

const rows = async <T>(q: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(q)) as unknown as { rows: T[] }).rows;
const auditOf = (tenantId: string) =>
  rows<{ action: string; changes: Record<string, unknown>; actor_email: string }>(
    sql`SELECT action, changes, actor_email FROM audit_log WHERE tenant_id = ${tenantId} AND entity = 'tenant' ORDER BY id`,
  );
const lookup = async (host: string) =>
  (await t.app.inject({ url: `/api/fetch/tenantid/by/hostname?hostName=${host}` })).json().isWs2Public as boolean;

/** Public reads of the storefront API: a visitor of a private store gets none of them. */
const CLOSED_READS = [
  '/skulocity/api/v1/public/ecommerce/categories?productStoreId=9000&withMain=1',
  '/skulocity/api/v1/public/ecommerce/categories?productStoreId=9000',
  '/skulocity/api/v1/public/ecommerce/product?productStoreId=9000&productCategoryId=LIGHTING_ALL',
  '/skulocity/api/v1/public/ecommerce/product/subcategory?productCategoryId=LIGHTING_ALL',
  '/skulocity/api/v1/public/ecommerce/getproductdetails?productId=x',
  '/skulocity/api/v1/public/ecommerce/product/search?searchText=lamp',
  '/skulocity/api/v1/public/ecommerce/product/autocomplete?searchText=lam',
  '/skulocity/api/v1/public/ecommerce/product/advanced/searchoptions',
  '/skulocity/api/v1/public/ecommerce/surveyDetails',
  '/skulocity/api/v1/public/ecommerce/cart/showcart',
  '/skulocity/api/v1/catalog/product/items/downloadProdContent?productId=x',
  '/api/v1/cms/fetch',
  '/api/v1/product/banner/fetch',
  '/assets/seo-meta.config.json',
];

describe('POST /api/tenant/add/constraints and /remove/constraints', () => {
  it('make the store private and public again, as the owner; the lookup reports it; audited; an event each', async () => {
    const owner = await as('owner@lighting.test');
    heard.length = 0;
    const added = await post(ADD, { tenantId: 'lighting' }, owner);
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({ data: { tenantId: 'lighting', isWs2Public: false, accessMode: 'login_required' } });
    expect(added.headers['cache-control']).toBe('private, no-store');
    expect(await lookup('lighting.shop.test')).toBe(false);
    expect(heard).toEqual([{ tenantId: 'lighting', what: 'access' }]);

    const removed = await post(REMOVE, { tenantId: 'lighting' }, owner);
    expect(removed.json()).toEqual({ data: { tenantId: 'lighting', isWs2Public: true, accessMode: 'public' } });
    expect(await lookup('lighting.shop.test')).toBe(true);
    expect(heard).toHaveLength(2);
    const log = await auditOf('lighting');
    expect(log.map((e) => e.action)).toEqual(['access-mode', 'access-mode']);
    expect(log[0]?.changes).toEqual({
      accessMode: { before: 'public', after: 'login_required' },
      isWs2Public: { before: true, after: false },
    });
    expect(log[0]?.actor_email).toBe('owner@lighting.test');
  });

  it('change nothing, record nothing and emit nothing when the store already is so', async () => {
    const owner = await as('owner@lighting.test');
    heard.length = 0;
    const before = (await auditOf('lighting')).length;
    const res = await post(REMOVE, { tenantId: 'lighting' }, owner);
    expect(res.json().data.isWs2Public).toBe(true);
    expect(heard).toHaveLength(0);
    expect(await auditOf('lighting')).toHaveLength(before);
  });

  it("accept 'development' as the tenant on a development host, as GET /api/fetch/tenant does", async () => {
    // Without DEV_TENANT_ID the development alias serves the first store: lighting.
    const owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', 'localhost');
    const res = await post(ADD, { tenantId: 'development' }, owner, 'localhost');
    expect(res.json()).toEqual({ data: { tenantId: 'lighting', isWs2Public: false, accessMode: 'login_required' } });
    await post(REMOVE, { tenantId: 'development' }, owner, 'localhost');
    expect(await lookup('lighting.shop.test')).toBe(true);
    // On a registered host the alias names no tenant.
    expect((await post(ADD, { tenantId: 'development' }, await as('owner@lighting.test'))).statusCode).toBe(404);
  });

  it('name the field that is missing or wrong', async () => {
    const owner = await as('owner@lighting.test');
    const missing = await post(ADD, {}, owner);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('tenantId');
    const extra = await post(ADD, { tenantId: 'lighting', isWs2Public: true }, owner);
    expect(extra.statusCode).toBe(400);
    expect(await lookup('lighting.shop.test')).toBe(true);
  });

  it('refuse a visitor (401), a shopper (403) and staff, even with the settings permission (403)', async () => {
    for (const url of [ADD, REMOVE]) {
      expect((await post(url, { tenantId: 'lighting' })).statusCode).toBe(401);
      expect((await post(url, { tenantId: 'lighting' }, await as('shopper@lighting.test'))).statusCode).toBe(403);
      const staff = await post(url, { tenantId: 'lighting' }, await as('settings.staff@lighting.test'));
      expect(staff.statusCode).toBe(403);
      expect(staff.json().message).toContain('Only the store owner');
    }
    expect(await lookup('lighting.shop.test')).toBe(true);
  });

  it("answer 404 for another tenant's id and leave that tenant as it was", async () => {
    const owner = await as('owner@lighting.test');
    for (const url of [ADD, REMOVE]) {
      const res = await post(url, { tenantId: 'garden' }, owner);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe(true);
    }
    expect(await lookup('garden.shop.test')).toBe(true);
    expect(await auditOf('garden')).toHaveLength(0);
    // Garden's owner on lighting's host is a visitor there.
    expect((await post(ADD, { tenantId: 'lighting' }, await as('owner@garden.test', GARDEN))).statusCode).toBe(401);
  });
});

describe('a private store', () => {
  it('answers a visitor 401 STORE_PRIVATE for every catalog read, even one cached while it was public', async () => {
    // Warm the read cache and the tenant's visibility while public.
    for (const url of CLOSED_READS.slice(0, 3)) expect((await get(url)).statusCode, url).toBeLessThan(500);
    const main = await get(CLOSED_READS[0] as string);
    expect(main.statusCode).toBe(200);
    expect(main.headers['cache-control']).toContain('s-maxage=0');
    await post(ADD, { tenantId: 'lighting' }, await as('owner@lighting.test'));
    try {
      for (const url of CLOSED_READS) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(401);
        expect(res.body, url).not.toContain('LIGHTING');
        expect(res.json().code, url).toBe('STORE_PRIVATE');
        expect(res.headers['cache-control'], url).toBe('private, no-store');
        expect(res.body, url).not.toContain('catalogCol');
      }
      const main = await post('/skulocity/api/v1/public/ecommerce/main', {});
      expect(main.statusCode).toBe(401);
      expect(main.body).not.toContain('catalogCol');
      // A change is refused too (a guest cart).
      const add = await post(
        '/skulocity/api/v1/public/ecommerce/product/addToCart',
        { productId: 'x', quantity: 1 },
        {
          origin: 'http://lighting.localhost',
        },
      );
      expect(add.statusCode).toBe(401);
      // Other stores are untouched.
      expect((await get(CLOSED_READS[0] as string, {}, GARDEN)).statusCode).toBe(200);
    } finally {
      await post(REMOVE, { tenantId: 'lighting' }, await as('owner@lighting.test'));
    }
    expect((await get(CLOSED_READS[0] as string)).statusCode).toBe(200);
  });

  it('still lets a visitor log in, register, reset a password and read the store name and colours', async () => {
    await post(ADD, { tenantId: 'lighting' }, await as('owner@lighting.test'));
    try {
      expect((await get('/api/v1/store/detail/fetch')).statusCode).toBe(200);
      expect((await get('/api/v1/store/default/theme_colors/fetch')).statusCode).toBe(200);
      expect((await get('/skulocity/api/v1/public/ecommerce/countries')).statusCode).toBe(200);
      expect((await get('/skulocity/api/v1/public/ecommerce/forgotpassword?email=x%40y.test')).statusCode).toBe(200);
      const login = await post('/skulocity/api/v1/login', {
        email: 'shopper@lighting.test',
        password: 'shopper-demo-1',
      });
      expect(login.statusCode).toBe(200);
      const register = await post(
        '/skulocity/api/v1/public/ecommerce/profile/newUser',
        { firstName: 'Vera', lastName: 'Visitor', email: 'vera@visitor.test', password: 'a-long-passphrase-9' },
        { origin: 'http://lighting.localhost' },
      );
      expect(register.statusCode).toBeLessThan(300);
      const tenant = await get('/api/fetch/tenant?tenantId=lighting');
      expect(tenant.json().data.isWs2Public).toBe(false);
    } finally {
      await post(REMOVE, { tenantId: 'lighting' }, await as('owner@lighting.test'));
    }
  });

  it('shows its catalog to signed-in shoppers and staff, never to be kept by a shared cache', async () => {
    await post(ADD, { tenantId: 'lighting' }, await as('owner@lighting.test'));
    try {
      for (const who of ['shopper@lighting.test', 'owner@lighting.test', 'settings.staff@lighting.test']) {
        const res = await get(CLOSED_READS[0] as string, await as(who));
        expect(res.statusCode, who).toBe(200);
        expect(res.body.length).toBeGreaterThan(20);
        expect(res.headers['cache-control'], who).toBe('private, no-store');
      }
      // A shopper of another store is a visitor here.
      expect((await get(CLOSED_READS[0] as string, await as('shopper@garden.test', GARDEN))).statusCode).toBe(401);
    } finally {
      await post(REMOVE, { tenantId: 'lighting' }, await as('owner@lighting.test'));
    }
  });
});
