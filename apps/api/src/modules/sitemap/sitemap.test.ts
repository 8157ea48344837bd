import { schema } from '@app/db';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEvents } from '../../lib/events/index';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import { makeScheduleDue } from '../../test/schedules';
import { createStaff } from '../../test/staff';
import { SITEMAP_JOB } from './index';
import { buildSitemapFiles } from './sitemap-xml';

const GARDEN = SEEDED_HOSTS.garden.host;
const LIGHTING = SEEDED_HOSTS.lighting.host;
const POWER = SEEDED_HOSTS.power.host;
// Small parts, so that the split into an index and parts happens with the seeded catalog.
const PER_FILE = 40;

let t: TestApp;
let owner: BrowserSession;
const seen: { name: string; payload: unknown }[] = [];

beforeAll(async () => {
  t = await createTestApp({ sitemap: { maxUrlsPerFile: PER_FILE, debounceMs: 60_000 } });
  owner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
  for (const name of ['sitemap.requested', 'sitemap.generated'] as const) {
    t.services.events.on(name, (payload: AppEvents[typeof name]) => {
      seen.push({ name, payload });
    });
  }
});
afterAll(() => t.close());

const generate = (host: string, body: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/sitemap/generate',
    headers: { host, origin: `http://${host}`, ...headers },
    payload: body as object,
  });
const get = (host: string, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { host, ...headers } });
const rows = async <T>(q: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(q)) as unknown as { rows: T[] }).rows;
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] as string);

/** Every URL of a host's sitemap, following the index into its parts. */
async function allUrls(host: string): Promise<string[]> {
  const res = await get(host, '/sitemap.xml');
  expect(res.statusCode).toBe(200);
  if (!res.body.includes('<sitemapindex')) return locs(res.body);
  const out: string[] = [];
  for (const part of locs(res.body)) {
    const u = new URL(part);
    expect(u.host).toBe(host);
    const p = await get(host, u.pathname);
    expect(p.statusCode).toBe(200);
    expect(p.headers['content-type']).toContain('application/xml');
    const urls = locs(p.body);
    expect(urls.length).toBeLessThanOrEqual(PER_FILE);
    out.push(...urls);
  }
  return out;
}

describe('POST /api/sitemap/generate', () => {
  it('runs one job for repeated triggers, writes the store files with the canonical host, audits and emits', async () => {
    const [a, b] = await Promise.all([
      generate(GARDEN, { tenantId: 'garden' }, owner),
      generate(GARDEN, { tenantId: 'garden' }, owner),
    ]);
    expect(a.statusCode).toBe(202);
    const job = a.json().data;
    expect(job).toMatchObject({ jobId: expect.any(String), status: expect.stringMatching(/pending|running/) });
    expect(b.json().data.jobId).toBe(job.jobId);
    await t.services.jobs.drain();

    const urls = await allUrls(GARDEN);
    expect(urls.every((u) => u.startsWith('http://garden.localhost/'))).toBe(true);
    const [counts] = await rows<{ products: string; pages: string }>(sql`
      SELECT (SELECT count(DISTINCT pc.product_id) FROM product_categories pc WHERE pc.tenant_id = 'garden') AS products,
             (SELECT count(*) FROM cms_pages WHERE tenant_id = 'garden') AS pages`);
    const [product] = await rows<{ slug: string; product_id: string }>(
      sql`SELECT p.slug, p.product_id FROM products p JOIN product_categories pc USING (tenant_id, product_id) WHERE p.tenant_id = 'garden' ORDER BY p.product_id LIMIT 1`,
    );
    const [category] = await rows<{ id: string }>(
      sql`SELECT cc.product_category_id AS id FROM catalog_categories cc WHERE cc.tenant_id = 'garden' LIMIT 1`,
    );
    const [page] = await t.database.db
      .select()
      .from(schema.cmsPages)
      .where(eq(schema.cmsPages.tenantId, 'garden'))
      .limit(1);
    expect(urls).toContain(`http://garden.localhost/${product?.slug}/${product?.product_id}`);
    expect(urls).toContain(`http://garden.localhost/categories/${category?.id}`);
    expect(urls).toContain(`http://garden.localhost/page/details/${page?.pageUrl}`);
    expect(urls).toContain('http://garden.localhost/');
    // Noindex routes are never listed; the URLs are unique.
    expect(urls.some((u) => /\/(cart|checkout|account|auth|manage-store|product\/search)(\/|$)/.test(u))).toBe(false);
    expect(new Set(urls).size).toBe(urls.length);
    expect(urls.filter((u) => u.includes('/page/details/')).length).toBe(Number(counts?.pages));
    // More URLs than one part holds: the index lists the parts.
    expect(urls.length).toBeGreaterThan(PER_FILE);
    const index = await get(GARDEN, '/sitemap.xml');
    expect(index.body).toContain('<sitemapindex');
    // Pages carry their update time.
    const part = await get(GARDEN, '/sitemaps/sitemap-1.xml');
    expect(part.statusCode).toBe(200);

    const status = await get(GARDEN, '/api/sitemap/fetch?tenantId=garden', owner);
    expect(status.statusCode).toBe(200);
    const data = status.json().data;
    expect(data.job).toMatchObject({ jobId: job.jobId, status: 'succeeded', progress: { done: 1, total: 1 } });
    expect(data.stores).toEqual([
      expect.objectContaining({
        productStoreId: '9001',
        hostName: 'garden.localhost',
        sitemapUrl: 'http://garden.localhost/sitemap.xml',
        indexed: true,
        generatedAt: expect.any(String),
        urls: {
          total: urls.length,
          products: Number(counts?.products),
          categories: expect.any(Number),
          pages: Number(counts?.pages),
        },
      }),
    ]);

    const entries = await t.database.db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.tenantId, 'garden'), eq(schema.auditLog.entity, 'sitemap')));
    // Each request is the owner's action and is recorded; both name the one job.
    expect(entries).toHaveLength(2);
    for (const e of entries)
      expect(e).toMatchObject({
        action: 'generate',
        entityId: 'garden',
        actorKind: 'staff',
        changes: { jobId: { after: job.jobId } },
      });
    expect(seen).toEqual(
      expect.arrayContaining([
        { name: 'sitemap.requested', payload: { tenantId: 'garden', jobId: job.jobId } },
        { name: 'sitemap.generated', payload: { tenantId: 'garden', jobId: job.jobId } },
      ]),
    );
  });

  it('a page with lastmod; a second generation replaces the files whole', async () => {
    await t.database.db
      .update(schema.cmsPages)
      .set({ updatedAt: new Date('2026-01-02T03:04:05Z') })
      .where(eq(schema.cmsPages.tenantId, 'garden'));
    const res = await generate(GARDEN, { tenantId: 'garden' }, owner);
    expect(res.statusCode).toBe(202);
    await t.services.jobs.drain();
    const files = await t.database.db
      .select()
      .from(schema.sitemapFiles)
      .where(eq(schema.sitemapFiles.tenantId, 'garden'));
    expect(files.some((f) => f.body.includes('<lastmod>2026-01-02T03:04:05.000Z</lastmod>'))).toBe(true);
    expect(new Set(files.map((f) => f.fileName)).size).toBe(files.length);
  });

  it('refuses a missing or bad tenantId with 400 naming it, and another tenant with 404', async () => {
    const missing = await generate(GARDEN, {}, owner);
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('tenantId');
    const extra = await generate(GARDEN, { tenantId: 'garden', x: 1 }, owner);
    expect(extra.statusCode).toBe(400);
    const other = await generate(GARDEN, { tenantId: 'lighting' }, owner);
    expect(other.statusCode).toBe(404);
    const otherStatus = await get(GARDEN, '/api/sitemap/fetch?tenantId=lighting', owner);
    expect(otherStatus.statusCode).toBe(404);
    // Nothing was enqueued for lighting by the refused call.
    const jobs = await t.database.db
      .select()
      .from(schema.jobs)
      .where(and(eq(schema.jobs.tenantId, 'lighting'), eq(schema.jobs.type, SITEMAP_JOB)));
    expect(jobs).toHaveLength(0);
  });

  it('is the owner’s or settings staff’s: 401 for a visitor, 403 for a shopper and for staff without settings', async () => {
    expect((await generate(GARDEN, { tenantId: 'garden' })).statusCode).toBe(401);
    expect((await get(GARDEN, '/api/sitemap/fetch?tenantId=garden')).statusCode).toBe(401);
    const shopper = await signIn(t.app, 'shopper@garden.test', 'shopper-demo-1', GARDEN);
    expect((await generate(GARDEN, { tenantId: 'garden' }, shopper)).statusCode).toBe(403);
    expect((await get(GARDEN, '/api/sitemap/fetch?tenantId=garden', shopper)).statusCode).toBe(403);
    await createStaff(t.database, 'garden', 'catalog.staff@garden.test', ['catalog']);
    const catalogStaff = await signIn(t.app, 'catalog.staff@garden.test', 'owner-demo-1', GARDEN);
    expect((await generate(GARDEN, { tenantId: 'garden' }, catalogStaff)).statusCode).toBe(403);
    await createStaff(t.database, 'garden', 'settings.staff@garden.test', ['settings']);
    const settingsStaff = await signIn(t.app, 'settings.staff@garden.test', 'owner-demo-1', GARDEN);
    expect((await generate(GARDEN, { tenantId: 'garden' }, settingsStaff)).statusCode).toBe(202);
    await t.services.jobs.drain();
    // Another store's owner is a stranger here.
    const lightingOwner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
    expect((await generate(GARDEN, { tenantId: 'garden' }, lightingOwner)).statusCode).toBe(401);
  });
});

describe('/robots.txt and /sitemap.xml per host', () => {
  it('robots.txt allows the store, disallows the noindex routes and names the canonical sitemap', async () => {
    const res = await get('garden.shop.test', '/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('User-agent: *\nAllow: /\n');
    for (const p of ['/account', '/cart', '/checkout', '/auth', '/manage-store', '/product/search']) {
      expect(res.body).toContain(`Disallow: ${p}$\nDisallow: ${p}/\n`);
    }
    expect(res.body).toContain('Sitemap: http://garden.localhost/sitemap.xml');
    // A second host of the store serves the store's sitemap, with canonical URLs.
    const xml = await get('garden.shop.test', '/sitemap.xml');
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toContain('http://garden.localhost/');
  });

  it('a store not generated yet answers 404; another tenant’s files are never served', async () => {
    const res = await get(LIGHTING, '/sitemap.xml');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: true, code: 'NOT_FOUND' });
    expect((await get(LIGHTING, '/sitemaps/sitemap-1.xml')).statusCode).toBe(404);
    expect((await get(GARDEN, '/sitemaps/..%2Fsitemap.xml')).statusCode).toBe(404);
  });

  it('keeps the unknown-host answer and the development alias', async () => {
    const unknown = await get('nobody.example', '/robots.txt');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: true, code: 'TENANT_NOT_FOUND' });
    const dev = await get('localhost', '/robots.txt');
    expect(dev.statusCode).toBe(200);
    expect(dev.body).toMatch(/Sitemap: http:\/\/\w+\.localhost\/sitemap\.xml/);
  });

  it('a private store: the generator skips it, sitemap.xml is 404 and robots.txt disallows everything', async () => {
    const power = await signIn(t.app, 'owner@power.test', 'owner-demo-1', POWER);
    expect((await generate(POWER, { tenantId: 'power' }, power)).statusCode).toBe(202);
    await t.services.jobs.drain();
    expect((await get(POWER, '/sitemap.xml')).statusCode).toBe(200);
    const constraints = (path: 'add' | 'remove') =>
      t.app.inject({
        method: 'POST',
        url: `/api/tenant/${path}/constraints`,
        headers: { host: POWER, origin: `http://${POWER}`, ...power },
        payload: { tenantId: 'power' },
      });
    expect((await constraints('add')).statusCode).toBe(200);
    try {
      // A visitor of a private store is refused by its gate (decision 027); a member finds no sitemap.
      expect((await get(POWER, '/sitemap.xml')).statusCode).toBe(401);
      expect((await get(POWER, '/sitemap.xml', power)).statusCode).toBe(404);
      const robots = await get(POWER, '/robots.txt');
      expect(robots.statusCode).toBe(200);
      expect(robots.body).toBe('User-agent: *\nDisallow: /\n');
      expect((await generate(POWER, { tenantId: 'power' }, power)).statusCode).toBe(202);
      await t.services.jobs.drain();
      const files = await t.database.db
        .select()
        .from(schema.sitemapFiles)
        .where(eq(schema.sitemapFiles.tenantId, 'power'));
      expect(files).toHaveLength(0);
      const status = (await get(POWER, '/api/sitemap/fetch?tenantId=power', power)).json().data;
      expect(status.stores[0]).toMatchObject({ indexed: false, files: 0, generatedAt: null });
    } finally {
      expect((await constraints('remove')).statusCode).toBe(200);
      // The visibility changes scheduled regenerations for later; this test does not wait for them.
      await t.database.db
        .delete(schema.jobs)
        .where(and(eq(schema.jobs.type, SITEMAP_JOB), eq(schema.jobs.status, 'pending')));
    }
  });
});

describe('regeneration after changes', () => {
  it('collapses catalog and settings changes into one pending job per tenant and window', async () => {
    const before = Date.now();
    t.services.events.emit('catalog.changed', { tenantId: 'lighting' });
    t.services.events.emit('catalog.changed', { tenantId: 'lighting', productIds: ['x'] });
    t.services.events.emit('settings.changed', { tenantId: 'lighting', what: 'cms' });
    t.services.events.emit('catalog.changed', { tenantId: 'garden' });
    // Only these two tenants: the visibility test's own changes may still schedule power's run.
    const pendingOf = () =>
      t.database.db
        .select()
        .from(schema.jobs)
        .where(
          and(
            eq(schema.jobs.type, SITEMAP_JOB),
            eq(schema.jobs.status, 'pending'),
            inArray(schema.jobs.tenantId, ['garden', 'lighting']),
          ),
        );
    await expect.poll(async () => (await pendingOf()).length).toBe(2);
    const pending = await pendingOf();
    expect(pending.map((j) => j.tenantId).sort()).toEqual(['garden', 'lighting']);
    for (const j of pending) {
      expect(j.key).toMatch(/^auto:\d+$/);
      // Runs when the window closes: after the change, within one window.
      expect(j.runAt.getTime()).toBeGreaterThan(before);
      expect(j.runAt.getTime()).toBeLessThanOrEqual(before + 60_000 + 1000);
    }
    await t.database.db
      .delete(schema.jobs)
      .where(and(eq(schema.jobs.type, SITEMAP_JOB), eq(schema.jobs.status, 'pending')));
  });

  it('schedules nothing for settings no sitemap shows (shipping, tax, carriers, staff)', async () => {
    for (const what of ['shipping', 'tax', 'carriers', 'staff']) {
      t.services.events.emit('settings.changed', { tenantId: 'garden', what });
    }
    // A change it does show, for another store, as the sign that the events were handled.
    t.services.events.emit('settings.changed', { tenantId: 'lighting', what: 'cms' });
    const pendingOf = (tenantId: string) =>
      t.database.db
        .select()
        .from(schema.jobs)
        .where(
          and(eq(schema.jobs.type, SITEMAP_JOB), eq(schema.jobs.status, 'pending'), eq(schema.jobs.tenantId, tenantId)),
        );
    await expect.poll(async () => (await pendingOf('lighting')).length).toBe(1);
    expect(await pendingOf('garden')).toHaveLength(0);
    await t.database.db
      .delete(schema.jobs)
      .where(and(eq(schema.jobs.type, SITEMAP_JOB), eq(schema.jobs.status, 'pending')));
  });
});

describe('the nightly rebuild', () => {
  it('builds every public store’s sitemap once its schedule comes due', async () => {
    await makeScheduleDue(t, SITEMAP_JOB);
    expect(await t.services.jobs.runSchedules()).toBeGreaterThanOrEqual(3);
    await t.services.jobs.drain();
    const lighting = await get(LIGHTING, '/sitemap.xml');
    expect(lighting.statusCode).toBe(200);
    expect(locs(lighting.body).every((u) => u.startsWith('http://lighting.localhost/'))).toBe(true);
  });
});

describe('buildSitemapFiles', () => {
  it('one urlset up to the limit, an index of parts past it, XML-escaped', () => {
    const at = new Date('2026-05-01T00:00:00Z');
    const urls = Array.from({ length: 5 }, (_, i) => ({ loc: `https://s.test/p?a=${i}&b=<${i}>` }));
    const one = buildSitemapFiles('https://s.test', urls, at, 5);
    expect(one).toHaveLength(1);
    expect(one[0]?.body).toContain('<loc>https://s.test/p?a=0&amp;b=&lt;0&gt;</loc>');
    const split = buildSitemapFiles('https://s.test', [...urls, { loc: 'https://s.test/6' }], at, 5);
    expect(split.map((f) => [f.fileName, f.urlCount])).toEqual([
      ['sitemap.xml', 6],
      ['sitemap-1.xml', 5],
      ['sitemap-2.xml', 1],
    ]);
    expect(split[0]?.body).toContain(
      '<sitemap><loc>https://s.test/sitemaps/sitemap-2.xml</loc><lastmod>2026-05-01T00:00:00.000Z</lastmod></sitemap>',
    );
  });
});

describe('a store made private through the access settings', () => {
  it('answers robots.txt to a visitor with Disallow: / (not the private store 401) and hides the sitemap', async () => {
    const owner = await signIn(t.app, 'owner@power.test', 'owner-demo-1', POWER);
    const change = (path: string) =>
      t.app.inject({
        method: 'POST',
        url: path,
        headers: { host: POWER, origin: `http://${POWER}`, ...owner },
        payload: { tenantId: 'power' },
      });
    expect((await change('/api/tenant/add/constraints')).statusCode).toBe(200);
    try {
      const robots = await get(POWER, '/robots.txt');
      expect(robots.statusCode).toBe(200);
      expect(robots.body).toBe('User-agent: *\nDisallow: /\n');
      expect([401, 404]).toContain((await get(POWER, '/sitemap.xml')).statusCode);
    } finally {
      expect((await change('/api/tenant/remove/constraints')).statusCode).toBe(200);
    }
    expect((await get(POWER, '/robots.txt')).body).toContain('Sitemap:');
  });
});
