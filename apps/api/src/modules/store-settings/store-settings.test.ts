import { draftSavedSchema, errorEnvelopeSchema, storeDetailsSchema } from '@app/contracts';
import { schema } from '@app/db';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_COOKIE } from '../../lib/preview';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import { createStaff } from '../../test/staff';
import { newsletterEmbedProblem } from './newsletter-embed';

/**
 * The theme and store details editors (decision 033): saves are drafts, shoppers see
 * them only after a publish, the owner's preview shows them, and each write is checked and audited.
 */
const LIGHTING = SEEDED_HOSTS.lighting;
const GARDEN = SEEDED_HOSTS.garden;
const ss = schema.storeSettings;
let t: TestApp;
let owner: BrowserSession;
let shopper: BrowserSession;
let gardenOwner: BrowserSession;
const heard: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
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

const THEME = {
  template: 'ONE',
  theme: 'THEME_FASHION',
  themeColors: { primary: '120, 20, 60', secondary: '100, 116, 139', banner: '15, 23, 42', action: '37,99,235' },
};

const put = (url: string, payload: unknown, session: BrowserSession | null, host: string = LIGHTING.host) =>
  t.app.inject({
    method: 'PUT',
    url,
    headers: { host, origin: `http://${host}`, ...session },
    payload: payload as Record<string, unknown>,
  });
const post = (url: string, session: BrowserSession | null, host: string = LIGHTING.host) =>
  t.app.inject({ method: 'POST', url, headers: { host, origin: `http://${host}`, ...session } });
const get = (url: string, session: BrowserSession | null, cookie = '') =>
  t.app.inject({
    method: 'GET',
    url,
    headers: { host: LIGHTING.host, cookie: [session?.cookie, cookie].filter(Boolean).join('; ') },
  });

const liveRow = async (tenantId = 'lighting', id: string = LIGHTING.storeId) => {
  const [row] = await t.database.db
    .select()
    .from(ss)
    .where(and(eq(ss.tenantId, tenantId), eq(ss.productStoreId, id)));
  if (!row) throw new Error('no settings row');
  return row;
};
const lastAudit = async (entity: string) => {
  const [entry] = await t.database.db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.tenantId, 'lighting'), eq(schema.auditLog.entity, entity)))
    .orderBy(desc(schema.auditLog.id))
    .limit(1);
  return entry;
};
const details = async (session: BrowserSession | null, cookie = '') => {
  const res = await get('/api/v1/store/detail/fetch', session, cookie);
  expect(res.statusCode).toBe(200);
  return { body: storeDetailsSchema.parse(res.json().data), cacheControl: String(res.headers['cache-control']) };
};

describe('PUT /api/v1/store/theme/update/{id}', () => {
  const url = `/api/v1/store/theme/update/${LIGHTING.storeId}`;

  it('saves a draft (not live), normalises "R, G, B", and writes an audit entry', async () => {
    const before = await liveRow();
    const res = await put(url, THEME, owner);
    expect(res.statusCode).toBe(200);
    const saved = draftSavedSchema.parse(res.json().data);
    expect(saved).toMatchObject({ kinds: ['theme'], key: LIGHTING.storeId, published: false });
    const after = await liveRow();
    expect(after.colorPrimary).toBe(before.colorPrimary);
    expect(after.template).toBe(before.template);
    const draft = await t.services.drafts.get({ ...ownerCtxStub() }, t.services.drafts.kind('theme'), LIGHTING.storeId);
    expect(draft?.payload).toMatchObject({ template: 'ONE', themeColors: { action: '37, 99, 235' } });
    expect(await lastAudit('store.theme')).toMatchObject({ action: 'draft.save', entityId: LIGHTING.storeId });
  });

  it('warns (does not refuse) when text on a colour falls below WCAG AA', async () => {
    const res = await put(url, { ...THEME, themeColors: { ...THEME.themeColors, action: '250, 250, 120' } }, owner);
    expect(res.statusCode).toBe(200);
    const { warnings } = draftSavedSchema.parse(res.json().data);
    expect(warnings.map((w) => w.field)).toEqual(['themeColors.action']);
    expect(warnings[0]?.ratio).toBeLessThan(4.5);
  });

  it.each([
    ['themeColors.primary', { ...THEME, themeColors: { ...THEME.themeColors, primary: '256, 0, 0' } }],
    ['themeColors.banner', { ...THEME, themeColors: { ...THEME.themeColors, banner: '#112233' } }],
    ['themeColors.secondary', { ...THEME, themeColors: { ...THEME.themeColors, secondary: '1, 2' } }],
    ['themeColors.action', { ...THEME, themeColors: { ...THEME.themeColors, action: '1.5, 2, 3' } }],
    ['template', { ...THEME, template: 'TWO' }],
  ])('answers 400 naming %s', async (field, body) => {
    const res = await put(url, body, owner);
    expect(res.statusCode).toBe(400);
    const err = errorEnvelopeSchema.parse(res.json());
    expect(err.message).toContain(field);
  });

  it('answers 401 to a visitor, 403 to a shopper, and 404 for another tenant’s store, saving nothing', async () => {
    expect((await put(url, THEME, null)).statusCode).toBe(401);
    const refused = await put(url, THEME, shopper);
    expect(refused.statusCode).toBe(403);
    expect(errorEnvelopeSchema.parse(refused.json()).code).toBe('FORBIDDEN');
    // The garden owner names lighting's store id on garden's host: not a store of that site.
    const foreign = await put(url, THEME, gardenOwner, GARDEN.host);
    expect(foreign.statusCode).toBe(404);
    const gardenDrafts = await t.database.db
      .select()
      .from(schema.contentDrafts)
      .where(eq(schema.contentDrafts.tenantId, 'garden'));
    expect(gardenDrafts).toHaveLength(0);
  });
});

describe('theme: preview, publish, history, restore', () => {
  const url = `/api/v1/store/theme/update/${LIGHTING.storeId}`;
  const preview = `${PREVIEW_COOKIE}=1`;

  it('shows the draft to the owner in preview only; a shopper and a visitor with the cookie see the live theme', async () => {
    const live = await liveRow();
    await put(url, THEME, owner);
    // Warm the shared cache with the live answer first: preview must not read from it either.
    await details(null);

    const ownerPreview = await details(owner, preview);
    expect(ownerPreview.body.themeColors.primary).toBe('120, 20, 60');
    expect(ownerPreview.body.template).toBe('ONE');
    expect(ownerPreview.cacheControl).toContain('no-store');

    for (const [who, session] of [
      ['shopper', shopper],
      ['visitor', null],
    ] as const) {
      const seen = await details(session, preview);
      expect(seen.body.themeColors.primary, who).toBe(live.colorPrimary);
      expect(seen.body.template, who).toBe(live.template);
    }
    // The owner without the switch sees the live store too.
    expect((await details(owner)).body.themeColors.primary).toBe(live.colorPrimary);

    const config = await get('/api/v1/store/config/fetch', shopper, preview);
    expect(config.json().data.themeColors.primary).toBe(live.colorPrimary);
    const ownerConfig = await get('/api/v1/store/config/fetch', owner, preview);
    expect(ownerConfig.json().data.themeColors.primary).toBe('120, 20, 60');
  });

  it('publishes: shoppers see it at once, a version is kept with who and when, the event is emitted', async () => {
    heard.length = 0;
    const res = await post(`/api/v1/drafts/theme/${LIGHTING.storeId}/publish`, owner);
    expect(res.statusCode).toBe(200);
    expect(heard).toContain('theme');
    const seen = await details(shopper);
    expect(seen.body.themeColors.primary).toBe('120, 20, 60');
    expect(seen.body.template).toBe('ONE');
    expect(await lastAudit('store.theme')).toMatchObject({ action: 'publish', actorKind: 'staff' });
    const status = await get(`/api/v1/drafts/theme/${LIGHTING.storeId}`, owner);
    expect(status.json().data.draft).toBeNull();
    // The first publish also keeps the look the store had before as version 1, to go back to.
    expect(status.json().data.versions).toMatchObject([
      { version: 2, publishedByName: expect.any(String) },
      { version: 1, publishedBy: null, publishedByName: 'Before drafts' },
    ]);
  });

  it('restores an earlier version as a draft, which goes live only when published', async () => {
    await put(url, { ...THEME, template: 'DEFAULT', themeColors: { ...THEME.themeColors, primary: '1, 2, 3' } }, owner);
    await post(`/api/v1/drafts/theme/${LIGHTING.storeId}/publish`, owner);
    expect((await details(shopper)).body.themeColors.primary).toBe('1, 2, 3');

    const restore = await post(`/api/v1/drafts/theme/${LIGHTING.storeId}/versions/2/restore`, owner);
    expect(restore.statusCode).toBe(200);
    expect((await details(shopper)).body.themeColors.primary).toBe('1, 2, 3');
    await post(`/api/v1/drafts/theme/${LIGHTING.storeId}/publish`, owner);
    const back = await details(shopper);
    expect(back.body.themeColors.primary).toBe('120, 20, 60');
    expect(back.body.template).toBe('ONE');

    // Version 1, the look before any draft, comes back the same way; the history only grows.
    await post(`/api/v1/drafts/theme/${LIGHTING.storeId}/versions/1/restore`, owner);
    await post(`/api/v1/drafts/theme/${LIGHTING.storeId}/publish`, owner);
    const original = await details(shopper);
    expect(original.body.themeColors.primary).toBe('146, 64, 14');
    expect(original.body.template).toBe('DEFAULT');
    const status = await get(`/api/v1/drafts/theme/${LIGHTING.storeId}`, owner);
    expect(status.json().data.versions.map((v: { version: number }) => v.version)).toEqual([5, 4, 3, 2, 1]);
  });

  it('refuses a shopper’s publish of the theme', async () => {
    const res = await post(`/api/v1/drafts/theme/${LIGHTING.storeId}/publish`, shopper);
    expect(res.statusCode).toBe(403);
  });
});

const DETAILS = {
  logo: { url: '/media/seed/lighting/logo.svg', headerTitle: 'Lumen', headerDescription: 'Lights for every room' },
  companyName: 'Lumen Lighting Co.',
  companyAddress: {
    address1: '1 Main St',
    address2: null,
    city: 'Portland',
    stateProvinceGeoId: 'US_OR',
    countryGeoId: 'USA',
    postalCode: '97201',
  },
  emailAddress: 'hello@lumen.example',
  companyContact: { countryCode: '1', areaCode: '503', contactNumber: '555-0100' },
  promotionTitle: 'Free shipping this week',
  pageTitle: 'Lumen Lighting',
  newsLetter: { iframe: '<iframe src="https://newsletter.example/form" title="Newsletter"></iframe>' },
  chat: { dataWidgetId: '5f1a2b3c4d5e6f7a8b9c0d1e/1abcdefgh' },
  contactPage: 'Y',
  seoMeta: [
    { route: 'default', title: 'Lumen', keywords: 'lamps, lights', description: 'Lamps and lights' },
    { route: '/products', title: 'All lamps', keywords: 'lamps', description: 'Every lamp we sell' },
  ],
};

describe('PUT /api/v1/store/detail/update/{id}', () => {
  const url = `/api/v1/store/detail/update/${LIGHTING.storeId}`;

  it('saves the details as a draft; publishing makes them and the SEO entries live', async () => {
    const before = await liveRow();
    const res = await put(url, DETAILS, owner);
    expect(res.statusCode).toBe(200);
    expect(draftSavedSchema.parse(res.json().data)).toMatchObject({ kinds: ['details'], published: false });
    expect((await liveRow()).companyName).toBe(before.companyName);
    expect(await lastAudit('store.details')).toMatchObject({ action: 'draft.save' });

    // Preview: the owner sees the draft's name and SEO entries, a shopper with the cookie does not.
    const preview = `${PREVIEW_COOKIE}=1`;
    expect((await details(owner, preview)).body.companyName).toBe('Lumen Lighting Co.');
    expect((await details(shopper, preview)).body.companyName).toBe(before.companyName);
    const seoOwner = await get('/assets/seo-meta.config.json', owner, preview);
    expect(seoOwner.json()).toContainEqual(expect.objectContaining({ route: '/products', title: 'All lamps' }));
    const seoShopper = await get('/assets/seo-meta.config.json', shopper, preview);
    expect(seoShopper.json()).not.toContainEqual(expect.objectContaining({ title: 'All lamps' }));

    heard.length = 0;
    expect((await post(`/api/v1/drafts/details/${LIGHTING.storeId}/publish`, owner)).statusCode).toBe(200);
    expect(heard).toContain('details');
    const seen = (await details(shopper)).body;
    expect(seen).toMatchObject({
      companyName: 'Lumen Lighting Co.',
      promotionTitle: 'Free shipping this week',
      contactPage: 'Y',
      chat: { dataWidgetId: '5f1a2b3c4d5e6f7a8b9c0d1e/1abcdefgh' },
      companyAddress: { city: 'Portland', countryGeoId: 'USA' },
    });
    expect(seen.logo.url).toBe(`http://${LIGHTING.host}/media/seed/lighting/logo.svg`);
    // The origin's state is kept (live carrier rates ship from it, decision 117).
    expect((await liveRow()).stateProvinceGeoId).toBe('US_OR');
    expect(seen.newsLetter.iframe).toContain('https://newsletter.example/form');
    const seo = await get('/assets/seo-meta.config.json', null);
    expect(seo.json()).toContainEqual({
      route: '/products',
      title: 'All lamps',
      keywords: 'lamps',
      description: 'Every lamp we sell',
    });
    expect(await lastAudit('store.details')).toMatchObject({ action: 'publish' });
  });

  it('lets staff with the settings permission save, and refuses staff without it', async () => {
    await createStaff(t.database, 'lighting', 'looks.staff@lighting.test', ['settings']);
    await createStaff(t.database, 'lighting', 'catalog.staff@lighting.test', ['catalog']);
    const looks = await signIn(t.app, 'looks.staff@lighting.test', 'owner-demo-1', LIGHTING.host);
    const catalog = await signIn(t.app, 'catalog.staff@lighting.test', 'owner-demo-1', LIGHTING.host);
    expect((await put(url, DETAILS, looks)).statusCode).toBe(200);
    expect((await put(url, DETAILS, catalog)).statusCode).toBe(403);
    expect((await put(`/api/v1/store/theme/update/${LIGHTING.storeId}`, THEME, catalog)).statusCode).toBe(403);
    expect((await post(`/api/v1/drafts/details/${LIGHTING.storeId}/publish`, catalog)).statusCode).toBe(403);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/drafts/details/${LIGHTING.storeId}`,
      headers: { host: LIGHTING.host, origin: `http://${LIGHTING.host}`, ...owner },
    });
  });

  it('saves theme fields sent on the same path into the theme draft', async () => {
    const res = await put(
      url,
      { ...DETAILS, themeColors: { ...THEME.themeColors, brand: undefined, primary: '9, 9, 9' } },
      owner,
    );
    expect(res.statusCode).toBe(200);
    // The details are the draft an earlier test saved: only the theme changed, so only it is saved.
    expect(res.json().data.kinds).toEqual(['theme']);
    const status = await get(`/api/v1/drafts/theme/${LIGHTING.storeId}`, owner);
    expect(status.json().data.draft).not.toBeNull();
    await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/drafts/theme/${LIGHTING.storeId}`,
      headers: { host: LIGHTING.host, origin: `http://${LIGHTING.host}`, ...owner },
    });
  });

  it.each([
    ['logo.url', { logo: { ...DETAILS.logo, url: 'http://cdn.example/logo.png' } }],
    ['logo.url', { logo: { ...DETAILS.logo, url: 'https://127.0.0.1/logo.png' } }],
    ['logo.url', { logo: { ...DETAILS.logo, url: 'https://intranet.local/logo.png' } }],
    ['logo.url', { logo: { ...DETAILS.logo, url: '/media/../etc/passwd' } }],
    ['logo.url', { logo: { ...DETAILS.logo, url: '/media/seed/garden/logo.svg' } }],
    ['emailAddress', { emailAddress: 'not-an-email' }],
    ['companyAddress.countryGeoId', { companyAddress: { ...DETAILS.companyAddress, countryGeoId: 'ZZZ' } }],
    ['companyAddress.postalCode', { companyAddress: { ...DETAILS.companyAddress, postalCode: '<b>' } }],
    [
      'companyAddress.stateProvinceGeoId',
      { companyAddress: { ...DETAILS.companyAddress, stateProvinceGeoId: 'CA_ON' } },
    ],
    [
      'companyAddress.stateProvinceGeoId',
      { companyAddress: { ...DETAILS.companyAddress, countryGeoId: 'FRA', stateProvinceGeoId: 'US_OR' } },
    ],
    [
      'companyAddress.stateProvinceGeoId',
      { companyAddress: { ...DETAILS.companyAddress, countryGeoId: null, stateProvinceGeoId: 'US_OR' } },
    ],
    [
      'companyAddress.stateProvinceGeoId',
      { companyAddress: { ...DETAILS.companyAddress, stateProvinceGeoId: 'Oregon' } },
    ],
    ['companyContact.contactNumber', { companyContact: { ...DETAILS.companyContact, contactNumber: 'call me' } }],
    ['chat.dataWidgetId', { chat: { dataWidgetId: 'https://evil.example/x.js' } }],
    ['newsLetter.iframe', { newsLetter: { iframe: '<script>alert(1)</script>' } }],
    ['newsLetter.iframe', { newsLetter: { iframe: '<iframe src="http://newsletter.example/f"></iframe>' } }],
    ['newsLetter.iframe', { newsLetter: { iframe: '<iframe src="https://10.0.0.5/f"></iframe>' } }],
    ['seoMeta', { seoMeta: [{ route: '/products', title: 'x', keywords: '', description: '' }] }],
    [
      'seoMeta.1.route',
      { seoMeta: [DETAILS.seoMeta[0], { route: 'no-slash', title: 'x', keywords: '', description: '' }] },
    ],
    ['contactPage', { contactPage: 'maybe' }],
  ])('answers 400 naming %s', async (field, change) => {
    const res = await put(url, { ...DETAILS, ...change }, owner);
    expect(res.statusCode).toBe(400);
    expect(errorEnvelopeSchema.parse(res.json()).message).toContain(field);
  });

  it('answers 401 to a visitor, 403 to a shopper, 404 for another tenant’s store', async () => {
    expect((await put(url, DETAILS, null)).statusCode).toBe(401);
    expect((await put(url, DETAILS, shopper)).statusCode).toBe(403);
    expect((await put(url, DETAILS, gardenOwner, GARDEN.host)).statusCode).toBe(404);
    expect((await put(`/api/v1/store/detail/update/${GARDEN.storeId}`, DETAILS, owner)).statusCode).toBe(404);
    expect((await liveRow('garden', GARDEN.storeId)).companyName).not.toBe('Lumen Lighting Co.');
  });
});

describe('OpenAPI', () => {
  it('documents both update paths with their bodies', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    const theme = doc.paths['/api/v1/store/theme/update/{id}']?.put;
    const detail = doc.paths['/api/v1/store/detail/update/{id}']?.put;
    expect(theme?.requestBody).toBeDefined();
    expect(detail?.requestBody).toBeDefined();
    const themeBody = theme.requestBody.content['application/json'].schema;
    expect(Object.keys(themeBody.properties).sort()).toEqual(['template', 'theme', 'themeColors']);
    const detailBody = detail.requestBody.content['application/json'].schema;
    expect(Object.keys(detailBody.properties)).toEqual(
      expect.arrayContaining(['logo', 'companyName', 'companyAddress', 'newsLetter', 'chat', 'seoMeta', 'themeColors']),
    );
  });
});

describe('newsletter embed check', () => {
  it('accepts one https iframe or form on a public host, and the seeded garden form', async () => {
    expect(newsletterEmbedProblem('<iframe src="https://x.example/f" width="300"></iframe>')).toBeNull();
    const garden = (await liveRow('garden', GARDEN.storeId)).newsletterEmbed ?? '';
    expect(newsletterEmbedProblem(garden)).toBeNull();
    expect(newsletterEmbedProblem('<form action="https://x.example/s"><input onfocus="x()"></form>')).toMatch(
      /on\.\.\./,
    );
    expect(
      newsletterEmbedProblem('<iframe src="https://x.example/f"></iframe><iframe src="https://x.example/g"></iframe>'),
    ).toMatch(/one/);
    expect(newsletterEmbedProblem('<img src="https://x.example/p.png">')).toMatch(/iframe/);
  });
});

/** A context for the service reads above: the owner's, taken from a real request. */
function ownerCtxStub() {
  return {
    tenantId: 'lighting',
    productStoreId: LIGHTING.storeId,
    hostName: LIGHTING.host,
    origin: `http://${LIGHTING.host}`,
    viaDevAlias: false,
    actor: { kind: 'system', name: 'test' },
    requestId: 'test',
    ip: null,
  } as unknown as Parameters<typeof t.services.drafts.get>[0];
}
