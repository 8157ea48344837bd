import { fileURLToPath } from 'node:url';
import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';
import { createStaff } from '../../test/staff';

// Settings, Shipping's form posts (React Router's action through the page server), as a browser
// without JavaScript sends them. Needs the web build: npm run build -w @app/web.

const webBuildDir = fileURLToPath(new URL('../../../../web/build', import.meta.url));
const host = 'lighting.localhost';
const origin = `http://${host}`;
const PAGE = '/manage-store/settings/shipping';

let t: TestApp;
let owner: BrowserSession;
let catalogStaff: BrowserSession;

beforeAll(async () => {
  t = await createTestApp({ webBuildDir });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', host);
  await createStaff(t.database, 'lighting', 'ship-pages-catalog@lighting.test', ['catalog']);
  catalogStaff = await signIn(t.app, 'ship-pages-catalog@lighting.test', 'owner-demo-1', host);
}, 180_000);
afterAll(() => t?.close());

function post(fields: Record<string, string>, session: BrowserSession = owner) {
  return t.app.inject({
    method: 'POST',
    url: PAGE,
    headers: { host, origin, 'content-type': 'application/x-www-form-urlencoded', cookie: session.cookie },
    payload: new URLSearchParams({ _csrf: session['x-csrf-token'], ...fields }).toString(),
  });
}

const zones = () =>
  t.database.db.select().from(schema.shippingZones).where(eq(schema.shippingZones.tenantId, 'lighting'));

describe('Settings, Shipping without JavaScript', () => {
  it('shows the zones and their methods; staff without settings are refused', async () => {
    const page = await t.app.inject({ url: PAGE, headers: { host, cookie: owner.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('North America');
    expect(page.body).toContain('$6.95 to $24.95');
    const refused = await t.app.inject({ url: PAGE, headers: { host, cookie: catalogStaff.cookie } });
    expect(refused.statusCode).toBe(403);
    expect((await post({ intent: 'saveZone', name: 'X', countries: 'NZL' }, catalogStaff)).statusCode).toBe(403);
  });

  it('adds a zone and a method typed in the store currency, marks what is wrong, and previews the rates', async () => {
    const bad = await post({ intent: 'saveZone', name: 'Oceania', countries: 'SGP, ATL' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('We do not ship to ATL.');

    const saved = await post({ intent: 'saveZone', name: 'Oceania', countries: 'sgp ind' });
    expect(saved.statusCode).toBe(302);
    expect(saved.headers.location).toBe(`${PAGE}?done=zone-saved`);
    const zone = (await zones()).find((z) => z.name === 'Oceania');
    expect(zone?.countries).toEqual(['SGP', 'IND']);
    const zoneId = zone?.zoneId ?? '';

    const method = { intent: 'saveMethod', zoneId, name: 'Air', kind: 'subtotal', freeAbove: '', handlingDays: '2' };
    const badBands = await post({ ...method, bands: '50.00 12.00\n100 9' });
    expect(badBands.statusCode).toBe(400);
    expect(badBands.body).toContain('Line 1: write the upper limit');
    const badMoney = await post({ ...method, kind: 'flat', flatRate: '12,5' });
    expect(badMoney.statusCode).toBe(400);
    expect(badMoney.body).toContain('is not a price');
    const ok = await post({ ...method, bands: '10000 12.00\n50000 8.50', freeAbove: '250' });
    expect(ok.statusCode).toBe(302);
    const [row] = await t.database.db
      .select()
      .from(schema.shippingMethods)
      .where(and(eq(schema.shippingMethods.tenantId, 'lighting'), eq(schema.shippingMethods.zoneId, zoneId)));
    expect(row).toMatchObject({
      name: 'Air',
      kind: 'subtotal',
      bands: [
        { upTo: 10000, rate: 1200 },
        { upTo: 50000, rate: 850 },
      ],
      freeAbove: 25000,
      handlingDays: 2,
    });

    const preview = await post({ intent: 'preview', subtotal: '120.00', weightGrams: '800', countryGeoId: 'IND' });
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toContain('Rates for Oceania.');
    expect(preview.body).toContain('$8.50');

    expect((await post({ intent: 'deleteZone', zoneId })).statusCode).toBe(302);
    expect((await zones()).some((z) => z.zoneId === zoneId)).toBe(false);
  });
});

describe('Settings, Shipping as a draft (decision 120)', () => {
  it('starts a draft, saves a change to it that shoppers do not pay, previews both, and publishes it', async () => {
    expect((await post({ intent: 'startDraft' })).headers.location).toBe(`${PAGE}?done=draft-started`);
    const page = await t.app.inject({ url: PAGE, headers: { host, cookie: owner.cookie } });
    expect(page.body).toContain('Draft — not live yet');
    const [na] = (await zones()).filter((z) => z.name === 'North America');
    const zoneId = na?.zoneId ?? '';
    const express = { intent: 'saveMethod', zoneId, methodId: 'EXPRESS', name: 'Express', kind: 'flat' };
    expect((await post({ ...express, flatRate: '19.00', handlingDays: '0' })).statusCode).toBe(302);
    const [live] = await t.database.db
      .select()
      .from(schema.shippingMethods)
      .where(and(eq(schema.shippingMethods.tenantId, 'lighting'), eq(schema.shippingMethods.methodId, 'EXPRESS')));
    expect(live?.flatRate).toBe(2495);

    const preview = await post({
      intent: 'preview',
      subtotal: '20.00',
      weightGrams: '500',
      countryGeoId: 'USA',
      stateProvinceGeoId: 'US_NY',
    });
    expect(preview.body).toContain('Rates shoppers see now');
    expect(preview.body).toContain('$24.95');
    expect(preview.body).toContain('Rates once the draft is published');
    expect(preview.body).toContain('$19.00');

    // A publish of an older draft than the one saved is refused; the one shown goes live.
    const stale = await post({ intent: 'draft-publish', seen: '2020-01-01T00:00:00.000Z' });
    expect(stale.statusCode).toBe(409);
    expect(stale.body).toContain('changed the draft after you opened it');
    const shown = await t.app.inject({ url: PAGE, headers: { host, cookie: owner.cookie } });
    const seen = /name="seen" value="([^"]+)"/.exec(shown.body)?.[1] ?? '';
    const published = await post({ intent: 'draft-publish', seen });
    expect(published.headers.location).toBe(`${PAGE}?done=published`);
    const [after] = await t.database.db
      .select()
      .from(schema.shippingMethods)
      .where(and(eq(schema.shippingMethods.tenantId, 'lighting'), eq(schema.shippingMethods.methodId, 'EXPRESS')));
    expect(after?.flatRate).toBe(1900);
    const again = await t.app.inject({ url: PAGE, headers: { host, cookie: owner.cookie } });
    expect(again.body).not.toContain('Draft — not live yet');
    expect(again.body).toContain('Start a draft');
  });
});
