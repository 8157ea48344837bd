import { describe, expect, it } from 'vitest';
import { shippingRate, zoneMatch, zonesFor } from './rate-table';

const method = (over: object) => ({
  methodId: 'STANDARD',
  name: 'Standard',
  description: '',
  kind: 'weight' as 'flat' | 'weight' | 'subtotal' | 'pickup',
  flatRate: 0,
  bands: [
    { upTo: 2000, rate: 695 },
    { upTo: 10000, rate: 1295 },
  ],
  freeAbove: 9900 as number | null,
  handlingDays: 0,
  ...over,
});

describe('shipping rates', () => {
  it.each([
    // [weight, discounted subtotal, expected rate, expected spend-more]
    [0, 1000, 695, 8900],
    [2000, 1000, 695, 8900],
    [2001, 1000, 1295, 8900],
    [50000, 1000, 1295, 8900], // heavier than the table: the last band
    [500, 9899, 695, 1],
    [500, 9900, 0, null], // free from the threshold on
  ])('by weight: %i g at %i: %i', (weightGrams, total, rate, freeAbove) => {
    expect(shippingRate(method({}), { weightGrams, total })).toMatchObject({ rate, freeAbove });
  });

  it('bands stored out of order are read in order', () => {
    const m = method({
      bands: [
        { upTo: 10000, rate: 1295 },
        { upTo: 2000, rate: 695 },
      ],
      freeAbove: null,
    });
    expect(shippingRate(m, { weightGrams: 1500, total: 1 }).rate).toBe(695);
  });

  it.each([
    [0, 900],
    [5000, 900],
    [5001, 500],
    [20000, 500],
    [99999, 500],
  ])('by subtotal: %i pays %i', (total, rate) => {
    const m = method({
      kind: 'subtotal',
      bands: [
        { upTo: 5000, rate: 900 },
        { upTo: 20000, rate: 500 },
      ],
      freeAbove: null,
    });
    expect(shippingRate(m, { weightGrams: 99_000, total })).toMatchObject({ rate, freeAbove: null });
  });

  it('a flat method charges its rate whatever the weight', () => {
    expect(
      shippingRate(method({ kind: 'flat', flatRate: 2495, freeAbove: null }), { weightGrams: 99999, total: 1 }),
    ).toMatchObject({ rate: 2495, freeAbove: null });
  });

  it('local pickup costs nothing and never offers "spend more"', () => {
    const m = method({
      kind: 'pickup',
      flatRate: 500,
      bands: null,
      freeAbove: 100,
      description: '1 Main St, 9-5',
      handlingDays: 1,
    });
    expect(shippingRate(m, { weightGrams: 5000, total: 10 })).toEqual({
      methodId: 'STANDARD',
      name: 'Standard',
      description: '1 Main St, 9-5',
      rate: 0,
      freeAbove: null,
      delivery: 'Ready for pickup in 1 business day',
    });
  });

  it('says when it ships and arrives: the handling days, and the description when it is an estimate', () => {
    const rate = (over: object) => shippingRate(method(over), { weightGrams: 1, total: 1 }).delivery;
    expect(rate({ handlingDays: 2, description: '3 to 5 business days' })).toBe(
      'Ships in 2 business days · Arrives in 3–5 business days',
    );
    expect(rate({ handlingDays: 2, description: 'Tracked, signed for' })).toBe('Ships in 2 business days');
    expect(rate({ description: '3 to 5 business days' })).toBe('Arrives in 3–5 business days');
    expect(rate({})).toBeNull();
  });

  it('a weight method without bands charges nothing, as before zones', () => {
    expect(shippingRate(method({ bands: [], freeAbove: null }), { weightGrams: 5, total: 5 }).rate).toBe(0);
  });
});

describe('which zone holds an address', () => {
  const na = { id: 'NA', countries: ['USA', 'CAN'], states: [] as string[] };
  const west = { id: 'WEST', countries: ['USA'], states: ['US_CA', 'US_OR'] };
  const bc = { id: 'BC', countries: ['CAN', 'USA'], states: ['CA_BC'] };
  const world = { id: 'WORLD', countries: null, states: [] as string[] };
  const eu = { id: 'EU', countries: ['FRA', 'DEU'], states: [] as string[] };
  const zones = [world, na, west, eu, bc];
  const ids = (to: { countryGeoId: string; stateProvinceGeoId?: string }) => zonesFor(zones, to).map((z) => z.id);

  it('a state before its country before the rest of the world', () => {
    expect(ids({ countryGeoId: 'USA', stateProvinceGeoId: 'US_CA' })).toEqual(['WEST']);
    expect(ids({ countryGeoId: 'USA', stateProvinceGeoId: 'US_NY' })).toEqual(['NA', 'BC']);
    expect(ids({ countryGeoId: 'CAN', stateProvinceGeoId: 'CA_BC' })).toEqual(['BC']);
    expect(ids({ countryGeoId: 'CAN', stateProvinceGeoId: 'CA_ON' })).toEqual(['NA']);
    expect(ids({ countryGeoId: 'FRA' })).toEqual(['EU']);
    expect(ids({ countryGeoId: 'JPN' })).toEqual(['WORLD']);
  });

  it('a zone of states does not hold its country elsewhere, nor an address without a state', () => {
    expect(zoneMatch(west, { countryGeoId: 'USA', stateProvinceGeoId: 'US_NY' })).toBe(0);
    expect(zoneMatch(west, { countryGeoId: 'USA' })).toBe(0);
    expect(zonesFor([west], { countryGeoId: 'USA', stateProvinceGeoId: 'US_TX' })).toEqual([]);
  });

  it('no zone: the store does not ship there', () => {
    expect(zonesFor([na, eu], { countryGeoId: 'JPN' })).toEqual([]);
  });
});
