import { schema } from '@app/db';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../lib/context';
import type { PageRequest } from '../../lib/page-request';
import { PREVIEW_COOKIE } from '../../lib/preview';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import { createStaff } from '../../test/staff';
import { createAuditService } from '../audit/index';
import { createCatalogService } from '../catalog/index';
import { createStoreService, shellPages } from '../store/index';
import { createTenantService } from '../tenant/index';
import { cmsPages } from './cms.pages';
import { type CmsService, createCmsService } from './cms.service';

/**
 * CMS pages (decision 034): create and update save drafts, publishing is the
 * drafts seam's, shoppers only ever see published pages, and the owner previews drafts.
 */
const LIGHTING = SEEDED_HOSTS.lighting;
const GARDEN = SEEDED_HOSTS.garden;
let t: TestApp;
let cms: CmsService;
let owner: BrowserSession;
let shopper: BrowserSession;
let gardenOwner: BrowserSession;
const heard: string[] = [];
const seenCtx: RequestContext[] = [];

beforeAll(async () => {
  t = await createTestApp({
    extraRoutes: async (app) => {
      app.get('/test/ctx', async (req) => {
        seenCtx.push(req.ctx);
        return {};
      });
    },
  });
  // The app's own service is not exposed; this one shares its database, drafts and events.
  cms = createCmsService(t.database.db, {
    drafts: t.services.drafts,
    audit: createAuditService(t.database.db),
    events: t.services.events,
  });
  t.services.events.on('settings.changed', (p) => {
    if (p.tenantId === 'lighting') heard.push(p.what);
  });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING.host);
  shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING.host);
  gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN.host);
});
afterAll(async () => {
  await t?.close();
});

type Session = BrowserSession | null;
const origin = (host: string) => ({ host, origin: `http://${host}` });
const send = (
  method: 'POST' | 'PUT' | 'DELETE',
  url: string,
  session: Session,
  payload?: unknown,
  host: string = LIGHTING.host,
) => t.app.inject({ method, url, headers: { ...origin(host), ...(session ?? {}) }, ...(payload ? { payload } : {}) });
const create = (payload: unknown, session: Session = owner) => send('POST', '/api/v1/cms/create', session, payload);
const update = (id: string, payload: unknown, session: Session = owner, host: string = LIGHTING.host) =>
  send('PUT', `/api/v1/cms/update/${id}`, session, payload, host);
const publish = (id: string, session: Session = owner) => send('POST', `/api/v1/drafts/page/${id}/publish`, session);
const fetchPages = (query = '', session: Session = null, cookie = '', host: string = LIGHTING.host) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/cms/fetch${query}`,
    headers: { host, cookie: [session?.cookie, cookie].filter(Boolean).join('; ') },
  });
const ctxOf = (session: Session, cookie = '') =>
  t.app
    .inject({
      method: 'GET',
      url: '/test/ctx',
      headers: { host: LIGHTING.host, cookie: [session?.cookie, cookie].filter(Boolean).join('; ') },
    })
    .then(() => seenCtx.at(-1) as RequestContext);
const pageRequest = (ctx: RequestContext): PageRequest => ({
  ctx,
  headers: {},
  secure: false,
  assertFormFromStore() {},
  cached: (_key, compute) => compute(),
});
const lastAudit = async (entityId: string) => {
  const [entry] = await t.database.db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.tenantId, 'lighting'), eq(schema.auditLog.entityId, entityId)))
    .orderBy(desc(schema.auditLog.id))
    .limit(1);
  return entry;
};

const page = (pageUrl: string, extra: Record<string, unknown> = {}) => ({
  pageTitle: 'Care guide',
  pageUrl,
  content: '<h2>Caring for lamps</h2><ul><li>Dust weekly</li></ul>',
  pageLinks: ['TOP', 'FOOTER'],
  seoTitle: 'Lamp care',
  seoDescription: 'How to care for your lamps.',
  ...extra,
});

describe('POST /api/v1/cms/create', () => {
  it('saves a draft that no shopper sees, cleaned, audited and announced', async () => {
    heard.length = 0;
    const res = await create(
      page('care-guide', { content: '<h2>Hi</h2><script>alert(1)</script><p onclick="x()">ok</p>' }),
    );
    expect(res.statusCode).toBe(201);
    const saved = res.json().data;
    expect(saved).toMatchObject({
      status: 'Draft',
      page: {
        pageTitle: 'Care guide',
        pageUrl: 'care-guide',
        pageLinks: ['TOP', 'FOOTER'],
        seoTitle: 'Lamp care',
        sequenceNum: 0,
      },
    });
    expect(saved.id).toMatch(/^page-[0-9a-f]{12}$/);
    // What is stored is already clean.
    expect(saved.page.content).toBe('<h2>Hi</h2><p>ok</p>');
    const [row] = await t.database.db
      .select()
      .from(schema.contentDrafts)
      .where(and(eq(schema.contentDrafts.tenantId, 'lighting'), eq(schema.contentDrafts.key, saved.id)));
    expect((row?.payload as { content: string } | undefined)?.content).toBe('<h2>Hi</h2><p>ok</p>');
    expect(await lastAudit(saved.id)).toMatchObject({ entity: 'cms.page', action: 'draft.save', actorKind: 'staff' });
    expect(heard).toContain('page.draft');

    // Nothing live: a visitor, a shopper, and the owner outside preview see no such page.
    expect((await fetchPages('?pageUrl=care-guide')).json().data).toEqual([]);
    expect((await fetchPages('?pageUrl=care-guide', shopper)).json().data).toEqual([]);
    expect((await fetchPages('?pageLink=TOP', shopper)).json().data.map((p: { id: string }) => p.id)).not.toContain(
      saved.id,
    );
  });

  it('answers 400 naming the field, and saves nothing', async () => {
    for (const [body, field] of [
      [page('Bad URL!'), 'pageUrl'],
      [page('fine-url', { pageTitle: ' ' }), 'pageTitle'],
      [page('fine-url', { pageLinks: ['SIDEBAR'] }), 'pageLinks'],
      [page('fine-url', { seoDescription: 'x'.repeat(161) }), 'seoDescription'],
    ] as const) {
      const res = await create(body);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().message, field).toContain(field);
    }
    const list = await cms.list(await ctxOf(owner));
    expect(list.some((p) => p.pageUrl === 'fine-url')).toBe(false);
  });

  it('answers 409 naming pageUrl for a URL a live page or another draft already has', async () => {
    const [live] = (await fetchPages()).json().data as Array<{ pageUrl: string }>;
    const taken = await create(page(live?.pageUrl ?? ''));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain('pageUrl');
    const draftTaken = await create(page('care-guide'));
    expect(draftTaken.statusCode).toBe(409);
    expect(draftTaken.json().message).toContain('pageUrl');
  });

  it('refuses a visitor (401) and a shopper (403)', async () => {
    expect((await create(page('visitor-page'), null)).statusCode).toBe(401);
    expect((await create(page('shopper-page'), shopper)).statusCode).toBe(403);
  });
});

describe('PUT /api/v1/cms/update/{id}, publish, preview, restore', () => {
  let id = '';
  beforeAll(async () => {
    id = (await create(page('shipping-info', { pageTitle: 'Shipping info' }))).json().data.id;
  });

  it('keeps a draft-only page from shoppers and shows it in the owner preview only', async () => {
    const preview = `${PREVIEW_COOKIE}=1`;
    // Through the API: the shopper and the visitor who send the preview cookie get nothing.
    expect((await fetchPages('?pageUrl=shipping-info', shopper, preview)).json().data).toEqual([]);
    expect((await fetchPages('?pageUrl=shipping-info', null, preview)).json().data).toEqual([]);
    // Through the storefront reads the page functions use.
    const asShopper = await ctxOf(shopper, preview);
    const asVisitor = await ctxOf(null, preview);
    const asOwner = await ctxOf(owner);
    const asOwnerPreviewing = await ctxOf(owner, preview);
    for (const ctx of [asShopper, asVisitor, asOwner]) {
      expect(await cms.storefrontPages(ctx, LIGHTING.storeId, { pageUrl: 'shipping-info' })).toEqual([]);
      expect((await cms.storefrontPages(ctx, LIGHTING.storeId, {})).some((p) => p.id === id)).toBe(false);
    }
    const [shown] = await cms.storefrontPages(asOwnerPreviewing, LIGHTING.storeId, { pageUrl: 'shipping-info' });
    expect(shown).toMatchObject({ id, pageTitle: 'Shipping info', pageLinks: ['TOP', 'FOOTER'] });
    expect(shown?.content).toContain('<h2>Caring for lamps</h2>');
    const top = await cms.storefrontPages(asOwnerPreviewing, LIGHTING.storeId, { pageLink: 'TOP' });
    expect(top.map((p) => p.id)).toContain(id);
  });

  it('lists the draft for the owner with its status, through the API and the page functions', async () => {
    const res = await fetchPages('', owner);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const mine = (res.json().data as Array<{ id: string; status: string; updatedAt: string }>).find((p) => p.id === id);
    expect(mine).toMatchObject({ status: 'Draft', pageUrl: 'shipping-info' });
    expect(Date.parse(mine?.updatedAt ?? '')).toBeGreaterThan(0);
    const fns = cmsPages({ cms, drafts: t.services.drafts })(pageRequest(await ctxOf(owner)));
    const list = await fns.cmsList();
    expect(list.find((p) => p.id === id)).toMatchObject({ status: 'Draft', pageTitle: 'Shipping info' });
    const editor = await fns.cmsEditor(id);
    expect(editor).toMatchObject({ id, status: 'Draft', liveUrl: null, drafts: { kind: 'page', key: id } });
    expect(editor?.drafts.draft).not.toBeNull();
  });

  it('publishes: shoppers see it at once, and it is version 1', async () => {
    heard.length = 0;
    const res = await publish(id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ version: 1 });
    expect(heard).toContain('page');
    const [live] = (await fetchPages('?pageUrl=shipping-info', shopper)).json().data;
    expect(live).toMatchObject({ id, pageTitle: 'Shipping info', seoTitle: 'Lamp care' });
    expect(live.status).toBeUndefined();
    const top = (await fetchPages('?pageLink=TOP')).json().data.map((p: { id: string }) => p.id);
    expect(top).toContain(id);
    expect(await lastAudit(id)).toMatchObject({ entity: 'cms.page', action: 'publish' });
  });

  it('saves an edit as a draft: shoppers keep the live page, the owner preview shows the edit', async () => {
    heard.length = 0;
    const res = await update(id, page('shipping-info', { pageTitle: 'Shipping and delivery', content: '<p>New</p>' }));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id, status: 'Published, with changes' });
    expect(heard).toContain('page.draft');
    expect(await lastAudit(id)).toMatchObject({ action: 'draft.save' });
    const preview = `${PREVIEW_COOKIE}=1`;
    for (const session of [shopper, null]) {
      const [live] = (await fetchPages('?pageUrl=shipping-info', session, preview)).json().data;
      expect(live.pageTitle).toBe('Shipping info');
    }
    const [forShopper] = await cms.storefrontPages(await ctxOf(shopper, preview), LIGHTING.storeId, {
      pageUrl: 'shipping-info',
    });
    expect(forShopper?.pageTitle).toBe('Shipping info');
    const [forOwner] = await cms.storefrontPages(await ctxOf(owner, preview), LIGHTING.storeId, {
      pageUrl: 'shipping-info',
    });
    expect(forOwner).toMatchObject({ pageTitle: 'Shipping and delivery', content: '<p>New</p>' });
    const [ownerFetch] = (await fetchPages('?pageUrl=shipping-info', owner)).json().data;
    expect(ownerFetch).toMatchObject({ pageTitle: 'Shipping and delivery', status: 'Published, with changes' });
  });

  it('publishes the edit as version 2 and restores version 1 as a new draft', async () => {
    expect((await publish(id)).json().data).toEqual({ version: 2 });
    expect((await fetchPages('?pageUrl=shipping-info')).json().data[0].pageTitle).toBe('Shipping and delivery');
    const restored = await send('POST', `/api/v1/drafts/page/${id}/versions/1/restore`, owner);
    expect(restored.statusCode).toBe(200);
    // Restored is a draft: shoppers still see version 2 until it is published.
    expect((await fetchPages('?pageUrl=shipping-info')).json().data[0].pageTitle).toBe('Shipping and delivery');
    expect((await publish(id)).json().data).toEqual({ version: 3 });
    expect((await fetchPages('?pageUrl=shipping-info')).json().data[0].pageTitle).toBe('Shipping info');
  });

  it('checks the URL again at publish', async () => {
    const a = (await create(page('race-a'))).json().data.id as string;
    const b = (await create(page('race-b'))).json().data.id as string;
    await publish(a);
    // A draft written past the save check (as a racing save would) still cannot go live.
    const ctx = await ctxOf(owner);
    await t.services.drafts.save(ctx, t.services.drafts.kind('page'), b, page('race-a'));
    const res = await publish(b);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('pageUrl');
    expect((await fetchPages('?pageUrl=race-a')).json().data.map((p: { id: string }) => p.id)).toEqual([a]);
  });

  it('answers 409 for a URL taken by another page, 400 naming the field, 401, 403, and 404 for another store', async () => {
    const taken = await update(id, page('care-guide'));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain('pageUrl');
    const bad = await update(id, page('shipping-info', { sequenceNum: -1 }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('sequenceNum');
    expect((await update(id, page('shipping-info'), null)).statusCode).toBe(401);
    expect((await update(id, page('shipping-info'), shopper)).statusCode).toBe(403);
    // The garden owner cannot reach a lighting page by its id, and nothing changes.
    const foreign = await update(id, page('shipping-info', { pageTitle: 'Hijacked' }), gardenOwner, GARDEN.host);
    expect(foreign.statusCode).toBe(404);
    expect(
      (await send('POST', `/api/v1/drafts/page/${id}/publish`, gardenOwner, undefined, GARDEN.host)).statusCode,
    ).toBe(409);
    expect((await fetchPages('?pageUrl=shipping-info')).json().data[0].pageTitle).toBe('Shipping info');
    expect((await update('page-nothere', page('nothere'))).statusCode).toBe(404);
  });
});

describe('DELETE /api/v1/cms/delete/{id}', () => {
  it('removes the live page and its draft, audited and announced', async () => {
    const id = (await create(page('to-delete'))).json().data.id as string;
    await publish(id);
    await update(id, page('to-delete', { pageTitle: 'Edited' }));
    expect((await send('DELETE', `/api/v1/cms/delete/${id}`, null)).statusCode).toBe(401);
    expect((await send('DELETE', `/api/v1/cms/delete/${id}`, shopper)).statusCode).toBe(403);
    expect((await send('DELETE', `/api/v1/cms/delete/${id}`, gardenOwner, undefined, GARDEN.host)).statusCode).toBe(
      404,
    );
    heard.length = 0;
    const res = await send('DELETE', `/api/v1/cms/delete/${id}`, owner);
    expect(res.statusCode).toBe(204);
    expect(heard).toContain('page');
    expect((await fetchPages('?pageUrl=to-delete')).json().data).toEqual([]);
    expect((await fetchPages('', owner)).json().data.some((p: { id: string }) => p.id === id)).toBe(false);
    expect(await lastAudit(id)).toMatchObject({ entity: 'cms.page', action: 'delete', actorKind: 'staff' });
    expect((await send('DELETE', `/api/v1/cms/delete/${id}`, owner)).statusCode).toBe(404);
  });
});

describe('the storefront page functions (shell pages and cmsPage)', () => {
  const shell = (ctx: RequestContext) =>
    shellPages({
      store: createStoreService(t.database.db),
      cms,
      catalog: createCatalogService(t.database.db),
      tenants: createTenantService(t.database.db, {}),
      chatWidgetUrl: 'https://embed.example',
      platformName: 'Test Platform',
    })(pageRequest(ctx));

  it('show a draft-only page and an edit to the previewing owner only', async () => {
    const draftOnly = (await create(page('preview-only', { pageTitle: 'Preview only' }))).json().data.id as string;
    const edited = (await create(page('edited-live', { pageTitle: 'Live title' }))).json().data.id as string;
    await publish(edited);
    await update(edited, page('edited-live', { pageTitle: 'Draft title', pageLinks: ['MENU'] }));
    const preview = `${PREVIEW_COOKIE}=1`;
    for (const ctx of [await ctxOf(shopper, preview), await ctxOf(null, preview), await ctxOf(owner)]) {
      const fns = shell(ctx);
      expect(await fns.cmsPage('preview-only')).toBeNull();
      expect((await fns.cmsPage('edited-live'))?.pageTitle).toBe('Live title');
      const pages = (await fns.shell())?.pages ?? [];
      expect(pages.some((p) => p.id === draftOnly)).toBe(false);
      expect(pages.find((p) => p.id === edited)).toMatchObject({
        pageTitle: 'Live title',
        pageLinks: ['TOP', 'FOOTER'],
      });
    }
    const owners = shell(await ctxOf(owner, preview));
    expect(await owners.cmsPage('preview-only')).toMatchObject({ id: draftOnly, pageTitle: 'Preview only' });
    expect((await owners.cmsPage('edited-live'))?.pageTitle).toBe('Draft title');
    const pages = (await owners.shell())?.pages ?? [];
    expect(pages.find((p) => p.id === draftOnly)?.pageLinks).toEqual(['TOP', 'FOOTER']);
    expect(pages.find((p) => p.id === edited)).toMatchObject({ pageTitle: 'Draft title', pageLinks: ['MENU'] });
  });
});

describe('staff', () => {
  it('with the settings permission may save pages; without it, 403', async () => {
    await createStaff(t.database, 'lighting', 'pages@lighting.test', ['settings']);
    await createStaff(t.database, 'lighting', 'orders@lighting.test', ['orders']);
    const editor = await signIn(t.app, 'pages@lighting.test', 'owner-demo-1', LIGHTING.host);
    const other = await signIn(t.app, 'orders@lighting.test', 'owner-demo-1', LIGHTING.host);
    expect((await create(page('by-staff'), other)).statusCode).toBe(403);
    const res = await create(page('by-staff'), editor);
    expect(res.statusCode).toBe(201);
    expect((await publish(res.json().data.id, other)).statusCode).toBe(403);
    expect((await publish(res.json().data.id, editor)).statusCode).toBe(200);
  });
});

describe('CMS page functions', () => {
  it('refuse a visitor (401) and a shopper (403)', async () => {
    const visitor = cmsPages({ cms, drafts: t.services.drafts })(pageRequest(await ctxOf(null)));
    await expect(visitor.cmsList()).rejects.toMatchObject({ statusCode: 401 });
    const asShopper = cmsPages({ cms, drafts: t.services.drafts })(pageRequest(await ctxOf(shopper)));
    await expect(asShopper.cmsList()).rejects.toMatchObject({ statusCode: 403 });
    await expect(asShopper.saveCmsPage(null, page('x'))).rejects.toMatchObject({ statusCode: 403 });
  });

  it('answer field errors next to the fields, a taken URL on pageUrl, and null for an unknown page', async () => {
    const fns = cmsPages({ cms, drafts: t.services.drafts })(pageRequest(await ctxOf(owner)));
    const bad = await fns.saveCmsPage(null, { ...page('BAD URL'), pageTitle: '' });
    expect(bad).toMatchObject({ ok: false, status: 400 });
    expect(!bad.ok && Object.keys(bad.fieldErrors).sort()).toEqual(['pageTitle', 'pageUrl']);
    const taken = await fns.saveCmsPage(null, page('care-guide'));
    expect(taken).toMatchObject({
      ok: false,
      status: 409,
      fieldErrors: { pageUrl: expect.stringMatching(/already uses/) },
    });
    const ok = await fns.saveCmsPage(null, page('from-the-form'));
    expect(ok).toMatchObject({ ok: true, id: expect.stringMatching(/^page-/) });
    expect(await fns.cmsEditor('page-nothere')).toBeNull();
    expect(await fns.cmsEditor('../etc')).toBeNull();
    if (ok.ok) expect(await fns.deleteCmsPage(ok.id)).toMatchObject({ ok: true });
  });
});

describe('GET /api/v1/cms/fetch keeps its query', () => {
  it('filters by flag and by URL for shoppers, and keeps stores apart', async () => {
    const menu = (await fetchPages('?pageLink=MENU')).json().data;
    expect(menu.length).toBeGreaterThan(0);
    expect(menu.every((p: { pageLinks: string[] }) => p.pageLinks.includes('MENU'))).toBe(true);
    const bad = await fetchPages('?pageLink=SIDEBAR');
    expect(bad.statusCode).toBe(400);
    const garden = (await fetchPages('', gardenOwner, '', GARDEN.host)).json().data.map((p: { id: string }) => p.id);
    const lighting = (await fetchPages('', owner)).json().data.map((p: { id: string }) => p.id);
    expect(garden.filter((x: string) => lighting.includes(x))).toEqual([]);
  });
});
