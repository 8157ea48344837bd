import { describe, expect, it } from 'vitest';
import { quote, shippingRate, taxRateFor } from './quote';

const method = (over: object) => ({
  tenantId: 't',
  methodId: 'STANDARD',
  name: 'Standard',
  description: '',
  kind: 'weight' as const,
  countries: ['USA'],
  flatRate: 0,
  weightTable: [
    { upToGrams: 2000, rate: 695 },
    { upToGrams: 10000, rate: 1295 },
  ],
  freeAbove: 9900,
  sequenceNum: 0,
  ...over,
});
const tax = (rateBasisPoints: number, taxShipping = false) => ({
  tenantId: 't',
  countryGeoId: 'USA',
  regionGeoId: 'US_CA',
  label: 'CA sales tax',
  rateBasisPoints,
  taxShipping,
});

describe('shipping rates', () => {
  it.each([
    // [weight, discounted subtotal, expected rate, expected spend-more]
    [0, 1000, 695, 8900],
    [2000, 1000, 695, 8900],
    [2001, 1000, 1295, 8900],
    [50000, 1000, 1295, 8900], // heavier than the table: the last bracket
    [500, 9899, 695, 1],
    [500, 9900, 0, null], // free from the threshold on
  ])('%i g at %i: %i', (weightGrams, total, rate, freeAbove) => {
    expect(shippingRate(method({}), { weightGrams, total })).toMatchObject({ rate, freeAbove });
  });

  it('a flat method charges its rate whatever the weight', () => {
    expect(
      shippingRate(method({ kind: 'flat', flatRate: 2495, freeAbove: null }), { weightGrams: 99999, total: 1 }),
    ).toMatchObject({ rate: 2495, freeAbove: null });
  });
});

describe('quote', () => {
  const cart = (subtotal: number, discount: number) => ({
    currency: 'USD',
    subtotal,
    discount,
    total: subtotal - discount,
  });

  it.each([
    // [subtotal, discount, shipping, basis points, tax shipping, tax, total]
    [10000, 0, 695, 725, false, 725, 11420],
    [10000, 1000, 695, 725, false, 653, 10348], // 652.5 rounds half up
    [333, 0, 0, 725, false, 24, 357], // 24.14
    [10000, 0, 1000, 1300, true, 1430, 12430], // HST on goods and shipping
    [0, 0, 0, 725, false, 0, 0],
  ])('%i - %i + %i shipping at %i bp', (subtotal, discount, shipping, bp, taxShipping, taxAmount, total) => {
    const q = quote(cart(subtotal, discount), shipping, tax(bp, taxShipping));
    expect(q.tax).toBe(taxAmount);
    expect(q.total).toBe(total);
    expect(q.subtotal - q.discount + q.shipping + q.tax).toBe(q.total);
  });

  it('no tax table for the destination: no tax and no label', () => {
    expect(quote(cart(5000, 0), 695, null)).toMatchObject({ tax: 0, taxLabel: null, total: 5695 });
  });

  it('picks the region rate before the country rate', () => {
    const rates = [tax(725), { ...tax(500), regionGeoId: '' }];
    expect(taxRateFor(rates, 'USA', 'US_CA')?.rateBasisPoints).toBe(725);
    expect(taxRateFor(rates, 'USA', 'US_TX')?.rateBasisPoints).toBe(500);
    expect(taxRateFor(rates, 'CAN', null)).toBeNull();
  });

  it('prices with tax: the shopper pays the shelf price, the tax is inside it and said so', () => {
    const q = quote(cart(10725, 0), 0, { ...tax(725), pricesIncludeTax: true });
    expect(q).toMatchObject({ tax: 725, taxIncluded: true, total: 10725, taxLabel: 'CA sales tax' });
    expect(q.subtotal - q.discount + q.shipping).toBe(q.total);
  });

  it('lines by class: an exempt line pays nothing, a line without a class is standard', () => {
    const lines = [{ lineTotal: 6000, taxClass: 'exempt' as const }, { lineTotal: 4000 }];
    const q = quote({ ...cart(10000, 0), lines }, 0, tax(725));
    expect(q).toMatchObject({ tax: 290, taxIncluded: false, total: 10290 });
    // Lines that do not add up to the subtotal are not trusted to split it: all standard.
    expect(quote({ ...cart(12000, 0), lines }, 0, tax(725)).tax).toBe(870);
  });
});
