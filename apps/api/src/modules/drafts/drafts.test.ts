import { draftStatusSchema, errorEnvelopeSchema } from '@app/contracts';
import { schema } from '@app/db';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RequestContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { PREVIEW_COOKIE } from '../../lib/preview';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import { defineDraftKind, draftsPages } from './index';

/**
 * The drafts seam on its own (decision 032), with a small kind of the test's making: the store's
 * promotion title, a real live column the storefront shows. The theme, banners and pages kinds
 * have their own tests on top of this.
 */
const ss = schema.storeSettings;
const promo = defineDraftKind<{ promotionTitle: string }>({
  kind: 'test-promo',
  entity: 'store.promotion',
  payload: z.object({ promotionTitle: z.string().trim().min(1, 'enter a title').max(80) }),
  async readLive(tx, ctx, key) {
    const [row] = await tx
      .select({ promotionTitle: ss.promotionTitle })
      .from(ss)
      .where(and(eq(ss.tenantId, ctx.tenantId), eq(ss.productStoreId, key)));
    return row ? { promotionTitle: row.promotionTitle ?? '' } : null;
  },
  async applyLive(tx, ctx, key, payload) {
    await tx
      .update(ss)
      .set({ promotionTitle: payload.promotionTitle })
      .where(and(eq(ss.tenantId, ctx.tenantId), eq(ss.productStoreId, key)));
  },
});

const LIGHTING = SEEDED_HOSTS.lighting;
const GARDEN = SEEDED_HOSTS.garden;
let t: TestApp;
let owner: BrowserSession;
let shopper: BrowserSession;
let gardenOwner: BrowserSession;
const heard: string[] = [];
const seenCtx: RequestContext[] = [];

beforeAll(async () => {
  t = await createTestApp({
    extraRoutes: async (app) => {
      // What the request context says about the preview switch, for the tests below.
      app.get('/test/ctx', async (req) => {
        seenCtx.push(req.ctx);
        return { preview: req.ctx.preview === true };
      });
    },
  });
  t.services.drafts.register(promo);
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

const live = async (tenantId = 'lighting', storeId: string = LIGHTING.storeId) => {
  const [row] = await t.database.db
    .select({ promotionTitle: ss.promotionTitle })
    .from(ss)
    .where(and(eq(ss.tenantId, tenantId), eq(ss.productStoreId, storeId)));
  return row?.promotionTitle;
};
const ctxOf = (session: BrowserSession | null, cookie = '') =>
  t.app
    .inject({
      method: 'GET',
      url: '/test/ctx',
      headers: { host: LIGHTING.host, cookie: [session?.cookie, cookie].filter(Boolean).join('; ') },
    })
    .then(() => seenCtx.at(-1) as RequestContext);

describe('drafts service', () => {
  it('refuses an invalid draft naming the field, and saves nothing', async () => {
    const ctx = await ctxOf(owner);
    await expect(t.services.drafts.save(ctx, promo, LIGHTING.storeId, { promotionTitle: '  ' })).rejects.toMatchObject({
      statusCode: 400,
      field: 'promotionTitle',
      message: 'promotionTitle: enter a title',
    });
    expect(await t.services.drafts.get(ctx, promo, LIGHTING.storeId)).toBeNull();
  });

  it('keeps a draft apart from what is live until it is published, then versions it', async () => {
    const ctx = await ctxOf(owner);
    const before = await live();
    await t.services.drafts.save(ctx, promo, LIGHTING.storeId, { promotionTitle: 'Winter sale' });
    expect(await live()).toBe(before);
    expect((await t.services.drafts.get(ctx, promo, LIGHTING.storeId))?.payload).toEqual({
      promotionTitle: 'Winter sale',
    });

    heard.length = 0;
    const published = await t.services.drafts.publish(ctx, promo, LIGHTING.storeId);
    if (!published.ok) throw new Error(published.message);
    const { version } = published.value;
    expect(await live()).toBe('Winter sale');
    expect(await t.services.drafts.get(ctx, promo, LIGHTING.storeId)).toBeNull();
    const versions = await t.services.drafts.versions(ctx, promo, LIGHTING.storeId);
    expect(versions[0]?.version).toBe(version);
    expect(versions[0]?.publishedBy).toBeTruthy();
    // What was live before the first publish is kept as version 1, so it can be restored.
    expect(version).toBe(2);
    expect(versions.at(-1)).toMatchObject({ version: 1, publishedByName: 'Before drafts', publishedBy: null });
    expect(heard).toContain('test-promo');

    const [entry] = await t.database.db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.tenantId, 'lighting'), eq(schema.auditLog.entity, 'store.promotion')))
      .orderBy(desc(schema.auditLog.id))
      .limit(1);
    expect(entry).toMatchObject({ action: 'publish', entityId: LIGHTING.storeId, actorKind: 'staff' });
    expect(entry?.changes.promotionTitle).toEqual({ before, after: 'Winter sale' });
  });

  it('answers 409 to a publish with nothing to publish, and publishes a draft once under a race', async () => {
    const ctx = await ctxOf(owner);
    const nothing = {
      ok: false,
      status: 409,
      code: 'CONFLICT',
      message: 'There are no unpublished changes to publish.',
    };
    expect(await t.services.drafts.publish(ctx, promo, LIGHTING.storeId)).toMatchObject(nothing);
    await t.services.drafts.save(ctx, promo, LIGHTING.storeId, { promotionTitle: 'Spring sale' });
    const results = await Promise.all([
      t.services.drafts.publish(ctx, promo, LIGHTING.storeId),
      t.services.drafts.publish(ctx, promo, LIGHTING.storeId),
    ]);
    // The second finds the draft gone once the first commits: refused, not published twice.
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([expect.objectContaining(nothing)]);
  });

  it('restores an earlier version as a draft, never straight live', async () => {
    const ctx = await ctxOf(owner);
    const versions = await t.services.drafts.versions(ctx, promo, LIGHTING.storeId);
    const winter = versions.find((x) => x.version === 2);
    if (!winter) throw new Error('no versions');
    await t.services.drafts.restore(ctx, promo, LIGHTING.storeId, winter.version);
    expect(await live()).toBe('Spring sale');
    expect((await t.services.drafts.get(ctx, promo, LIGHTING.storeId))?.payload).toEqual({
      promotionTitle: 'Winter sale',
    });
    await expect(t.services.drafts.restore(ctx, promo, LIGHTING.storeId, 999)).rejects.toMatchObject({
      statusCode: 404,
    });
    await t.services.drafts.discard(ctx, promo, LIGHTING.storeId);
    expect(await t.services.drafts.get(ctx, promo, LIGHTING.storeId)).toBeNull();
  });

  it('shows a draft in preview to the owner with the switch on, and to nobody else', async () => {
    const ownerCtx = await ctxOf(owner);
    await t.services.drafts.save(ownerCtx, promo, LIGHTING.storeId, { promotionTitle: 'Secret sale' });
    const previewCookie = `${PREVIEW_COOKIE}=1`;
    const ownerPreview = await ctxOf(owner, previewCookie);
    expect(ownerPreview.preview).toBe(true);
    expect(await t.services.drafts.preview(ownerPreview, promo, LIGHTING.storeId)).toEqual({
      promotionTitle: 'Secret sale',
    });
    // The owner without the switch, a shopper and a visitor who send the cookie: the live store.
    expect(await t.services.drafts.preview(ownerCtx, promo, LIGHTING.storeId)).toBeNull();
    for (const ctx of [await ctxOf(shopper, previewCookie), await ctxOf(null, previewCookie)]) {
      expect(ctx.preview).not.toBe(true);
      expect(await t.services.drafts.preview(ctx, promo, LIGHTING.storeId)).toBeNull();
    }
    await t.services.drafts.discard(ownerCtx, promo, LIGHTING.storeId);
  });

  it('refuses shoppers and visitors in the service itself', async () => {
    for (const ctx of [await ctxOf(shopper), await ctxOf(null)]) {
      await expect(t.services.drafts.save(ctx, promo, LIGHTING.storeId, { promotionTitle: 'x' })).rejects.toMatchObject(
        {
          statusCode: ctx.actor.kind === 'guest' ? 401 : 403,
        },
      );
    }
  });
});

describe('draft routes', () => {
  const status = (session: BrowserSession | null, host: string = LIGHTING.host, key: string = LIGHTING.storeId) =>
    t.app.inject({ method: 'GET', url: `/api/v1/drafts/test-promo/${key}`, headers: { host, ...session } });

  it('answers 401 to a visitor and 403 to a shopper, touching nothing', async () => {
    expect((await status(null)).statusCode).toBe(401);
    expect((await status(shopper)).statusCode).toBe(403);
    const publish = await t.app.inject({
      method: 'POST',
      url: `/api/v1/drafts/test-promo/${LIGHTING.storeId}/publish`,
      headers: { host: LIGHTING.host, origin: `http://${LIGHTING.host}`, ...shopper },
    });
    expect(publish.statusCode).toBe(403);
    expect(errorEnvelopeSchema.parse(publish.json()).code).toBe('FORBIDDEN');
  });

  it('publishes through the API and keeps another store out of it', async () => {
    const ctx = await ctxOf(owner);
    await t.services.drafts.save(ctx, promo, LIGHTING.storeId, { promotionTitle: 'Route sale' });
    const mine = draftStatusSchema.parse((await status(owner)).json().data);
    expect(mine.draft).not.toBeNull();
    // The garden owner asking for the same key on their host sees their own (empty) state.
    const theirs = draftStatusSchema.parse((await status(gardenOwner, GARDEN.host)).json().data);
    expect(theirs.draft).toBeNull();
    expect(theirs.versions).toEqual([]);
    // The lighting owner's session does not work on garden's host at all.
    expect((await status(owner, GARDEN.host)).statusCode).toBe(401);
    const gardenPublish = await t.app.inject({
      method: 'POST',
      url: `/api/v1/drafts/test-promo/${LIGHTING.storeId}/publish`,
      headers: { host: GARDEN.host, origin: `http://${GARDEN.host}`, ...gardenOwner },
    });
    expect(gardenPublish.statusCode).toBe(409);
    expect(await live()).not.toBe('Route sale');

    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/drafts/test-promo/${LIGHTING.storeId}/publish`,
      headers: { host: LIGHTING.host, origin: `http://${LIGHTING.host}`, ...owner },
    });
    expect(res.statusCode).toBe(200);
    expect(await live()).toBe('Route sale');
    expect(await live('garden', GARDEN.storeId)).not.toBe('Route sale');
  });

  it('answers 404 for a kind nobody registered and 400 for a bad key', async () => {
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/v1/drafts/no-such-kind/9000',
      headers: { host: LIGHTING.host, ...owner },
    });
    expect(unknown.statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/v1/drafts/test-promo/..%2Fx',
      headers: { host: LIGHTING.host, ...owner },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('sets and clears the preview cookie for the owner only', async () => {
    const on = await t.app.inject({
      method: 'POST',
      url: '/api/v1/store/preview',
      headers: { host: LIGHTING.host, origin: `http://${LIGHTING.host}`, ...owner },
      payload: { on: true },
    });
    expect(on.statusCode).toBe(200);
    expect(String(on.headers['set-cookie'])).toContain(`${PREVIEW_COOKIE}=1`);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v1/store/preview',
      headers: { host: LIGHTING.host, origin: `http://${LIGHTING.host}`, ...shopper },
      payload: { on: true },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['set-cookie']).toBeUndefined();
  });
});

describe('draft page functions', () => {
  it('turn a form from elsewhere into a message on the page, and publish nothing', async () => {
    const ctx = await ctxOf(owner);
    await t.services.drafts.save(ctx, promo, LIGHTING.storeId, { promotionTitle: 'Forged sale' });
    const api = draftsPages({ drafts: t.services.drafts })({
      ctx,
      headers: {},
      secure: false,
      assertFormFromStore() {
        throw AppError.forbidden('This form has expired. Reload the page and try again.');
      },
      cached: (_key, compute) => compute(),
    });
    const result = await api.publishDraft('test-promo', LIGHTING.storeId);
    expect(result).toMatchObject({ ok: false, status: 403 });
    expect(await live()).not.toBe('Forged sale');
    await t.services.drafts.discard(ctx, promo, LIGHTING.storeId);
  });
});
