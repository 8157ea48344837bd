import { describe, expect, it } from 'vitest';
import { fieldSnapshot, visibleError } from './field-error';

describe('a field’s error', () => {
  const price = (v: string) => (/^\d+(\.\d{0,2})?$/.test(v) ? null : `"${v}" is not a price`);

  it('stays while the field holds the refused value, and goes as soon as it changes', () => {
    const refused = fieldSnapshot([{ value: '' }]);
    expect(visibleError({ serverError: 'Title is required', refused, current: refused })).toBe('Title is required');
    expect(visibleError({ serverError: 'Title is required', refused, current: fieldSnapshot([{ value: 'L' }]) })).toBe(
      null,
    );
  });

  it('comes back when the refused value is typed again', () => {
    const refused = fieldSnapshot([{ value: 'ab c' }]);
    expect(visibleError({ serverError: 'No spaces', refused, current: fieldSnapshot([{ value: 'ab c' }]) })).toBe(
      'No spaces',
    );
  });

  it('is the field’s own check for a changed value that is still wrong, none once it passes', () => {
    const refused = fieldSnapshot([{ value: '12.345' }]);
    const server = 'Price has more than 2 decimals';
    expect(visibleError({ serverError: server, refused, current: '12.3x', check: price })).toBe(
      '"12.3x" is not a price',
    );
    expect(visibleError({ serverError: server, refused, current: '12.35', check: price })).toBeNull();
    // Unchanged: the server's words, not the check's.
    expect(visibleError({ serverError: server, refused, current: refused, check: price })).toBe(server);
  });

  it('sees a ticked box, a picked file and a changed select as changes', () => {
    const boxes = (checked: boolean[]) =>
      fieldSnapshot(checked.map((c, i) => ({ type: 'checkbox', value: `cat-${i}`, checked: c })));
    expect(boxes([false, true])).not.toBe(boxes([true, true]));
    expect(boxes([false, true])).toBe(boxes([false, true]));
    const file = (n: number) => fieldSnapshot([{ type: 'file', value: '', files: { length: n } }]);
    expect(file(0)).not.toBe(file(1));
    // Two controls whose texts would join the same way stay apart.
    expect(fieldSnapshot([{ value: 'a' }, { value: 'bc' }])).not.toBe(fieldSnapshot([{ value: 'ab' }, { value: 'c' }]));
  });
});
