import { describe, expect, it } from 'vitest';
import { deliveryPromise, descriptionBesideDelivery, transitDaysIn } from './delivery-display';

describe('deliveryPromise', () => {
  it('says when a parcel ships and arrives, leaving out what the store did not set', () => {
    const est = { min: 3, max: 5, business: true };
    expect(deliveryPromise({ handlingDays: 2, transitDays: est })).toBe(
      'Ships in 2 business days · Arrives in 3–5 business days',
    );
    expect(deliveryPromise({ handlingDays: 1, transitDays: null })).toBe('Ships in 1 business day');
    // Handling 0 is the column's default: no same-day promise, only the estimate.
    expect(deliveryPromise({ handlingDays: 0, transitDays: est })).toBe('Arrives in 3–5 business days');
    expect(deliveryPromise({ handlingDays: 0, transitDays: null })).toBeNull();
    expect(deliveryPromise({})).toBeNull();
    expect(deliveryPromise({ transitDays: { min: 1, max: 1, business: true } })).toBe('Arrives in 1 business day');
    expect(deliveryPromise({ transitDays: { min: 2, max: 2, business: false } })).toBe('Arrives in 2 days');
    expect(deliveryPromise({ transitDays: { min: 7, max: 14, business: false } })).toBe('Arrives in 7–14 days');
  });

  it('for local pickup, says when the order is ready and nothing about transit', () => {
    expect(deliveryPromise({ pickup: true, handlingDays: 1 })).toBe('Ready for pickup in 1 business day');
    expect(deliveryPromise({ pickup: true, handlingDays: 3, transitDays: { min: 1, max: 2, business: true } })).toBe(
      'Ready for pickup in 3 business days',
    );
    expect(deliveryPromise({ pickup: true, handlingDays: 0 })).toBeNull();
  });
});

describe('transitDaysIn', () => {
  it('reads the estimates owners write, and nothing else', () => {
    expect(transitDaysIn('3 to 5 business days')).toEqual({ min: 3, max: 5, business: true });
    expect(transitDaysIn('1 to 2 business days')).toEqual({ min: 1, max: 2, business: true });
    expect(transitDaysIn('3-5 days')).toEqual({ min: 3, max: 5, business: false });
    expect(transitDaysIn('3 – 5 working days.')).toEqual({ min: 3, max: 5, business: true });
    expect(transitDaysIn('Arrives in 1 business day')).toEqual({ min: 1, max: 1, business: true });
    expect(transitDaysIn('2 Days')).toEqual({ min: 2, max: 2, business: false });
    for (const text of ['', '1 Main St, 9-5', 'Tracked, signature on delivery', '5 to 3 days', '0 days', 'next day'])
      expect(transitDaysIn(text)).toBeNull();
  });
});

describe('descriptionBesideDelivery', () => {
  it('drops the description the delivery line already says, keeps any other', () => {
    const estimate = { description: '3 to 5 business days', delivery: 'Arrives in 3–5 business days' };
    expect(descriptionBesideDelivery(estimate)).toBeNull();
    expect(
      descriptionBesideDelivery({ description: '1 Main St, 9-5', delivery: 'Ready for pickup in 1 business day' }),
    ).toBe('1 Main St, 9-5');
    expect(descriptionBesideDelivery({ description: 'Live rate from UPS', delivery: null })).toBe('Live rate from UPS');
    expect(descriptionBesideDelivery({ description: '  ', delivery: null })).toBeNull();
  });
});
