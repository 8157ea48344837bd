import { describe, expect, it } from 'vitest';
import { descriptionParagraphs } from './product-admin';

describe('a product description', () => {
  it('without block tags is the paragraphs between its blank lines; with them, the HTML as written', () => {
    expect(descriptionParagraphs('The lamp.\n\nBrass and linen.\r\n\r\n  Warm light. \n\n')).toBe(
      '<p>The lamp.</p>\n<p>Brass and linen.</p>\n<p>Warm light.</p>',
    );
    expect(descriptionParagraphs('One line, <b>bold</b>.')).toBe('<p>One line, <b>bold</b>.</p>');
    expect(descriptionParagraphs('<p>Written</p>\n\n<p>as HTML</p>')).toBe('<p>Written</p>\n\n<p>as HTML</p>');
  });
});
