import { describe, expect, it } from 'vitest';
import { moneyProblem, moneyText, normalizedMoneyText } from './money';

describe('the money input', () => {
  it('shows integer minor units in the currency’s decimals', () => {
    expect(moneyText(1250, 'USD')).toBe('12.50');
    expect(moneyText(5, 'USD')).toBe('0.05');
    expect(moneyText(500, 'JPY')).toBe('500');
    expect(moneyText(1234, 'KWD')).toBe('1.234');
    expect(moneyText(null, 'USD')).toBe('');
  });

  it('refuses what the server refuses, with its words', () => {
    expect(moneyProblem('12.50', 'USD')).toBeNull();
    expect(moneyProblem('1,299.00', 'USD')).toBeNull();
    expect(moneyProblem('12.345', 'USD')).toMatch(/more than 2 decimals/);
    expect(moneyProblem('12.5', 'JPY')).toMatch(/has decimals/);
    expect(moneyProblem('$12', 'USD')).toMatch(/not a price/);
    expect(moneyProblem('-3', 'USD')).toMatch(/not a price/);
    expect(moneyProblem('100000000.01', 'USD')).toMatch(/more than a price can be/);
  });

  it('lets an optional price be empty, not a required one', () => {
    expect(moneyProblem('  ', 'USD')).toBeNull();
    expect(moneyProblem('', 'USD', true)).toBe('Enter a price');
  });

  it('tidies a good price to how it is saved, leaves a bad one as typed', () => {
    expect(normalizedMoneyText('12.5', 'USD')).toBe('12.50');
    expect(normalizedMoneyText(' 1,299 ', 'USD')).toBe('1299.00');
    expect(normalizedMoneyText('12.345', 'USD')).toBe('12.345');
    expect(normalizedMoneyText('', 'USD')).toBe('');
  });
});
