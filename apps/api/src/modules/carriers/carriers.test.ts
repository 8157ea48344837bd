import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CarrierStandIn, standInCents, startCarrierStandIn } from '../../test/carrier-stand-in';
import { CALIFORNIA_SHIP_TO, guestCardOrder, stockedProduct } from '../../test/guest-order';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import { auditEntries } from '../../test/owners';
import { createStaff } from '../../test/staff';
import { withMarkup } from './live-rates';

/** A carrier's JSON as the stand-in recorded it, read by path. */
type Loose = { [key: string]: Loose };

// A store's carrier accounts (decision 117) through the owner API, and their live rates in checkout,
// against the carriers' stand-in over real HTTP.

const HOST = SEEDED_HOSTS.lighting.host;
const GARDEN = SEEDED_HOSTS.garden.host;
const ADMIN = '/api/v1/admin/carriers';
const B = '/skulocity/api/v1';
const UPS = { clientId: 'lighting-ups', clientSecret: 'ups-secret-Q9z81', accountNumber: 'LGT1234' };

let t: TestApp;
let standIn: CarrierStandIn;
let owner: BrowserSession;
let gardenOwner: BrowserSession;
let shopper: BrowserSession;
let catalogStaff: BrowserSession;
let settingsStaff: BrowserSession;

function call(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
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

const connect = (body: unknown = UPS, session?: BrowserSession | null) =>
  call('POST', `${ADMIN}/ups/connect`, { body, session });

async function accountRow(tenantId = 'lighting') {
  const ca = schema.carrierAccounts;
  const [row] = await t.database.db
    .select()
    .from(ca)
    .where(and(eq(ca.tenantId, tenantId), eq(ca.carrier, 'ups')));
  return row;
}

const rateCalls = () => standIn.requests.filter((r) => r.kind === 'rate');
/** The ShipTo address of the `i`th rate request UPS received. */
const shipToOf = (i: number) =>
  (rateCalls()[i]?.body as { RateRequest?: { Shipment?: Loose } } | undefined)?.RateRequest?.Shipment?.ShipTo?.Address;

/** A guest's cart of `quantity` of the store's first stocked product: its cookie, weight and the product's price. */
async function guestCart(quantity = 1) {
  const { productId } = await stockedProduct(t.database.db, 'lighting');
  const added = await t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/product/addToCart`,
    headers: { host: HOST },
    payload: { productId, quantity },
  });
  expect(added.statusCode, added.body).toBe(200);
  return String([added.headers['set-cookie']].flat()[0]).split(';')[0] as string;
}

async function options(cookie: string, state = 'US_CA', postalCode?: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `${B}/public/ecommerce/checkout/checkoutoptions?countryGeoId=USA&stateProvinceGeoId=${state}${postalCode ? `&postalCode=${encodeURIComponent(postalCode)}` : ''}`,
    headers: { host: HOST, cookie },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    cart: { weightGrams: number };
    shippingMethods: { methodId: string; name: string; rate: number; description: string; delivery: string | null }[];
  };
}

function placeOrder(cookie: string, shippingMethodId: string) {
  return t.app.inject({
    method: 'POST',
    url: `${B}/ecommerce/checkout/processorder`,
    headers: { host: HOST, cookie, 'idempotency-key': crypto.randomUUID() },
    payload: { ...guestCardOrder(), shippingMethodId },
  });
}

/** What the stand-in charges for UPS Ground to California for a cart of this weight. */
const groundCents = (weightGrams: number) =>
  standInCents(895, 120, Number((Math.max(1, Math.ceil((weightGrams / 453.59237) * 10)) / 10).toFixed(1)), 'CA');

beforeAll(async () => {
  standIn = await startCarrierStandIn({ accounts: [UPS] });
  t = await createTestApp({ config: { UPS_BASE_URL: standIn.url, FEDEX_BASE_URL: standIn.url } });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', HOST);
  gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
  shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', HOST);
  await createStaff(t.database, 'lighting', 'catalog@lighting.test', ['catalog']);
  await createStaff(t.database, 'lighting', 'settings@lighting.test', ['settings']);
  catalogStaff = await signIn(t.app, 'catalog@lighting.test', 'owner-demo-1', HOST);
  settingsStaff = await signIn(t.app, 'settings@lighting.test', 'owner-demo-1', HOST);
  // Failures are not remembered between tests: each says what the carrier does.
  t.services.liveRates.settings.restMs = 0;
  t.services.liveRates.settings.errorRestMs = 0;
});
afterAll(async () => {
  await t?.close();
  await standIn?.close();
});
beforeEach(() => {
  standIn.requests.length = 0;
  standIn.setFault('none');
  t.services.liveRates.settings.timeoutMs = 2_500;
});

describe('who may manage carriers', () => {
  it('visitor 401, shopper 403, staff without the settings permission 403, with it 200', async () => {
    for (const [session, status] of [
      [null, 401],
      [shopper, 403],
      [catalogStaff, 403],
      [settingsStaff, 200],
      [owner, 200],
    ] as const) {
      const read = await call('GET', ADMIN, { session });
      expect(read.statusCode, read.body).toBe(status);
      if (status !== 200) {
        expect(read.json()).toMatchObject({ error: true });
        // Refused before the body: nothing is checked with UPS, nothing written.
        const write = await connect(UPS, session);
        expect(write.statusCode).toBe(status);
        for (const res of [
          await call('PATCH', `${ADMIN}/ups`, { body: { services: ['03'] }, session }),
          await call('DELETE', `${ADMIN}/ups`, { session }),
        ]) {
          expect(res.statusCode).toBe(status);
        }
      }
    }
    expect(standIn.requests).toHaveLength(0);
    expect(await accountRow()).toBeUndefined();
  });

  it('refuses a carrier it does not know (400) and malformed input (400 naming the field)', async () => {
    expect((await call('GET', `${ADMIN}`)).json().data.map((a: { carrier: string }) => a.carrier)).toEqual([
      'ups',
      'fedex',
    ]);
    const dhl = await call('POST', `${ADMIN}/dhl/connect`, { body: UPS });
    expect(dhl.statusCode).toBe(400);
    const bad = await connect({ ...UPS, accountNumber: '12' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('accountNumber');
    const stringy = await call('PATCH', `${ADMIN}/ups`, { body: { markupKind: 'fixed', markupValue: '100' } });
    expect(stringy.statusCode).toBe(400);
  });
});

describe('connecting an account', () => {
  it('refuses credentials UPS refuses with a 422 on clientSecret, and saves nothing', async () => {
    const res = await connect({ ...UPS, clientSecret: 'not-the-secret' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ code: 'UNPROCESSABLE' });
    expect(res.json().message).toContain('clientSecret');
    expect(await accountRow()).toBeUndefined();
  });

  it('says UPS could not be reached (409, Retry-After) when it is down, and saves nothing', async () => {
    await standIn.close();
    try {
      const res = await connect();
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ code: 'UNAVAILABLE' });
      expect(res.headers['retry-after']).toBe('30');
      expect(res.json().message).toContain('Nothing was saved');
      expect(await accountRow()).toBeUndefined();
    } finally {
      standIn = await startCarrierStandIn({ accounts: [UPS], port: Number(new URL(standIn.url).port) });
    }
  });

  it('connects: the secret is sealed, never answered, the account shown by its last four; audited', async () => {
    const audits = await auditEntries(t.database.db, 'lighting', 'carrier_account');
    const res = await connect();
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ carrier: 'ups', connected: true, clientId: UPS.clientId, accountEnding: '1234' });
    expect(data.services).toEqual(['03']);
    expect(res.body).not.toContain(UPS.clientSecret);
    expect(res.body).not.toContain(UPS.accountNumber);
    const row = await accountRow();
    expect(row?.clientSecretSealed).not.toContain(UPS.clientSecret);
    expect(await auditEntries(t.database.db, 'lighting', 'carrier_account')).toBe(audits + 1);
    const [entry] = await t.database.db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.tenantId, 'lighting'), eq(schema.auditLog.entity, 'carrier_account')));
    expect(JSON.stringify(entry)).not.toContain(UPS.clientSecret);
    // Another store's owner sees their own store, not this account.
    const garden = await call('GET', ADMIN, { session: gardenOwner, host: GARDEN });
    expect(garden.json().data[0]).toMatchObject({ carrier: 'ups', connected: false, accountEnding: null });
  });

  it("picks services (only the carrier's), a markup and the box", async () => {
    const unknown = await call('PATCH', `${ADMIN}/ups`, { body: { services: ['03', 'XX'] } });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toContain('services');
    const tooMuch = await call('PATCH', `${ADMIN}/ups`, { body: { markupKind: 'percent', markupValue: 500 } });
    expect(tooMuch.statusCode).toBe(400);
    const res = await call('PATCH', `${ADMIN}/ups`, {
      body: {
        services: ['03', '02'],
        markupKind: 'percent',
        markupValue: 10,
        box: { lengthIn: 10, widthIn: 8, heightIn: 4 },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      services: ['03', '02'],
      markupKind: 'percent',
      markupValue: 10,
      box: { lengthIn: 10, widthIn: 8, heightIn: 4 },
    });
    const fedex = await call('PATCH', `${ADMIN}/fedex`, { body: { services: ['FEDEX_GROUND'] } });
    expect(fedex.statusCode).toBe(404);
  });
});

describe('writing back what was read', () => {
  it('a PATCH of what GET answered changes nothing: the same answer, no audit entry, the kept rates still kept', async () => {
    const cookie = await guestCart(6);
    await options(cookie);
    const asked = rateCalls().length;
    const read = (await call('GET', ADMIN)).json().data.find((a: { carrier: string }) => a.carrier === 'ups');
    const audits = await auditEntries(t.database.db, 'lighting', 'carrier_account');
    const back = await call('PATCH', `${ADMIN}/ups`, {
      body: { services: read.services, markupKind: read.markupKind, markupValue: read.markupValue, box: read.box },
    });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().data).toEqual(read);
    expect((await call('GET', ADMIN)).json().data.find((a: { carrier: string }) => a.carrier === 'ups')).toEqual(read);
    expect(await auditEntries(t.database.db, 'lighting', 'carrier_account')).toBe(audits);
    // The account's version did not move: checkout still has the rates it kept, UPS is not asked again.
    await options(cookie);
    expect(rateCalls()).toHaveLength(asked);
  });
});

describe('live rates at checkout', () => {
  it('computes a markup in whole cents', () => {
    expect(withMarkup(1495, 'percent', 10)).toBe(1645);
    expect(withMarkup(1499, 'percent', 15)).toBe(1724);
    expect(withMarkup(1495, 'fixed', 250)).toBe(1745);
    expect(withMarkup(1495, 'none', 99)).toBe(1495);
  });

  it('lists the chosen services after the table rates, with the markup, and charges the rate shown', async () => {
    const cookie = await guestCart(2);
    // The page asks for the address Place order then sends (the same postal code: the same kept rates).
    const opts = await options(cookie, 'US_CA', CALIFORNIA_SHIP_TO.postalCode);
    const live = opts.shippingMethods.filter((m) => m.methodId.startsWith('live:'));
    expect(opts.shippingMethods[0]?.methodId).toBe('STANDARD');
    expect(live.map((m) => m.name)).toEqual(['UPS Ground', 'UPS 2nd Day Air']);
    // UPS's transit days where it quoted them (2nd Day Air); Ground came without, so nothing extra.
    expect(live.map((m) => m.delivery)).toEqual([null, 'Arrives in 2 business days']);
    const ground = live[0];
    if (!ground) throw new Error('no UPS Ground');
    expect(ground.rate).toBe(withMarkup(groundCents(opts.cart.weightGrams), 'percent', 10));
    expect(rateCalls()).toHaveLength(1);
    // The request was the store's origin to the shopper's state, with the owner's box.
    const body = rateCalls()[0]?.body as { RateRequest: { Shipment: Loose } };
    expect(body.RateRequest?.Shipment?.Shipper?.Address).toMatchObject({
      PostalCode: '94109',
      StateProvinceCode: 'CA',
      CountryCode: 'US',
    });
    expect(body.RateRequest?.Shipment?.Package?.Dimensions).toMatchObject({ Length: '10', Width: '8', Height: '4' });

    // The review and Place order use what was kept: UPS is not asked again, the price is the one shown.
    const placed = await placeOrder(cookie, ground.methodId);
    expect(placed.statusCode, placed.body).toBe(200);
    expect(placed.json().data).toMatchObject({ shipping: ground.rate, shippingMethod: 'UPS Ground' });
    expect(rateCalls()).toHaveLength(1);
  });

  it("quotes the shopper's postal code (UPS ShipTo PostalCode), keeps rates per postal code, and refuses one not of the country's form", async () => {
    const cookie = await guestCart(5);
    const first = await options(cookie, 'US_IL', '62701');
    expect(first.shippingMethods.some((m) => m.methodId.startsWith('live:'))).toBe(true);
    expect(shipToOf(0)).toMatchObject({ PostalCode: '62701', StateProvinceCode: 'IL', CountryCode: 'US' });
    // The same address again: kept. Another ZIP in the same state: UPS is asked for it.
    await options(cookie, 'US_IL', '62701');
    expect(rateCalls()).toHaveLength(1);
    await options(cookie, 'US_IL', '60601-1234');
    expect(rateCalls()).toHaveLength(2);
    expect(shipToOf(1)).toMatchObject({ PostalCode: '60601-1234' });
    for (const bad of ['6270', 'ABCDE', '62701-12', '1'.repeat(13)]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `${B}/public/ecommerce/checkout/checkoutoptions?countryGeoId=USA&stateProvinceGeoId=US_IL&postalCode=${bad}`,
        headers: { host: HOST, cookie },
      });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toContain('postalCode');
    }
    const canada = await t.app.inject({
      method: 'GET',
      url: `${B}/public/ecommerce/checkout/checkoutoptions?countryGeoId=CAN&stateProvinceGeoId=CA_ON&postalCode=k1a0b1`,
      headers: { host: HOST, cookie },
    });
    expect(canada.statusCode, canada.body).toBe(200);
    expect(rateCalls()).toHaveLength(3);
    // Written as Canada writes it, whatever the shopper typed.
    expect(shipToOf(2)).toMatchObject({ PostalCode: 'K1A 0B1', CountryCode: 'CA' });
  });

  it('refuses with a 409 a rate whose price moved (the owner changed the markup), and charges nothing', async () => {
    const cookie = await guestCart(1);
    const first = await options(cookie);
    const ground = first.shippingMethods.find((m) => m.name === 'UPS Ground');
    if (!ground) throw new Error('no UPS Ground');
    const changed = await call('PATCH', `${ADMIN}/ups`, { body: { markupKind: 'fixed', markupValue: 300 } });
    expect(changed.statusCode).toBe(200);
    const placed = await placeOrder(cookie, ground.methodId);
    expect(placed.statusCode, placed.body).toBe(409);
    expect(placed.json().message).toContain('UPS Ground is no longer available at the price shown');
    // The shopper asks again and sees (and pays) the new price.
    const again = (await options(cookie)).shippingMethods.find((m) => m.name === 'UPS Ground');
    expect(again?.rate).toBe(groundCents(first.cart.weightGrams) + 300);
    const paid = await placeOrder(cookie, again?.methodId ?? '');
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data.shipping).toBe(again?.rate);
  });

  it('a forged rate id is refused, not charged', async () => {
    const cookie = await guestCart(1);
    const ground = (await options(cookie)).shippingMethods.find((m) => m.name === 'UPS Ground');
    const forged = ground?.methodId.replace(/:\d+$/, ':1') ?? '';
    const placed = await placeOrder(cookie, forged);
    expect(placed.statusCode).toBe(409);
  });

  it('lists only the table rates when UPS is slow or failing, and the shopper still checks out', async () => {
    t.services.liveRates.settings.timeoutMs = 300;
    standIn.setFault('slow', 2_000);
    const cookie = await guestCart(3);
    const started = Date.now();
    const slow = await options(cookie);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(slow.shippingMethods.some((m) => m.methodId.startsWith('live:'))).toBe(false);
    expect(slow.shippingMethods.some((m) => m.methodId === 'STANDARD')).toBe(true);
    standIn.setFault('error');
    expect((await options(cookie, 'US_NY')).shippingMethods.some((m) => m.methodId.startsWith('live:'))).toBe(false);
    const placed = await placeOrder(cookie, 'STANDARD');
    expect(placed.statusCode, placed.body).toBe(200);
  });

  it('lists the table rates when UPS refuses connections (down), places the order, and lists live rates once UPS is back', async () => {
    const cookie = await guestCart(4);
    await standIn.stop();
    try {
      const down = await options(cookie, 'US_TX');
      expect(down.shippingMethods.map((m) => m.methodId)).not.toContainEqual(expect.stringMatching(/^live:/));
      expect(down.shippingMethods.some((m) => m.methodId === 'STANDARD')).toBe(true);
      const placed = await placeOrder(cookie, 'STANDARD');
      expect(placed.statusCode, placed.body).toBe(200);
      expect(placed.json().data).toMatchObject({ shippingMethod: 'Standard' });
    } finally {
      await standIn.start();
    }
    // Nothing about the failure was kept as rates: the next checkout there lists UPS again.
    const back = await options(await guestCart(4), 'US_TX');
    expect(back.shippingMethods.filter((m) => m.methodId.startsWith('live:')).map((m) => m.name)).toEqual([
      'UPS Ground',
      'UPS 2nd Day Air',
    ]);
  });

  it('stops listing live rates once disconnected; audited', async () => {
    const audits = await auditEntries(t.database.db, 'lighting', 'carrier_account');
    const gone = await call('DELETE', `${ADMIN}/ups`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json().data).toMatchObject({ connected: false });
    expect(await accountRow()).toBeUndefined();
    expect(await auditEntries(t.database.db, 'lighting', 'carrier_account')).toBe(audits + 1);
    const cookie = await guestCart(1);
    expect((await options(cookie)).shippingMethods.some((m) => m.methodId.startsWith('live:'))).toBe(false);
    expect((await call('DELETE', `${ADMIN}/ups`)).statusCode).toBe(404);
    expect(CALIFORNIA_SHIP_TO.stateProvinceGeoId).toBe('US_CA');
  });
});
