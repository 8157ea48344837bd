import { randomUUID } from 'node:crypto';
import { schema } from '@app/db';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALIFORNIA_SHIP_TO, guestCardOrder, stockedProductId } from '../../test/guest-order';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';
import { createStaff } from '../../test/staff';

let t: TestApp;
let owner: BrowserSession;
let gardenOwner: BrowserSession;
let shopper: BrowserSession;
let catalogStaff: BrowserSession;
let settingsStaff: BrowserSession;
let productId: string;
let productPrice: number;
let productWeight: number;
const HOST = 'lighting.localhost';
const GARDEN = 'garden.localhost';
const B = '/skulocity/api/v1';
const P = '/api/v1/shipping';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

function call(
  method: Method,
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

async function ok<T = Record<string, unknown>>(method: Method, url: string, body?: unknown): Promise<T> {
  const res = await call(method, url, { body });
  expect([200, 201], `${method} ${url}: ${res.body}`).toContain(res.statusCode);
  return res.json().data as T;
}

type Zone = { zoneId: string; name: string; methods: { methodId: string; name: string }[] } & Record<string, unknown>;

/** The west coast zone of the browser test: weight bands, free from 150.00. */
const WEST = {
  name: 'West coast',
  countries: ['USA'],
  states: ['US_CA', 'US_OR', 'US_WA'],
  methods: [
    {
      name: 'Ground West',
      description: '2 to 4 business days',
      kind: 'weight',
      bands: [
        { upTo: 1000, rate: 450 },
        { upTo: 5000, rate: 850 },
        { upTo: 50000, rate: 1650 },
      ],
      freeAbove: 15000,
      handlingDays: 1,
    },
    { name: 'Pick up in the shop', description: '12 Harbor Road, weekdays 9 to 5', kind: 'pickup', handlingDays: 1 },
  ],
};

async function guestCart(quantity: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/product/addToCart`,
    headers: { host: HOST },
    payload: { productId, quantity },
  });
  expect(res.statusCode, res.body).toBe(200);
  return String([res.headers['set-cookie']].flat()[0]).split(';')[0] as string;
}

async function options(cookie: string, countryGeoId: string, stateProvinceGeoId?: string) {
  const q = new URLSearchParams({ countryGeoId, ...(stateProvinceGeoId ? { stateProvinceGeoId } : {}) });
  const res = await t.app.inject({
    method: 'GET',
    url: `${B}/public/ecommerce/checkout/checkoutoptions?${q}`,
    headers: { host: HOST, cookie },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    shippingMethods: {
      methodId: string;
      name: string;
      description: string;
      rate: number;
      freeAbove: number | null;
      delivery: string | null;
    }[];
    quote: { shipping: number };
  };
}

async function auditOf(entity: string, entityId: string) {
  const al = schema.auditLog;
  return t.database.db
    .select()
    .from(al)
    .where(and(eq(al.tenantId, 'lighting'), eq(al.entity, entity), eq(al.entityId, entityId)))
    .orderBy(desc(al.id));
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', HOST);
  gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
  shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', HOST);
  await createStaff(t.database, 'lighting', 'ship-catalog@lighting.test', ['catalog']);
  await createStaff(t.database, 'lighting', 'ship-settings@lighting.test', ['settings']);
  catalogStaff = await signIn(t.app, 'ship-catalog@lighting.test', 'owner-demo-1', HOST);
  settingsStaff = await signIn(t.app, 'ship-settings@lighting.test', 'owner-demo-1', HOST);
  productId = await stockedProductId(t.database.db, 'lighting');
  const [p] = await t.database.db
    .select()
    .from(schema.productVariants)
    .where(and(eq(schema.productVariants.tenantId, 'lighting'), eq(schema.productVariants.productId, productId)));
  productPrice = p?.salePrice ?? p?.listPrice ?? 0;
  productWeight = p?.weightGrams ?? 0;
});
afterAll(() => t?.close());

describe('the seeded stores', () => {
  it('list their shipping as zones: North America (Standard by weight, Express) and International', async () => {
    const { zones } = await ok<{ zones: Zone[] }>('GET', `${P}/zones`);
    expect(zones.map((z) => [z.name, z.methods.map((m) => m.methodId)])).toEqual([
      ['North America', ['STANDARD', 'EXPRESS']],
      ['International', ['INTERNATIONAL']],
    ]);
    expect(zones[0]?.methods[0]).toMatchObject({
      kind: 'weight',
      bands: [
        { upTo: 2000, rate: 695 },
        { upTo: 10000, rate: 1295 },
        { upTo: 1000000, rate: 2495 },
      ],
      freeAbove: 9900,
    });
  });
});

describe('who may change shipping', () => {
  it('a visitor gets 401, a shopper 403, staff without settings 403, another store 404; staff with settings may', async () => {
    const zone = await ok<Zone>('POST', `${P}/zones`, { name: 'Perm zone', countries: ['JPN'] });
    const method = await ok<{ methodId: string }>('POST', `${P}/zones/${zone.zoneId}/methods`, {
      name: 'Perm',
      kind: 'flat',
      flatRate: 100,
    });
    const m = { name: 'Perm', kind: 'flat', flatRate: 200 };
    const routes: [Method, string, object?][] = [
      ['GET', `${P}/zones`],
      ['GET', `${P}/zones/${zone.zoneId}`],
      ['POST', `${P}/zones`, { name: 'Perm 2', countries: ['NZL'] }],
      ['PUT', `${P}/zones/${zone.zoneId}`, { name: 'Perm zone', countries: ['JPN'] }],
      ['POST', `${P}/zones/${zone.zoneId}/methods`, m],
      ['PUT', `${P}/zones/${zone.zoneId}/methods/${method.methodId}`, m],
      ['POST', `${P}/preview`, { subtotal: 100, weightGrams: 100, countryGeoId: 'JPN' }],
      ['DELETE', `${P}/zones/${zone.zoneId}/methods/${method.methodId}`],
      ['DELETE', `${P}/zones/${zone.zoneId}`],
    ];
    for (const [verb, url, body] of routes) {
      expect((await call(verb, url, { body, session: null })).statusCode, `${verb} ${url}`).toBe(401);
      expect((await call(verb, url, { body, session: shopper })).statusCode, `${verb} ${url}`).toBe(403);
      const staff = await call(verb, url, { body, session: catalogStaff });
      expect(staff.statusCode, `${verb} ${url}`).toBe(403);
      expect(staff.json().message).toContain('settings');
      if (url.includes(zone.zoneId)) {
        const other = await call(verb, url, { body, session: gardenOwner, host: GARDEN });
        expect(other.statusCode, `${verb} ${url} from the garden store`).toBe(404);
      }
    }
    // Nothing changed by the refused calls.
    const kept = await ok<Zone>('GET', `${P}/zones/${zone.zoneId}`);
    expect(kept.methods).toMatchObject([{ methodId: method.methodId, flatRate: 100 }]);
    for (const [verb, url, body] of routes) {
      const res = await call(verb, url, { body, session: settingsStaff });
      expect([200, 201], `${verb} ${url}: ${res.body}`).toContain(res.statusCode);
    }
    const leftover = (await ok<{ zones: Zone[] }>('GET', `${P}/zones`)).zones.find((z) => z.name === 'Perm 2');
    if (leftover) await ok('DELETE', `${P}/zones/${leftover.zoneId}`);
  });
});

describe('refused input', () => {
  it('400 for malformed bodies: bands not ascending, amounts as strings or negative, too many bands, unknown fields', async () => {
    const zone = await ok<Zone>('POST', `${P}/zones`, { name: 'Bad input', countries: ['NZL'] });
    const url = `${P}/zones/${zone.zoneId}/methods`;
    const bad: [object, string][] = [
      [
        {
          name: 'X',
          kind: 'weight',
          bands: [
            { upTo: 5000, rate: 1 },
            { upTo: 5000, rate: 2 },
          ],
        },
        'higher',
      ],
      [{ name: 'X', kind: 'weight', bands: [] }, 'band'],
      [{ name: 'X', kind: 'flat', flatRate: '695' }, 'flatRate'],
      [{ name: 'X', kind: 'flat', flatRate: -1 }, 'flatRate'],
      [{ name: 'X', kind: 'flat', flatRate: 6.95 }, 'flatRate'],
      [{ name: 'X', kind: 'flat', freeAbove: -5 }, 'freeAbove'],
      [{ name: 'X', kind: 'flat', colour: 'red' }, 'colour'],
      [{ name: '', kind: 'flat' }, 'name'],
      [{ name: 'X', kind: 'drone' }, 'kind'],
      [{ name: 'X', kind: 'pickup', flatRate: 300 }, 'pickup'],
      [
        {
          name: 'X',
          kind: 'subtotal',
          bands: Array.from({ length: 21 }, (_, i) => ({ upTo: (i + 1) * 100, rate: 1 })),
        },
        'bands',
      ],
    ];
    for (const [body, word] of bad) {
      const res = await call('POST', url, { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message, JSON.stringify(body)).toContain(word);
    }
    expect((await call('POST', `${P}/zones`, { body: { name: 'X', countries: [] } })).statusCode).toBe(400);
    expect((await call('POST', `${P}/zones`, { body: { name: 'X', countries: 'USA' } })).statusCode).toBe(400);
    expect(
      (await call('POST', `${P}/zones`, { body: { name: 'X', restOfWorld: true, countries: ['USA'] } })).statusCode,
    ).toBe(400);
    await ok('DELETE', `${P}/zones/${zone.zoneId}`);
  });

  it('422 naming the field: an unknown country, a state of another country, a second rest of the world, the limits', async () => {
    const unknown = await call('POST', `${P}/zones`, { body: { name: 'X', countries: ['ATL'] } });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toContain('countries');
    const stray = await call('POST', `${P}/zones`, { body: { name: 'X', countries: ['CAN'], states: ['US_CA'] } });
    expect(stray.statusCode).toBe(422);
    expect(stray.json().message).toContain('states');
    const world = await ok<Zone>('POST', `${P}/zones`, { name: 'World', restOfWorld: true });
    const again = await call('POST', `${P}/zones`, { body: { name: 'World 2', restOfWorld: true } });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toContain('rest-of-world');

    for (let i = 0; i < 20; i++)
      await ok('POST', `${P}/zones/${world.zoneId}/methods`, { name: `M${i}`, kind: 'flat' });
    const tooMany = await call('POST', `${P}/zones/${world.zoneId}/methods`, { body: { name: 'M21', kind: 'flat' } });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().message).toContain('20 methods');
    await ok('DELETE', `${P}/zones/${world.zoneId}`);

    const { zones } = await ok<{ zones: Zone[] }>('GET', `${P}/zones`);
    const made: string[] = [];
    for (let i = zones.length; i < 50; i++)
      made.push((await ok<Zone>('POST', `${P}/zones`, { name: `Z${i}`, countries: ['NZL'] })).zoneId);
    const fiftyFirst = await call('POST', `${P}/zones`, { body: { name: 'Z51', countries: ['NZL'] } });
    expect(fiftyFirst.statusCode).toBe(422);
    expect(fiftyFirst.json().message).toContain('50 zones');
    for (const id of made) await ok('DELETE', `${P}/zones/${id}`);
  });

  it('a method of another zone, or an unknown one, is a 404', async () => {
    const { zones } = await ok<{ zones: Zone[] }>('GET', `${P}/zones`);
    const [na, intl] = zones;
    if (!na || !intl) throw new Error('seeded zones missing');
    const res = await call('PUT', `${P}/zones/${intl.zoneId}/methods/STANDARD`, {
      body: { name: 'X', kind: 'flat' },
    });
    expect(res.statusCode).toBe(404);
    expect((await call('DELETE', `${P}/zones/${na.zoneId}/methods/NOPE`)).statusCode).toBe(404);
    expect((await call('GET', `${P}/zones/NOPE`)).statusCode).toBe(404);
  });
});

describe('the owner sets shipping and checkout follows', () => {
  it('a zone by states with weight bands, free from an amount, and pickup: shown, previewed, charged, audited', async () => {
    const zone = await ok<Zone>('POST', `${P}/zones`, WEST);
    expect(zone.methods.map((m) => m.name)).toEqual(['Ground West', 'Pick up in the shop']);
    const ground = zone.methods[0]?.methodId as string;
    const [created] = await auditOf('shipping_zone', zone.zoneId);
    expect(created).toMatchObject({ action: 'create', actorKind: 'staff' });
    expect((await auditOf('shipping_method', ground))[0]).toMatchObject({ action: 'create' });

    // The zone's read can be written back as it is.
    const read = await ok<Zone>('GET', `${P}/zones/${zone.zoneId}`);
    expect(await ok<Zone>('PUT', `${P}/zones/${zone.zoneId}`, read)).toEqual(read);

    // A light cart in California: the zone's band; New York keeps the North America zone.
    const light = await guestCart(1);
    const expectedBand = productWeight <= 1000 ? 450 : productWeight <= 5000 ? 850 : 1650;
    const ca = await options(light, 'USA', 'US_CA');
    expect(ca.shippingMethods.map((m) => [m.name, m.rate])).toEqual([
      ['Ground West', productPrice >= 15000 ? 0 : expectedBand],
      ['Pick up in the shop', 0],
    ]);
    // Each choice says when it ships and arrives, from the handling days and the owner's estimate.
    expect(ca.shippingMethods.map((m) => [m.delivery, m.description])).toEqual([
      ['Ships in 1 business day · Arrives in 2–4 business days', '2 to 4 business days'],
      ['Ready for pickup in 1 business day', '12 Harbor Road, weekdays 9 to 5'],
    ]);
    const ny = await options(light, 'USA', 'US_NY');
    expect(ny.shippingMethods.map((m) => m.methodId)).toEqual(['STANDARD', 'EXPRESS']);

    const preview = await ok<{ zone: { name: string }; rates: { rate: number; delivery: string | null }[] }>(
      'POST',
      `${P}/preview`,
      {
        subtotal: 1000,
        weightGrams: 3000,
        countryGeoId: 'USA',
        stateProvinceGeoId: 'US_OR',
      },
    );
    expect(preview.zone.name).toBe('West coast');
    expect(preview.rates.map((r) => r.rate)).toEqual([850, 0]);
    expect(preview.rates[1]?.delivery).toBe('Ready for pickup in 1 business day');
    const freePreview = await ok<{ rates: { rate: number }[] }>('POST', `${P}/preview`, {
      subtotal: 15000,
      weightGrams: 3000,
      countryGeoId: 'USA',
      stateProvinceGeoId: 'US_WA',
    });
    expect(freePreview.rates.map((r) => r.rate)).toEqual([0, 0]);
    const nowhere = await ok<{ zone: null; rates: []; draft: null }>('POST', `${P}/preview`, {
      subtotal: 1,
      weightGrams: 1,
      countryGeoId: 'SGP',
    });
    expect(nowhere).toEqual({ zone: null, rates: [], draft: null });

    // Place order charges the zone's rate; New York may not choose it.
    const body = { ...guestCardOrder('west@example.com'), shippingMethodId: ground };
    const placed = await t.app.inject({
      method: 'POST',
      url: `${B}/ecommerce/checkout/processorder`,
      headers: { host: HOST, origin: `http://${HOST}`, cookie: light, 'idempotency-key': randomUUID() },
      payload: body,
    });
    expect(placed.statusCode, placed.body).toBe(200);
    expect(placed.json().data).toMatchObject({ shipping: ca.shippingMethods[0]?.rate, shippingMethod: 'Ground West' });

    const heavy = await guestCart(Math.max(1, Math.ceil(15000 / Math.max(1, productPrice))));
    const free = await options(heavy, 'USA', 'US_CA');
    expect(free.shippingMethods[0]).toMatchObject({ name: 'Ground West', rate: 0, freeAbove: null });
    const toNy = await t.app.inject({
      method: 'POST',
      url: `${B}/ecommerce/checkout/processorder`,
      headers: { host: HOST, origin: `http://${HOST}`, cookie: heavy, 'idempotency-key': randomUUID() },
      payload: {
        ...body,
        email: 'ny@example.com',
        shipTo: { ...CALIFORNIA_SHIP_TO, stateProvinceGeoId: 'US_NY', city: 'Albany', postalCode: '12207' },
      },
    });
    expect(toNy.statusCode).toBe(400);
    expect(toNy.json().message).toContain('shippingMethodId');

    // A change reaches checkout at once; deleting the zone gives California back to North America.
    await ok('PUT', `${P}/zones/${zone.zoneId}/methods/${ground}`, {
      ...WEST.methods[0],
      freeAbove: null,
      bands: [{ upTo: 100000, rate: 999 }],
    });
    expect((await options(heavy, 'USA', 'US_CA')).shippingMethods[0]).toMatchObject({ rate: 999 });
    await ok('DELETE', `${P}/zones/${zone.zoneId}`);
    expect((await options(light, 'USA', 'US_CA')).shippingMethods.map((m) => m.methodId)).toEqual([
      'STANDARD',
      'EXPRESS',
    ]);
    expect((await auditOf('shipping_zone', zone.zoneId))[0]).toMatchObject({ action: 'delete' });
  });

  it("PUT with methods makes them exactly the zone's: kept by id, added, deleted", async () => {
    const zone = await ok<Zone>('POST', `${P}/zones`, {
      name: 'Replace',
      countries: ['AUS'],
      methods: [
        { name: 'A', kind: 'flat', flatRate: 100 },
        { name: 'B', kind: 'flat', flatRate: 200 },
      ],
    });
    const [a] = zone.methods;
    const next = await ok<Zone>('PUT', `${P}/zones/${zone.zoneId}`, {
      name: 'Replace',
      countries: ['AUS'],
      methods: [
        { ...a, name: 'A2' },
        { name: 'C', kind: 'subtotal', bands: [{ upTo: 1000, rate: 300 }] },
      ],
    });
    expect(next.methods.map((m) => m.name)).toEqual(['A2', 'C']);
    expect(next.methods[0]?.methodId).toBe(a?.methodId);
    const unknown = await call('PUT', `${P}/zones/${zone.zoneId}`, {
      body: { name: 'Replace', countries: ['AUS'], methods: [{ methodId: 'STANDARD', name: 'X', kind: 'flat' }] },
    });
    expect(unknown.statusCode).toBe(422);
    await ok('DELETE', `${P}/zones/${zone.zoneId}`);
  });
});
