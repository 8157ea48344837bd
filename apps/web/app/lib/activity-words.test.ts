import { describe, expect, it } from 'vitest';
import { activityWords, fieldLabel } from './activity-words';

describe('the activity feed in words', () => {
  it('names the theme and its colours, not their keys or the row id', () => {
    expect(
      activityWords({ entity: 'theme', entityId: '9000', action: 'update', changedFields: ['primary', 'secondary'] }),
    ).toBe('changed the theme (main colour, second colour)');
  });

  it('keeps the id only where the owner knows the thing by it', () => {
    expect(activityWords({ entity: 'order', entityId: '1042', action: 'update', changedFields: [] })).toBe(
      'changed order 1042',
    );
    expect(
      activityWords({ entity: 'product', entityId: 'p_8f3a2c', action: 'update', changedFields: ['salePriceMinor'] }),
    ).toBe('changed a product (sale price)');
  });

  it('turns unknown keys into words instead of showing them raw', () => {
    expect(fieldLabel('shippingFeeMinor')).toBe('shipping fee');
    expect(fieldLabel('free_shipping_over')).toBe('free shipping over');
    expect(activityWords({ entity: 'gift_card', entityId: 'g1', action: 'archive', changedFields: ['x', 'x'] })).toBe(
      'archive a gift card (x)',
    );
  });
});
