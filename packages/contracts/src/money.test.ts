import { describe, expect, it } from 'vitest';
import { priceBandLabel } from './catalog-options';
import { decimalAmount, formatMoney } from './money';

describe('money', () => {
  it('formats minor units by the currency’s digits', () => {
    expect(formatMoney(34899, 'USD')).toBe('$348.99');
    expect(formatMoney(5000, 'USD', { trim: true })).toBe('$50');
    expect(formatMoney(5050, 'USD', { trim: true })).toBe('$50.50');
    expect(formatMoney(1500, 'JPY')).toBe('¥1,500');
    expect(decimalAmount(34899, 'USD')).toBe('348.99');
    expect(decimalAmount(1500, 'JPY')).toBe('1500');
  });

  it('labels price bands as the facet and the filter chip show them', () => {
    expect(priceBandLabel(0, 2500)).toBe('Under $25');
    expect(priceBandLabel(5000, 10000)).toBe('$50 – $100');
    expect(priceBandLabel(50000, null)).toBe('$500 and up');
  });
});
