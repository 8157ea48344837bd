import { schema } from '@app/db';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stockedProductId } from '../../test/guest-order';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';
import { storeCaller } from '../../test/owners';
import { createStaff } from '../../test/staff';

// Shipping as a draft (decision 120): the owner's changes wait in a draft shoppers do not see,
// are priced beside the live rates, and go live together when published.

let t: TestApp;
let owner: BrowserSession;
let colleague: BrowserSession;
let shopper: BrowserSession;
let catalogStaff: BrowserSession;
let productId: string;
const HOST = 'lighting.localhost';
const B = '/skulocity/api/v1';
const P = '/api/v1/shipping';
const D = '/api/v1/drafts/shipping/store';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Zone = {
  zoneId: string;
  name: string;
  countries: string[];
  states: string[];
  restOfWorld: boolean;
  methods: ({ methodId: string; name: string; kind: string; flatRate: number } & Record<string, unknown>)[];
};
type DraftView = { zones: Zone[]; draft: { updatedAt: string; updatedByName: string | null } };

const { call, ok } = storeCaller(
  () => t.app,
  HOST,
  () => owner,
);

/** What checkout lists for a one-item cart going to New York (the North America zone). */
async function shopperRates() {
  const added = await t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/product/addToCart`,
    headers: { host: HOST },
    payload: { productId, quantity: 1 },
  });
  const cookie = String([added.headers['set-cookie']].flat()[0]).split(';')[0] as string;
  const res = await t.app.inject({
    method: 'GET',
    url: `${B}/public/ecommerce/checkout/checkoutoptions?countryGeoId=USA&stateProvinceGeoId=US_NY`,
    headers: { host: HOST, cookie },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data.shippingMethods as { methodId: string; rate: number }[]).map((m) => [m.methodId, m.rate]);
}

/** The live zones with Express in North America at `rate`, as a draft body. */
function withExpressAt(zones: Zone[], rate: number) {
  return {
    zones: zones.map((z) => ({
      zoneId: z.zoneId,
      name: z.name,
      countries: z.countries,
      states: z.states,
      restOfWorld: z.restOfWorld,
      methods: z.methods.map(({ zoneId: _z, ...m }) => (m.methodId === 'EXPRESS' ? { ...m, flatRate: rate } : m)),
    })),
  };
}

const preview = { subtotal: 2000, weightGrams: 500, countryGeoId: 'USA', stateProvinceGeoId: 'US_NY' };

beforeAll(async () => {
  t = await createTestApp();
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', HOST);
  shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', HOST);
  await createStaff(t.database, 'lighting', 'draft-settings@lighting.test', ['settings']);
  await createStaff(t.database, 'lighting', 'draft-catalog@lighting.test', ['catalog']);
  colleague = await signIn(t.app, 'draft-settings@lighting.test', 'owner-demo-1', HOST);
  catalogStaff = await signIn(t.app, 'draft-catalog@lighting.test', 'owner-demo-1', HOST);
  productId = await stockedProductId(t.database.db, 'lighting');
});
afterAll(() => t?.close());

describe('a shipping draft', () => {
  it('is not what shoppers pay until it is published; the preview prices both; the publish is audited in words', async () => {
    const live = (await ok<{ zones: Zone[] }>('GET', `${P}/zones`)).zones;
    const before = await shopperRates();
    const express = live[0]?.methods.find((m) => m.methodId === 'EXPRESS');
    expect(express?.kind).toBe('flat');
    expect((await call('GET', `${P}/draft`)).statusCode).toBe(404);

    const draft = await ok<DraftView>('PUT', `${P}/draft`, withExpressAt(live, 2222));
    expect(draft.zones[0]?.methods.find((m) => m.methodId === 'EXPRESS')?.flatRate).toBe(2222);
    // Shoppers, checkout and the live read are unchanged.
    expect(await shopperRates()).toEqual(before);
    expect((await ok<{ zones: Zone[] }>('GET', `${P}/zones`)).zones).toEqual(live);

    const priced = await ok<{
      rates: { methodId: string; rate: number }[];
      draft: { rates: { methodId: string; rate: number }[] };
    }>('POST', `${P}/preview`, preview);
    expect(priced.rates.find((r) => r.methodId === 'EXPRESS')?.rate).toBe(express?.flatRate);
    expect(priced.draft.rates.find((r) => r.methodId === 'EXPRESS')?.rate).toBe(2222);

    const status = await ok<{ draft: { updatedAt: string } }>('GET', D);
    expect((await ok<{ version: number }>('POST', `${D}/publish`, { seen: status.draft.updatedAt })).version).toBe(2);
    expect(Object.fromEntries(await shopperRates()).EXPRESS).toBe(2222);
    expect((await call('GET', `${P}/draft`)).statusCode).toBe(404);

    const al = schema.auditLog;
    const [published] = await t.database.db
      .select()
      .from(al)
      .where(and(eq(al.tenantId, 'lighting'), eq(al.entity, 'shipping'), eq(al.action, 'publish')))
      .orderBy(desc(al.id));
    expect(published).toMatchObject({ actorKind: 'staff', entityId: 'store' });
    expect(published?.changes.summary?.after, JSON.stringify(published?.changes.summary)).toContain(
      'Express in North America: 24.95 USD flat → 22.22 USD flat.',
    );
    const [row] = await t.database.db
      .select()
      .from(al)
      .where(and(eq(al.tenantId, 'lighting'), eq(al.entity, 'shipping_method'), eq(al.entityId, 'EXPRESS')))
      .orderBy(desc(al.id));
    expect(row).toMatchObject({ action: 'update' });
  });

  it('refuses a publish of a draft a colleague changed since it was opened, and one over a direct change', async () => {
    const live = (await ok<{ zones: Zone[] }>('GET', `${P}/zones`)).zones;
    await ok('PUT', `${P}/draft`, withExpressAt(live, 3000));
    const seen = (await ok<{ draft: { updatedAt: string } }>('GET', D)).draft.updatedAt;
    // A colleague saves the draft again before the owner publishes what they looked at.
    await new Promise((r) => setImmediate(r));
    await ok('PUT', `${P}/draft`, withExpressAt(live, 3100), colleague);
    const stale = await call('POST', `${D}/publish`, { body: { seen } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toContain('changed the draft after you opened it');
    expect(Object.fromEntries(await shopperRates()).EXPRESS).toBe(live[0]?.methods[1]?.flatRate);

    // A change saved straight to live after the draft started: publishing would undo it, so no.
    const zoneId = live[0]?.zoneId as string;
    await ok('PUT', `${P}/zones/${zoneId}/methods/EXPRESS`, { ...withExpressAt(live, 2500).zones[0]?.methods[1] });
    const over = await call('POST', `${D}/publish`);
    expect(over.statusCode, over.body).toBe(409);
    expect(over.json().message).toContain('changed directly after this draft was started');
    expect(Object.fromEntries(await shopperRates()).EXPRESS).toBe(2500);

    expect((await call('DELETE', D)).statusCode).toBe(204);
    expect((await call('POST', `${D}/publish`)).statusCode).toBe(409);
  });

  it('checks a draft as the direct writes do, and keeps it to the settings permission', async () => {
    const live = (await ok<{ zones: Zone[] }>('GET', `${P}/zones`)).zones;
    const unknown = await call('PUT', `${P}/draft`, {
      body: { zones: [{ name: 'Nowhere', countries: ['ATL'] }] },
    });
    expect(unknown.statusCode).toBe(422);
    const twoRest = await call('PUT', `${P}/draft`, {
      body: {
        zones: [
          { name: 'A', restOfWorld: true },
          { name: 'B', restOfWorld: true },
        ],
      },
    });
    expect(twoRest.statusCode).toBe(422);
    expect((await call('PUT', `${P}/draft`, { body: { zones: [{ name: 'A', countries: [1] }] } })).statusCode).toBe(
      400,
    );
    expect((await call('GET', `${P}/draft`)).statusCode).toBe(404);

    const body = withExpressAt(live, 1);
    for (const [verb, url] of [
      ['GET', `${P}/draft`],
      ['PUT', `${P}/draft`],
      ['POST', `${D}/publish`],
      ['DELETE', D],
    ] as [Method, string][]) {
      const b = verb === 'PUT' ? body : undefined;
      expect((await call(verb, url, { body: b, session: null })).statusCode, `${verb} ${url}`).toBe(401);
      expect((await call(verb, url, { body: b, session: shopper })).statusCode, `${verb} ${url}`).toBe(403);
      expect((await call(verb, url, { body: b, session: catalogStaff })).statusCode, `${verb} ${url}`).toBe(403);
    }
    expect((await call('GET', `${P}/draft`)).statusCode).toBe(404);

    // A new zone in the draft gets its id there and keeps it when published.
    const added = await ok<DraftView>('PUT', `${P}/draft`, {
      zones: [
        ...withExpressAt(live, 2500).zones,
        { name: 'Japan', countries: ['JPN'], methods: [{ name: 'Air', kind: 'flat', flatRate: 1800 }] },
      ],
    });
    const japan = added.zones.find((z) => z.name === 'Japan');
    await ok('POST', `${D}/publish`);
    const after = (await ok<{ zones: Zone[] }>('GET', `${P}/zones`)).zones;
    expect(after.find((z) => z.name === 'Japan')).toEqual(japan);
  });
});
