import { describe, expect, it } from 'vitest';
import { quote, taxRateFor } from './quote';

const tax = (rateBasisPoints: number, taxShipping = false) => ({
  tenantId: 't',
  countryGeoId: 'USA',
  regionGeoId: 'US_CA',
  label: 'CA sales tax',
  rateBasisPoints,
  taxShipping,
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
