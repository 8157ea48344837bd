import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CarrierStandIn, standInCents, startCarrierStandIn } from '../../test/carrier-stand-in';
import { createFedexClient } from './fedex-client';
import { decimalToMinor, poundsOf } from './rate-provider';
import { createUpsClient } from './ups-client';

/** A carrier's JSON as the stand-in recorded it, read by path. */
type Loose = { [key: string]: Loose };

// The UPS and FedEx clients behind the rate-provider port, against the carriers' stand-in over real
// HTTP: OAuth tokens fetched once and reused, refreshed near expiry and after a 401, refused
// credentials, errors and timeouts as typed outcomes (decision 117).

const ACCOUNT = { clientId: 'ups-client-1', clientSecret: 'ups-secret-Xy7', accountNumber: 'A1B2C3' };
const ORIGIN = { countryCode: 'US', postalCode: '94109', city: 'San Francisco' };
const TO_CA = { countryCode: 'US', stateCode: 'CA' };
const FIVE_POUNDS = { weightGrams: 2_200, lengthIn: 12, widthIn: 9, heightIn: 6 };

let standIn: CarrierStandIn;
const tokenCalls = (carrier: 'ups' | 'fedex') =>
  standIn.requests.filter((r) => r.carrier === carrier && r.kind === 'token').length;
const rateCalls = (carrier: 'ups' | 'fedex') =>
  standIn.requests.filter((r) => r.carrier === carrier && r.kind === 'rate');

beforeAll(async () => {
  standIn = await startCarrierStandIn({ accounts: [ACCOUNT] });
});
afterAll(async () => {
  await standIn.close();
});
beforeEach(() => {
  standIn.requests.length = 0;
  standIn.setFault('none');
  standIn.setTokenTtl(null);
});

describe('amounts', () => {
  it('reads decimal strings and numbers as integer cents, never through a float', () => {
    expect(decimalToMinor('12.48')).toBe(1248);
    expect(decimalToMinor('7')).toBe(700);
    expect(decimalToMinor('0.5')).toBe(50);
    expect(decimalToMinor(25.84)).toBe(2584);
    expect(decimalToMinor('-3.00')).toBeNull();
    expect(decimalToMinor('abc')).toBeNull();
    // 2.2 kg is 4.85 lb: billed as the started tenth.
    expect(poundsOf(2_200)).toBe('4.9');
    expect(poundsOf(0)).toBe('0.1');
  });
});

describe('UPS', () => {
  const ups = (opts: { now?: () => number; timeoutMs?: number; creds?: typeof ACCOUNT; baseUrl?: string } = {}) =>
    createUpsClient(opts.creds ?? ACCOUNT, { baseUrl: opts.baseUrl ?? standIn.url, ...opts });

  it('shops every service in one request, from the store to the address, with the parcel', async () => {
    const out = await ups().rate(ORIGIN, FIVE_POUNDS, TO_CA);
    expect(out.kind).toBe('rates');
    if (out.kind !== 'rates') return;
    expect(out.services.map((s) => s.code)).toEqual(['03', '12', '02', '13', '01']);
    expect(out.services[0]).toEqual({ code: '03', amount: standInCents(895, 120, 4.9, 'CA'), currency: 'USD' });
    const body = rateCalls('ups')[0]?.body as { RateRequest: { Shipment: Loose } };
    expect(body.RateRequest?.Shipment?.Shipper).toMatchObject({
      ShipperNumber: 'A1B2C3',
      Address: { PostalCode: '94109', CountryCode: 'US' },
    });
    expect(body.RateRequest?.Shipment?.ShipTo?.Address).toEqual({ StateProvinceCode: 'CA', CountryCode: 'US' });
    expect(body.RateRequest?.Shipment?.Package?.PackageWeight).toEqual({
      UnitOfMeasurement: { Code: 'LBS' },
      Weight: '4.9',
    });
    expect(body.RateRequest?.Shipment?.Package?.Dimensions).toMatchObject({ Length: '12', Width: '9', Height: '6' });
  });

  it("sends the shopper's postal code (ShipTo PostalCode) and the store's state (Shipper and ShipFrom StateProvinceCode)", async () => {
    const out = await ups().rate({ ...ORIGIN, stateCode: 'CA' }, FIVE_POUNDS, {
      countryCode: 'US',
      stateCode: 'IL',
      postalCode: '62701',
    });
    expect(out.kind).toBe('rates');
    const shipment = (rateCalls('ups')[0]?.body as { RateRequest?: { Shipment?: Loose } } | undefined)?.RateRequest
      ?.Shipment;
    expect(shipment?.ShipTo?.Address).toEqual({ StateProvinceCode: 'IL', PostalCode: '62701', CountryCode: 'US' });
    for (const from of [shipment?.Shipper?.Address, shipment?.ShipFrom?.Address])
      expect(from).toMatchObject({ StateProvinceCode: 'CA', PostalCode: '94109', CountryCode: 'US' });
  });

  it('fetches one token for callers at once and reuses it until shortly before it expires', async () => {
    let clock = 1_000_000;
    const client = ups({ now: () => clock });
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => client.rate(ORIGIN, FIVE_POUNDS, TO_CA)));
    expect(answers.every((a) => a.kind === 'rates')).toBe(true);
    expect(tokenCalls('ups')).toBe(1);
    await client.rate(ORIGIN, FIVE_POUNDS, TO_CA);
    expect(tokenCalls('ups')).toBe(1);
    // UPS's tokens last 14,399 s; a minute before that the client fetches a new one.
    clock += (14_399 - 59) * 1000;
    await client.rate(ORIGIN, FIVE_POUNDS, TO_CA);
    expect(tokenCalls('ups')).toBe(2);
  });

  it('honours a short expires_in', async () => {
    standIn.setTokenTtl(30);
    let clock = 0;
    const client = ups({ now: () => clock });
    await client.rate(ORIGIN, FIVE_POUNDS, TO_CA);
    clock += 26_000;
    await client.rate(ORIGIN, FIVE_POUNDS, TO_CA);
    expect(tokenCalls('ups')).toBe(1);
    // A tenth of a 30 s life early: at 27 s.
    clock += 1_500;
    await client.rate(ORIGIN, FIVE_POUNDS, TO_CA);
    expect(tokenCalls('ups')).toBe(2);
  });

  it('refreshes the token once when UPS answers 401 to a rating, and rates', async () => {
    const client = ups();
    await client.rate(ORIGIN, FIVE_POUNDS, TO_CA);
    standIn.expireTokens();
    const out = await client.rate(ORIGIN, FIVE_POUNDS, TO_CA);
    expect(out.kind).toBe('rates');
    expect(tokenCalls('ups')).toBe(2);
    expect(rateCalls('ups').map((r) => r.status)).toEqual([200, 401, 200]);
  });

  it('says refused for credentials UPS does not know, and does not rate', async () => {
    const client = ups({ creds: { ...ACCOUNT, clientSecret: 'wrong' } });
    expect(await client.authenticate()).toBe('refused');
    expect(await client.rate(ORIGIN, FIVE_POUNDS, TO_CA)).toEqual({ kind: 'unavailable', reason: 'refused' });
    expect(rateCalls('ups')).toHaveLength(0);
  });

  it('says unreachable when nothing answers', async () => {
    const client = ups({ baseUrl: 'http://127.0.0.1:9' });
    expect(await client.authenticate()).toBe('unreachable');
  });

  it('answers unavailable at once when UPS refuses the connection, with a kept token, and rates again once it is back', async () => {
    const client = ups();
    expect((await client.rate(ORIGIN, FIVE_POUNDS, TO_CA)).kind).toBe('rates');
    await standIn.stop();
    try {
      const started = Date.now();
      expect(await client.rate(ORIGIN, FIVE_POUNDS, TO_CA)).toEqual({ kind: 'unavailable', reason: 'error' });
      // Refused, not timed out: no waiting on the 2.5 s deadline.
      expect(Date.now() - started).toBeLessThan(1_000);
      // A client without a token yet cannot get one either.
      expect(await ups().authenticate()).toBe('unreachable');
    } finally {
      await standIn.start();
    }
    expect((await client.rate(ORIGIN, FIVE_POUNDS, TO_CA)).kind).toBe('rates');
    expect(tokenCalls('ups')).toBe(1);
  });

  it('answers unavailable on a 500 and on a timeout, within the timeout', async () => {
    const client = ups({ timeoutMs: 300 });
    standIn.setFault('error');
    const failed = await client.rate(ORIGIN, FIVE_POUNDS, TO_CA);
    expect(failed).toMatchObject({ kind: 'unavailable', reason: 'error' });
    expect(failed.kind === 'unavailable' && failed.detail).toContain('9999');
    standIn.setFault('slow', 3_000);
    const started = Date.now();
    expect(await client.rate(ORIGIN, FIVE_POUNDS, TO_CA)).toEqual({ kind: 'unavailable', reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('refuses a shipper number the credentials do not own (an error, not rates)', async () => {
    const client = ups({ creds: { ...ACCOUNT, accountNumber: 'ZZZZZZ' } });
    expect(await client.rate(ORIGIN, FIVE_POUNDS, TO_CA)).toMatchObject({ kind: 'unavailable', reason: 'error' });
  });
});

describe('FedEx', () => {
  it('rates with a form-posted token, reused, and the account rate of every service', async () => {
    const client = createFedexClient(ACCOUNT, { baseUrl: standIn.url });
    const out = await client.rate(ORIGIN, FIVE_POUNDS, TO_CA);
    await client.rate(ORIGIN, FIVE_POUNDS, TO_CA);
    expect(tokenCalls('fedex')).toBe(1);
    expect(out.kind).toBe('rates');
    if (out.kind !== 'rates') return;
    expect(out.services[0]).toEqual({
      code: 'FEDEX_GROUND',
      amount: standInCents(925, 115, 4.9, 'CA'),
      currency: 'USD',
    });
    const body = rateCalls('fedex')[0]?.body as Loose;
    expect(body.accountNumber).toEqual({ value: 'A1B2C3' });
    expect(body.requestedShipment?.recipient?.address).toEqual({ stateOrProvinceCode: 'CA', countryCode: 'US' });
  });

  it("sends the recipient's and the shipper's postal code and state as FedEx documents them", async () => {
    const client = createFedexClient(ACCOUNT, { baseUrl: standIn.url });
    const out = await client.rate({ ...ORIGIN, stateCode: 'CA' }, FIVE_POUNDS, {
      countryCode: 'US',
      stateCode: 'IL',
      postalCode: '62701',
    });
    expect(out.kind).toBe('rates');
    const body = rateCalls('fedex')[0]?.body as Loose;
    expect(body.requestedShipment?.recipient?.address).toEqual({
      stateOrProvinceCode: 'IL',
      postalCode: '62701',
      countryCode: 'US',
    });
    expect(body.requestedShipment?.shipper?.address).toMatchObject({ stateOrProvinceCode: 'CA', postalCode: '94109' });
  });

  it('refreshes after a 401 and says refused for a wrong secret', async () => {
    const client = createFedexClient(ACCOUNT, { baseUrl: standIn.url });
    await client.rate(ORIGIN, FIVE_POUNDS, TO_CA);
    standIn.expireTokens();
    expect((await client.rate(ORIGIN, FIVE_POUNDS, TO_CA)).kind).toBe('rates');
    expect(tokenCalls('fedex')).toBe(2);
    const wrong = createFedexClient({ ...ACCOUNT, clientSecret: 'nope' }, { baseUrl: standIn.url });
    expect(await wrong.authenticate()).toBe('refused');
  });
});
