import { type Db, schema } from '@app/db';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeGuestOrder, stockedProduct } from '../../test/guest-order';
import type { BrowserSession, TestApp } from '../../test/harness';
import { storeCaller } from '../../test/owners';
import { HOST, taxTestApp } from './tax-test-setup';

// Tax as a draft (decision 120, as shipping): the owner's changes to the settings and rates wait in
// a draft checkout does not use, and go live together when published, audited in words.

const T = '/api/v1/tax';
const D = '/api/v1/drafts/tax/store';
let t: TestApp;
let db: Db;
let owner: BrowserSession;
let colleague: BrowserSession;
let ordersStaff: BrowserSession;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Rate = { rateId: string; rateBasisPoints: number } & Record<string, unknown>;
type Overview = { settings: { pricesIncludeTax: boolean; taxNumber: string }; rates: Rate[] };

const { call, ok } = storeCaller(
  () => t.app,
  HOST,
  () => owner,
);

/** The live settings and rates with California's standard rate at `bp`, as a draft body. */
const withCaliforniaAt = (live: Overview, bp: number, taxNumber = live.settings.taxNumber) => ({
  settings: { ...live.settings, taxNumber },
  rates: live.rates.map((r) => (r.rateId === 'USA.US_CA' ? { ...r, rateBasisPoints: bp } : r)),
});

/** A guest order of two units shipped to California (the test card's address) is taxed at `bp`. */
async function expectCaliforniaTaxedAt(bp: number) {
  const product = await stockedProduct(db, 'lighting');
  const res = await placeGuestOrder(t.app, { host: HOST, productId: product.productId, quantity: 2 });
  expect(res.statusCode, res.body).toBe(200);
  const order = res.json().data as { subtotal: number; discount: number; tax: number };
  expect(order.tax).toBeGreaterThan(0);
  expect(order.tax).toBe(Math.round(((order.subtotal - order.discount) * bp) / 10000));
}

beforeAll(async () => {
  ({ t, db, owner, settingsStaff: colleague, ordersStaff } = await taxTestApp());
});
afterAll(() => t?.close());

describe('a tax draft', () => {
  it('is not what checkout charges until it is published; the publish goes live at once and is audited in words', async () => {
    const live = await ok<Overview>('GET', T);
    expect((await call('GET', `${T}/draft`)).statusCode).toBe(404);

    const draft = await ok<Overview & { draft: { updatedAt: string } }>(
      'PUT',
      `${T}/draft`,
      withCaliforniaAt(live, 1000, 'EIN 98-7654321'),
    );
    expect(draft.rates.find((r) => r.rateId === 'USA.US_CA')?.rateBasisPoints).toBe(1000);
    // Checkout and the live read are unchanged.
    await expectCaliforniaTaxedAt(725);
    expect(await ok<Overview>('GET', T)).toEqual(live);

    const status = await ok<{ draft: { updatedAt: string } }>('GET', D);
    expect(status.draft.updatedAt).toBe(draft.draft.updatedAt);
    expect((await ok<{ version: number }>('POST', `${D}/publish`, { seen: status.draft.updatedAt })).version).toBe(2);
    await expectCaliforniaTaxedAt(1000);
    expect((await ok<Overview['settings']>('GET', `${T}/settings`)).taxNumber).toBe('EIN 98-7654321');
    expect((await call('GET', `${T}/draft`)).statusCode).toBe(404);

    const al = schema.auditLog;
    const [published] = await db
      .select()
      .from(al)
      .where(and(eq(al.tenantId, 'lighting'), eq(al.entity, 'tax'), eq(al.action, 'publish')))
      .orderBy(desc(al.id));
    expect(published).toMatchObject({ actorKind: 'staff', entityId: 'store' });
    const summary = JSON.stringify(published?.changes.summary?.after);
    expect(summary).toContain('Tax registration number set to EIN 98-7654321.');
    expect(summary).toContain(
      'United States, California: CA sales tax 7.25 %, shipping not taxed → CA sales tax 10 %, shipping not taxed.',
    );
    // The rate's own row is audited as a direct change would be.
    const [row] = await db
      .select()
      .from(al)
      .where(and(eq(al.tenantId, 'lighting'), eq(al.entity, 'tax.rate'), eq(al.entityId, 'USA.US_CA')))
      .orderBy(desc(al.id));
    expect(row).toMatchObject({ action: 'update' });
  });

  it('refuses a publish of a draft a colleague changed since it was opened, and one over a direct change', async () => {
    const live = await ok<Overview>('GET', T);
    await ok('PUT', `${T}/draft`, withCaliforniaAt(live, 800));
    const seen = (await ok<{ draft: { updatedAt: string } }>('GET', D)).draft.updatedAt;
    // A colleague saves the draft again before the owner publishes what they looked at.
    await new Promise((r) => setImmediate(r));
    await ok('PUT', `${T}/draft`, withCaliforniaAt(live, 850), colleague);
    const stale = await call('POST', `${D}/publish`, { body: { seen } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toContain('changed the draft after you opened it');

    // A rate changed straight to live after the draft started: publishing would undo it, so no.
    const ny = live.rates.find((r) => r.rateId === 'USA.US_NY') as Rate;
    await ok('PUT', `${T}/rates/USA.US_NY`, { ...ny, rateBasisPoints: 900 });
    const over = await call('POST', `${D}/publish`);
    expect(over.statusCode, over.body).toBe(409);
    expect(over.json().message).toContain('changed directly after this draft was started');
    const now = await ok<Overview>('GET', T);
    expect(now.rates.find((r) => r.rateId === 'USA.US_NY')?.rateBasisPoints).toBe(900);
    expect(now.rates.find((r) => r.rateId === 'USA.US_CA')?.rateBasisPoints).toBe(1000);

    expect((await call('DELETE', D)).statusCode).toBe(204);
    expect((await call('POST', `${D}/publish`)).statusCode).toBe(409);
  });

  it('checks a draft as the direct writes do, adds and removes rates, and keeps it to the settings permission', async () => {
    const live = await ok<Overview>('GET', T);
    const unknown = await call('PUT', `${T}/draft`, {
      body: { ...withCaliforniaAt(live, 725), rates: [{ countryGeoId: 'ATL', label: 'X', rateBasisPoints: 1 }] },
    });
    expect(unknown.statusCode, unknown.body).toBe(400);
    const twice = await call('PUT', `${T}/draft`, {
      body: {
        settings: live.settings,
        rates: [
          { countryGeoId: 'CAN', label: 'GST', rateBasisPoints: 500 },
          { countryGeoId: 'CAN', label: 'GST', rateBasisPoints: 600 },
        ],
      },
    });
    expect(twice.statusCode, twice.body).toBe(409);
    const text = await call('PUT', `${T}/draft`, {
      body: { settings: live.settings, rates: [{ countryGeoId: 'CAN', label: 'GST', rateBasisPoints: '5' }] },
    });
    expect(text.statusCode).toBe(400);
    expect((await call('GET', `${T}/draft`)).statusCode).toBe(404);

    const body = withCaliforniaAt(live, 725);
    for (const [verb, url] of [
      ['GET', `${T}/draft`],
      ['PUT', `${T}/draft`],
      ['POST', `${D}/publish`],
      ['DELETE', D],
    ] as [Method, string][]) {
      const b = verb === 'PUT' ? body : undefined;
      expect((await call(verb, url, { body: b, session: null })).statusCode, `${verb} ${url}`).toBe(401);
      expect((await call(verb, url, { body: b, session: ordersStaff })).statusCode, `${verb} ${url}`).toBe(403);
    }
    expect((await call('GET', `${T}/draft`)).statusCode).toBe(404);

    // Japan added and Washington removed in the draft; both go live together.
    await ok('PUT', `${T}/draft`, {
      settings: live.settings,
      rates: [
        ...live.rates.filter((r) => r.rateId !== 'USA.US_WA'),
        { countryGeoId: 'JPN', label: 'Consumption tax', rateBasisPoints: 1000, reducedBasisPoints: 800 },
      ],
    });
    expect((await ok<Overview>('GET', T)).rates.map((r) => r.rateId)).toContain('USA.US_WA');
    await ok('POST', `${D}/publish`);
    const after = (await ok<Overview>('GET', T)).rates.map((r) => r.rateId);
    expect(after).toContain('JPN');
    expect(after).not.toContain('USA.US_WA');
  });
});
