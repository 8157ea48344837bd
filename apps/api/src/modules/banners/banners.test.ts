import { randomBytes } from 'node:crypto';
import { BANNERS_MAX } from '@app/contracts';
import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';
import { createStaff } from '../../test/staff';

let t: TestApp;
let owner: BrowserSession;
let gardenOwner: BrowserSession;
let shopper: BrowserSession;
let catalogStaff: BrowserSession;
let mediaId: string;
let gardenMediaId: string;
const HOST = 'lighting.localhost';
const GARDEN = 'garden.localhost';
const events: { tenantId: string; what: string }[] = [];

type Working = {
  productStoreId: string;
  isDraft: boolean;
  banners: { bannerId: string; title: string | null; altText: string; imageUrl: string; mediaId: string | null }[];
};

async function uploadPicture(session: BrowserSession, host: string): Promise<string> {
  const png = await sharp({ create: { width: 1600, height: 600, channels: 3, background: '#c60' } })
    .png()
    .toBuffer();
  const boundary = `----sf${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/media/upload',
    headers: {
      host,
      origin: `http://${host}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...session,
    },
    payload,
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().data.mediaId;
}

beforeAll(async () => {
  t = await createTestApp();
  t.services.events.on('settings.changed', (p) => {
    events.push(p);
  });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', HOST);
  gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
  shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', HOST);
  await createStaff(t.database, 'lighting', 'banner-catalog@lighting.test', ['catalog']);
  catalogStaff = await signIn(t.app, 'banner-catalog@lighting.test', 'owner-demo-1', HOST);
  mediaId = await uploadPicture(owner, HOST);
  gardenMediaId = await uploadPicture(gardenOwner, GARDEN);
});
afterAll(() => t.close());

function call(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  opts: { body?: unknown; session?: BrowserSession | null; host?: string } = {},
) {
  const host = opts.host ?? HOST;
  return t.app.inject({
    method,
    url,
    headers: { host, origin: `http://${host}`, ...(opts.session === null ? {} : (opts.session ?? owner)) },
    ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
  });
}

const publicBanners = async (host = HOST) =>
  (await t.app.inject({ url: '/api/v1/product/banner/fetch', headers: { host } })).json().data as {
    bannerId: string;
    title: string;
    altText: string;
    imageUrl: string;
  }[];

const working = async (session = owner, host = HOST): Promise<Working> =>
  (await call('GET', '/api/v1/product/banner/draft', { session, host })).json().data;

const auditEntries = (action: string) =>
  t.database.db
    .select()
    .from(schema.auditLog)
    .where(
      and(
        eq(schema.auditLog.tenantId, 'lighting'),
        eq(schema.auditLog.entity, 'banners'),
        eq(schema.auditLog.action, action),
      ),
    );

const NEW = {
  altText: 'Brass desk lamp on an oak table',
  title: 'Autumn light',
  text: 'Warm lamps for long evenings.',
  ctaLabel: 'Shop lamps',
  linkUrl: '/categories/LIG_LAMPS',
};

describe('banners as a draft', () => {
  let added: string;

  it('starts from the published banners', async () => {
    const w = await working();
    expect(w).toMatchObject({ productStoreId: '9000', isDraft: false });
    expect(w.banners.length).toBe((await publicBanners()).length);
    expect(w.banners.length).toBeGreaterThan(0);
    // The seed's banners have no alt text of their own: their title stands in.
    expect(w.banners[0]?.altText).toBeTruthy();
  });

  it('adds a banner with an uploaded picture to the draft; shoppers do not see it yet', async () => {
    const liveBefore = await publicBanners();
    const res = await call('POST', '/api/v1/product/banner/create', { body: { ...NEW, mediaId } });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    added = data.bannerId;
    expect(data.bannerId).toMatch(/^BNR-[0-9a-f]{12}$/);
    expect(data.working.isDraft).toBe(true);
    expect(data.working.banners.at(-1)).toEqual({
      bannerId: added,
      mediaId,
      imageUrl: `/media/t/lighting/m/${mediaId}.webp`,
      altText: NEW.altText,
      title: NEW.title,
      text: NEW.text,
      ctaLabel: NEW.ctaLabel,
      linkUrl: NEW.linkUrl,
      startsAt: null,
      endsAt: null,
    });
    expect(await publicBanners()).toEqual(liveBefore);
    const [entry] = await auditEntries('draft.save');
    expect(entry).toMatchObject({ entityId: '9000', actorKind: 'staff' });
  });

  it('refuses bad input naming the field, and saves nothing', async () => {
    const before = await working();
    const cases: [Record<string, unknown>, RegExp, number][] = [
      [{ ...NEW, mediaId, altText: '  ' }, /altText/, 400],
      [{ ...NEW, mediaId, altText: undefined }, /altText/, 400],
      [{ ...NEW, mediaId, linkUrl: 'javascript:alert(1)' }, /linkUrl/, 400],
      [{ ...NEW, mediaId, linkUrl: '//evil.example/x' }, /linkUrl/, 400],
      [{ ...NEW, mediaId, linkUrl: 'http://plain.example/' }, /linkUrl/, 400],
      [{ ...NEW, mediaId, startsAt: '2026-05-02T00:00:00Z', endsAt: '2026-05-01T00:00:00Z' }, /endsAt/, 400],
      [{ ...NEW, mediaId, startsAt: 'tomorrow' }, /startsAt/, 400],
      [{ ...NEW, title: 'x'.repeat(121), mediaId }, /title/, 400],
      [{ ...NEW }, /mediaId: choose or upload a picture/, 400],
      // Another store's picture is not in this store's library.
      [{ ...NEW, mediaId: gardenMediaId }, /mediaId: no such picture/, 422],
    ];
    for (const [body, field, status] of cases) {
      const res = await call('POST', '/api/v1/product/banner/create', { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().message).toMatch(field);
    }
    expect(await working()).toEqual(before);
  });

  it('accepts an https link and dates', async () => {
    const res = await call('PUT', `/api/v1/product/banner/update/${added}`, {
      body: { ...NEW, linkUrl: 'https://example.com/lookbook', startsAt: '2020-01-01T00:00:00Z', endsAt: null },
    });
    expect(res.statusCode).toBe(200);
    const b = res.json().data.banners.find((x: { bannerId: string }) => x.bannerId === added);
    // No mediaId: the picture stays.
    expect(b).toMatchObject({ mediaId, linkUrl: 'https://example.com/lookbook', startsAt: '2020-01-01T00:00:00.000Z' });
  });

  it('reorders with every id once, and refuses anything else', async () => {
    const ids = (await working()).banners.map((b) => b.bannerId);
    const reversed = [...ids].reverse();
    const res = await call('POST', '/api/v1/product/banner/reorder', { body: { bannerIds: reversed } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.banners.map((b: { bannerId: string }) => b.bannerId)).toEqual(reversed);
    const missing = await call('POST', '/api/v1/product/banner/reorder', { body: { bannerIds: reversed.slice(1) } });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().message).toMatch(/^bannerIds: /);
    const twice = await call('POST', '/api/v1/product/banner/reorder', {
      body: { bannerIds: [reversed[0], ...reversed.slice(0, -1)] },
    });
    expect(twice.statusCode).toBe(422);
    // Back to the first order for the rest of the tests.
    await call('POST', '/api/v1/product/banner/reorder', { body: { bannerIds: ids } });
  });

  it('publishes: shoppers see the banners at once, in order, with alt text; a version is kept', async () => {
    events.length = 0;
    await publicBanners(); // fills the read cache
    const res = await call('POST', '/api/v1/drafts/banners/9000/publish', { body: {} });
    expect(res.statusCode).toBe(200);
    // Version 1 is the seeded banners, kept by the first publish so they can be restored.
    expect(res.json().data).toEqual({ version: 2 });
    expect(events).toContainEqual({ tenantId: 'lighting', what: 'banners' });
    const live = await publicBanners();
    const draftOrder = (await working()).banners;
    expect(live.map((b) => b.bannerId)).toEqual(draftOrder.map((b) => b.bannerId));
    expect(live.at(-1)).toMatchObject({
      bannerId: added,
      altText: NEW.altText,
      imageUrl: `http://lighting.localhost/media/t/lighting/m/${mediaId}.webp`,
    });
    expect((await working()).isDraft).toBe(false);
    expect(await auditEntries('publish')).toHaveLength(1);
  });

  it('shows a banner only within its dates', async () => {
    const ids = (await working()).banners.map((b) => b.bannerId);
    const [first, second] = ids;
    await call('PUT', `/api/v1/product/banner/update/${first}`, {
      body: { altText: 'Later', title: 'Later', startsAt: '2999-01-01T00:00:00Z' },
    });
    await call('PUT', `/api/v1/product/banner/update/${second}`, {
      body: { altText: 'Over', title: 'Over', endsAt: '2001-01-01T00:00:00Z' },
    });
    await call('POST', '/api/v1/drafts/banners/9000/publish', { body: {} });
    const live = (await publicBanners()).map((b) => b.bannerId);
    expect(live).not.toContain(first);
    expect(live).not.toContain(second);
    expect(live).toContain(added);
    expect(live).toHaveLength(ids.length - 2);
  });

  it('deletes from the draft, and restores an earlier version as the draft', async () => {
    const res = await call('DELETE', `/api/v1/product/banner/delete/${added}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.banners.map((b: { bannerId: string }) => b.bannerId)).not.toContain(added);
    expect((await call('DELETE', `/api/v1/product/banner/delete/${added}`)).statusCode).toBe(404);
    expect((await call('PUT', '/api/v1/product/banner/update/BNR-nope', { body: NEW })).statusCode).toBe(404);

    const restored = await call('POST', '/api/v1/drafts/banners/9000/versions/2/restore', { body: {} });
    expect(restored.statusCode).toBe(200);
    const w = await working();
    expect(w.isDraft).toBe(true);
    expect(w.banners.map((b) => b.bannerId)).toContain(added);
    expect(w.banners.find((b) => b.title === 'Later')).toBeUndefined();
    // Version 1 is the store as seeded, before any publish: the added banner is not in it.
    await call('POST', '/api/v1/drafts/banners/9000/versions/1/restore', { body: {} });
    expect((await working()).banners.map((b) => b.bannerId)).not.toContain(added);
    await call('POST', '/api/v1/drafts/banners/9000/versions/2/restore', { body: {} });
  });

  it('replaces the whole draft in one call (new banners without an id)', async () => {
    const current = (await working()).banners;
    const keep = current[0];
    const res = await call('PUT', '/api/v1/product/banner/draft', {
      body: {
        banners: [
          { ...NEW, mediaId, title: 'Brand new' },
          { bannerId: keep?.bannerId, altText: 'Kept' },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    const list = res.json().data.banners;
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ title: 'Brand new', mediaId });
    expect(list[1]).toMatchObject({ bannerId: keep?.bannerId, altText: 'Kept', imageUrl: keep?.imageUrl });
    const bad = await call('PUT', '/api/v1/product/banner/draft', { body: { banners: [{ ...NEW }] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^banners\.0\.mediaId: /);
  });

  it('refuses a banner beyond the most a store keeps, saying so, and saves nothing', async () => {
    const full = Array.from({ length: BANNERS_MAX }, (_, i) => ({ ...NEW, mediaId, title: `Banner ${i + 1}` }));
    expect((await call('PUT', '/api/v1/product/banner/draft', { body: { banners: full } })).statusCode).toBe(200);
    const before = await working();
    const message = `A store keeps at most ${BANNERS_MAX} banners; delete one first.`;
    const res = await call('POST', '/api/v1/product/banner/create', { body: { ...NEW, mediaId } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'UNPROCESSABLE', message, errors: [message] });
    expect(await working()).toEqual(before);
  });
});

describe('banners are the owner’s and this store’s only', () => {
  it('401 for a visitor, 403 for a shopper and for staff without settings; nothing changes', async () => {
    const before = await working();
    const body = { ...NEW, mediaId };
    for (const [session, status] of [
      [null, 401],
      [shopper, 403],
      [catalogStaff, 403],
      [gardenOwner, 401],
    ] as const) {
      expect((await call('POST', '/api/v1/product/banner/create', { body, session })).statusCode).toBe(status);
      expect((await call('GET', '/api/v1/product/banner/draft', { session })).statusCode).toBe(status);
      expect(
        (await call('DELETE', `/api/v1/product/banner/delete/${before.banners[0]?.bannerId}`, { session })).statusCode,
      ).toBe(status);
    }
    expect(await working()).toEqual(before);
  });

  it("404 for another store's banners and store ids, from its own owner", async () => {
    const lightingBanner = (await working()).banners[0]?.bannerId;
    const gardenBefore = await working(gardenOwner, GARDEN);
    expect(gardenBefore.productStoreId).toBe('9001');
    expect(
      (
        await call('PUT', `/api/v1/product/banner/update/${lightingBanner}`, {
          body: NEW,
          session: gardenOwner,
          host: GARDEN,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await call('DELETE', `/api/v1/product/banner/delete/${lightingBanner}`, { session: gardenOwner, host: GARDEN }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call('GET', '/api/v1/product/banner/draft?productStoreId=9000', { session: gardenOwner, host: GARDEN }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call('POST', '/api/v1/drafts/banners/9000/publish', { body: {}, session: gardenOwner, host: GARDEN }))
        .statusCode,
    ).toBe(409);
    expect(await working(gardenOwner, GARDEN)).toEqual(gardenBefore);
    expect((await publicBanners(GARDEN)).every((b) => !b.imageUrl.includes('/lighting/'))).toBe(true);
  });
});
