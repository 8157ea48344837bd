import { describe, expect, it } from 'vitest';
import { priceBandLabel } from './catalog-options';
import { formatDate } from './display';
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

  it('prints the common currencies exactly as Intl does, without it', () => {
    const amounts = [
      0, 1, 5, 99, 100, 101, 999, 1000, 5000, 12345, 99999, 100000, 123456789, 100000000000, -1, -2550, -123456,
    ];
    for (const currency of ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'NZD', 'MXN', 'HKD', 'INR', 'JPY', 'KRW']) {
      const digits = new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits as number;
      for (const amount of amounts) {
        const major = amount / 10 ** digits;
        expect(formatMoney(amount, currency), `${currency} ${amount}`).toBe(
          new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(major),
        );
        const wholeAmount = amount * 10 ** digits;
        expect(formatMoney(wholeAmount, currency, { trim: true }), `${currency} ${wholeAmount} trimmed`).toBe(
          new Intl.NumberFormat('en-US', {
            style: 'currency',
            currency,
            minimumFractionDigits: 0,
            maximumFractionDigits: 0,
          }).format(amount),
        );
      }
    }
    // Any other code still goes through Intl.
    expect(formatMoney(123456, 'KWD')).toBe('KWD\u00a0123.456');
    expect(formatMoney(150, 'XYZ')).toBe('XYZ\u00a01.50');
  });

  it('labels price bands as the facet and the filter chip show them', () => {
    expect(priceBandLabel(0, 2500)).toBe('Under $25');
    expect(priceBandLabel(5000, 10000)).toBe('$50 – $100');
    expect(priceBandLabel(50000, null)).toBe('$500 and up');
  });

  it('prints dates as Intl does (en-US, medium, UTC), without it', () => {
    const intl = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
    for (const iso of [
      '2026-01-01T00:00:00Z',
      '2026-11-23T23:59:59Z',
      '1999-12-31T12:00:00Z',
      '2024-02-29T08:00:00-05:00',
    ]) {
      for (let month = 0; month < 12; month++) {
        const d = new Date(iso);
        d.setUTCMonth(month, 5);
        expect(formatDate(d.toISOString())).toBe(intl.format(d));
      }
      expect(formatDate(iso)).toBe(intl.format(new Date(iso)));
    }
  });
});
