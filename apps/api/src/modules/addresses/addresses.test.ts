import { schema } from '@app/db';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';

let t: TestApp;
let sam: BrowserSession;
let olivia: BrowserSession;
let gardenSam: BrowserSession;
const LIGHTING = 'lighting.localhost';
const URL = '/skulocity/api/v1/parties/contect/postaladdress';

const cookieFor = (email: string, password: string, host = LIGHTING) => signIn(t.app, email, password, host);

beforeAll(async () => {
  t = await createTestApp();
  sam = await cookieFor('shopper@lighting.test', 'shopper-demo-1');
  olivia = await cookieFor('owner@lighting.test', 'owner-demo-1');
  gardenSam = await cookieFor('shopper@garden.test', 'shopper-demo-1', 'garden.localhost');
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.database.db.delete(schema.postalAddresses);
});

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  session: Partial<BrowserSession>,
  payload?: object,
  url = URL,
  host = LIGHTING,
) => t.app.inject({ method, url, headers: { host, ...session }, ...(payload ? { payload } : {}) });
const home = {
  toName: 'Sam Shopper',
  address1: '1 Market Street',
  city: 'San Francisco',
  postalCode: '94105',
  countryGeoId: 'USA',
  stateProvinceGeoId: 'US_CA',
  phone: '+1 415 555 0100',
};

describe('postal addresses', () => {
  it('adds, lists and updates; the first address is the default for shipping and billing', async () => {
    const first = await call('POST', sam, home);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({
      ...home,
      address2: null,
      isDefaultShipping: true,
      isDefaultBilling: true,
    });
    const work = await call('POST', sam, { ...home, address1: '500 Howard St', isDefaultShipping: true });
    expect(work.json().data).toMatchObject({ isDefaultShipping: true, isDefaultBilling: false });
    const list = (await call('GET', sam)).json().data as {
      address1: string;
      isDefaultShipping: boolean;
      isDefaultBilling: boolean;
    }[];
    expect(list.map((a) => [a.address1, a.isDefaultShipping, a.isDefaultBilling])).toEqual([
      ['500 Howard St', true, false],
      ['1 Market Street', false, true],
    ]);
    const id = first.json().data.contactMechId as string;
    const moved = await call('PUT', sam, { ...home, contactMechId: id, city: 'Oakland', postalCode: '94607' });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data).toMatchObject({ city: 'Oakland', isDefaultBilling: true });
  });

  it('checks country, region and postal code, naming the field', async () => {
    const region = await call('POST', sam, { ...home, stateProvinceGeoId: 'CA_ON' });
    expect(region.statusCode).toBe(400);
    expect(region.json().message).toContain('stateProvinceGeoId');
    expect((await call('POST', sam, { ...home, stateProvinceGeoId: null })).json().message).toContain(
      'please choose a state',
    );
    const zip = await call('POST', sam, { ...home, postalCode: 'ABCDE' });
    expect(zip.json().message).toContain('postalCode');
    expect((await call('POST', sam, { ...home, countryGeoId: 'ATA' })).json().message).toContain('countryGeoId');
    const uk = await call('POST', sam, {
      ...home,
      countryGeoId: 'GBR',
      stateProvinceGeoId: null,
      postalCode: 'SW1A 1AA',
      city: 'London',
    });
    expect(uk.statusCode).toBe(200);
    expect((await call('POST', sam, { ...home, userId: 'GRD-U-SHOPPER' })).statusCode).toBe(400);
  });

  it("is private: another shopper, another store and a visitor get nothing of Sam's", async () => {
    const id = (await call('POST', sam, home)).json().data.contactMechId as string;
    expect((await call('GET', olivia)).json().data).toEqual([]);
    expect((await call('PUT', olivia, { ...home, contactMechId: id, city: 'Stolen' })).statusCode).toBe(404);
    expect(
      (await call('DELETE', olivia, undefined, `/skulocity/api/v1/parties/contect/mechs?contactMechId=${id}`))
        .statusCode,
    ).toBe(404);
    // Sam's garden-store session means nothing on the lighting store, and the other way round.
    expect((await call('GET', gardenSam)).statusCode).toBe(401);
    expect((await call('GET', sam, undefined, URL, 'garden.localhost')).statusCode).toBe(401);
    expect((await call('GET', {})).statusCode).toBe(401);
    expect((await call('GET', sam)).json().data).toHaveLength(1);
  });

  it('removing the default passes it to the oldest address left', async () => {
    const a = (await call('POST', sam, home)).json().data.contactMechId as string;
    await call('POST', sam, { ...home, address1: '2 Second St' });
    const del = await call('DELETE', sam, undefined, `/skulocity/api/v1/parties/contect/mechs?contactMechId=${a}`);
    expect(del.statusCode).toBe(200);
    const list = (await call('GET', sam)).json().data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ address1: '2 Second St', isDefaultShipping: true, isDefaultBilling: true });
  });

  it('a cookie-borne change needs this store as origin and the CSRF token of this session', async () => {
    const post = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: URL, headers: { host: LIGHTING, ...headers }, payload: home });
    expect((await post({ ...sam, origin: 'https://evil.example' })).statusCode).toBe(403);
    const noToken = await post({ cookie: sam.cookie, origin: 'http://lighting.localhost' });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.json().message).toContain('did not come from this store');
    // Olivia's token does not go with Sam's cookie.
    expect((await post({ cookie: sam.cookie, 'x-csrf-token': olivia['x-csrf-token'] })).statusCode).toBe(403);
    expect((await call('GET', sam)).json().data).toEqual([]);
    expect((await post({ ...sam, origin: 'http://lighting.localhost' })).statusCode).toBe(200);
  });
});
