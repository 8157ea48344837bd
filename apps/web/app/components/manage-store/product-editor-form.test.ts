import { describe, expect, it } from 'vitest';
import { rowsToShow } from './product-editor-form';

describe('the product editor’s repeated rows', () => {
  it('shows the filled rows and the blank ones to add', () => {
    expect(rowsToShow([], [], 1)).toBe(1);
    expect(rowsToShow(['Shade'], ['Linen\nGlass'], 1)).toBe(2);
    expect(rowsToShow(['Finish', 'Height'], ['Brass', '30 cm'], 2)).toBe(4);
  });

  it('does not count the blank rows a refused save sends back', () => {
    // Sent: one option and one blank; refused; the same rows come back.
    expect(rowsToShow(['Shade', ''], ['Linen', ''], 1)).toBe(2);
    // Sent: all blank (2 feature rows); refused: still 2, not 4.
    expect(rowsToShow(['', ''], ['', '  '], 2)).toBe(2);
  });

  it('keeps a gap the owner left, up to the last filled row', () => {
    expect(rowsToShow(['Finish', '', 'Height'], ['Brass', '', '30 cm'], 2)).toBe(5);
    // A row with only its second half filled counts.
    expect(rowsToShow(['', ''], ['', 'Glass'], 1)).toBe(3);
  });
});
