import { describe, expect, it } from 'vitest';
import { computeTax, goodsPaid, refundTaxShare, spread, type TaxRule } from './tax-math';

// The tax arithmetic as tables (decision 116): every row says what a shopper would see on the order.
const CA: TaxRule = { label: 'CA sales tax', rateBasisPoints: 725, reducedBasisPoints: null, taxShipping: false };
const HST: TaxRule = { label: 'HST', rateBasisPoints: 1300, reducedBasisPoints: 500, taxShipping: true };
const VAT: TaxRule = { label: 'VAT', rateBasisPoints: 2000, reducedBasisPoints: 500, taxShipping: true };

type Line = { amount: number; taxClass: 'standard' | 'reduced' | 'exempt' };
const std = (amount: number): Line => ({ amount, taxClass: 'standard' });
const red = (amount: number): Line => ({ amount, taxClass: 'reduced' });
const ex = (amount: number): Line => ({ amount, taxClass: 'exempt' });

describe('computeTax: prices without tax add it', () => {
  it.each([
    // [what, lines, discount, shipping, rule, tax]
    ['one class, as orders were taxed before classes', [std(10000)], 0, 695, CA, 725],
    ['a discount lowers the base (652.5 rounds up)', [std(10000)], 1000, 695, CA, 653],
    ['shipping taxed joins the standard base', [std(10000)], 0, 1000, HST, 1430],
    ['shipping not taxed', [std(10000)], 0, 1000, CA, 725],
    ['mixed classes: 13 % and 5 %, exempt nothing', [std(6000), red(3000), ex(1000)], 0, 0, HST, 780 + 150],
    ['the discount spread over the classes in proportion', [std(6000), red(3000), ex(1000)], 1000, 0, HST, 702 + 135],
    ['reduced without its own rate pays the standard one', [red(10000)], 0, 0, CA, 725],
    ['only exempt goods: no tax, shipping still taxed', [ex(5000)], 0, 1000, HST, 130],
    ['no rule for the destination', [std(10000)], 0, 695, null, 0],
  ])('%s', (_what, lines, discount, shipping, rule, tax) => {
    const r = computeTax({ lines, discount, shipping, rule, pricesIncludeTax: false });
    expect(r.tax).toBe(tax);
    expect(r.included).toBe(false);
    expect(r.groups.reduce((s, g) => s + g.tax, 0)).toBe(r.tax);
  });
});

describe('computeTax: prices with tax hold it', () => {
  it.each([
    // [what, lines, discount, shipping, rule, tax]: tax = round(gross * r / (10000 + r)) per group
    ['VAT inside a shelf price of 120.00 at 20 %', [std(12000)], 0, 0, VAT, 2000],
    ['CA 7.25 % inside 107.25', [std(10725)], 0, 0, CA, 725],
    ['shipping taxed: inside the shipping too', [std(12000)], 0, 600, VAT, 2100],
    ['mixed: 20 % inside 120.00, 5 % inside 10.50, exempt 5.00', [std(12000), red(1050), ex(500)], 0, 0, VAT, 2050],
    [
      'a discount spread by value, then the tax inside what is left',
      [std(12000), red(1050), ex(500)],
      1357,
      600,
      VAT,
      1900 + 45,
    ], // (12000 - 1202 + 600) holds 1899.67
    ['rounding: 9.99 at 7.25 % holds 0.68', [std(999)], 0, 0, CA, 68],
  ])('%s', (_what, lines, discount, shipping, rule, tax) => {
    const r = computeTax({ lines, discount, shipping, rule, pricesIncludeTax: true });
    expect(r.tax).toBe(tax);
    expect(r.included).toBe(true);
  });

  it('the shopper pays the shelf price: tax plus net is the gross, group by group', () => {
    const r = computeTax({
      lines: [std(12000), red(1050)],
      discount: 0,
      shipping: 0,
      rule: VAT,
      pricesIncludeTax: true,
    });
    for (const g of r.groups) expect(g.base - g.tax + g.tax).toBe(g.base);
    expect(r.groups.map((g) => [g.taxClass, g.base, g.tax])).toEqual([
      ['standard', 12000, 2000],
      ['reduced', 1050, 50],
    ]);
  });
});

describe('spread', () => {
  it.each([
    [1000, [6000, 3000, 1000], [600, 300, 100]],
    [1357, [12000, 1050, 500], [1202, 105, 50]],
    [1, [1, 1, 1], [1, 0, 0]],
    [100, [0, 0], [0, 0]],
    [7, [3, 3, 3], [3, 2, 2]],
  ])('%i over %j is %j and adds up', (total, weights, parts) => {
    const got = spread(total, weights);
    expect(got).toEqual(parts);
    if (weights.some((w) => w > 0)) expect(got.reduce((s, p) => s + p, 0)).toBe(total);
  });
});

describe('refunds give back the matching tax', () => {
  // An order of 100.00 of goods, 10.00 off, 6.95 shipping untaxed, 7.25 % added: tax 6.53, total 103.48.
  const exclusive = { subtotal: 10000, discount: 1000, taxTotal: 653, taxIncluded: false, capturedAmount: 10348 };
  // The same goods with tax inside their prices: tax 6.07 inside a total of 96.95.
  const inclusive = { subtotal: 10000, discount: 1000, taxTotal: 607, taxIncluded: true, capturedAmount: 9695 };

  it.each([
    // [what, order, goods refunded, what the shopper paid for them]
    ['exclusive: a 25.00 line less its discount share plus its tax', exclusive, 2500, 2500 - 250 + 163],
    ['inclusive: the line less its discount share; its tax is inside', inclusive, 2500, 2500 - 250],
    ['exclusive: everything', exclusive, 10000, 10000 - 1000 + 653],
  ])('%s', (_what, order, goods, paid) => {
    expect(goodsPaid(order, goods)).toBe(paid);
  });

  it('a partial refund carries its share of the tax; the one that completes the order the rest', () => {
    const first = refundTaxShare(exclusive, 2413, { amount: 0, tax: 0 });
    expect(first).toBe(152); // 653 * 2413 / 10348 = 152.3
    const last = refundTaxShare(exclusive, 10348 - 2413, { amount: 2413, tax: first });
    expect(first + last).toBe(653);
  });

  it('a full refund at once gives back exactly the tax charged', () => {
    expect(refundTaxShare(inclusive, 9695, { amount: 0, tax: 0 })).toBe(607);
    expect(refundTaxShare(exclusive, 10348, { amount: 0, tax: 0 })).toBe(653);
  });

  it('never more tax than the refund, nor than is left', () => {
    expect(refundTaxShare({ capturedAmount: 1000, taxTotal: 900 }, 5, { amount: 995, tax: 100 })).toBe(5);
    expect(refundTaxShare({ capturedAmount: 1000, taxTotal: 80 }, 500, { amount: 400, tax: 80 })).toBe(0);
    expect(refundTaxShare({ capturedAmount: 0, taxTotal: 0 }, 500, { amount: 0, tax: 0 })).toBe(0);
  });
});
