import { describe, expect, it } from 'vitest';
import {
  apiParams,
  brandsOf,
  clearFiltersHref,
  hrefWith,
  hrefWithoutOption,
  optionsOf,
  pageWindow,
  parseBand,
} from './catalog-params';
import { jsonLdHtml } from './json-ld';

const q = (s: string) => new URLSearchParams(s);

describe('catalog URL params', () => {
  it('keeps the first 20 option values, as many as the API takes', () => {
    const many = q(Array.from({ length: 25 }, (_, i) => `option.size=s${i}`).join('&'));
    expect(optionsOf(many)).toHaveLength(20);
    expect(optionsOf(many).at(-1)).toEqual({ name: 'size', value: 's19' });
    expect(apiParams(many)['option.size']?.split('\n')).toHaveLength(20);
  });

  it('reads brands repeated (a GET form) or comma-joined (a link)', () => {
    expect(brandsOf(q('brand=A&brand=B,C&brand=A'))).toEqual(['A', 'B', 'C']);
  });

  it('reads option values as option.<name>=<value>, repeated, and keeps them in links', () => {
    const s = q('option.finish=brass&option.finish=black&option.finish=brass&option.size=large&page=2');
    expect(optionsOf(s)).toEqual([
      { name: 'finish', value: 'brass' },
      { name: 'finish', value: 'black' },
      { name: 'size', value: 'large' },
    ]);
    expect(apiParams(s)).toEqual({ 'option.finish': 'brass\nblack', 'option.size': 'large', page: '2' });
    expect(hrefWith('/c', s, { sort: 'name' })).toBe(
      '/c?option.finish=brass&option.finish=black&option.size=large&sort=name',
    );
    expect(hrefWithoutOption('/c', s, { name: 'finish', value: 'brass' })).toBe(
      '/c?option.finish=black&option.size=large',
    );
    expect(clearFiltersHref('/c', q('option.finish=brass&sort=name'))).toBe('/c?sort=name');
  });

  it('turns a price band into the API range, its end exclusive', () => {
    expect(apiParams(q('price=5000-10000&brand=A&brand=B&sort=name&empty='))).toEqual({
      brand: 'A,B',
      priceMin: '5000',
      priceMax: '9999',
      sort: 'name',
    });
    expect(apiParams(q('price=50000-'))).toEqual({ priceMin: '50000' });
    expect(apiParams(q('price=junk'))).toEqual({});
  });

  it.each([
    ['5000-10000', { min: 5000, max: 10000 }],
    ['0-2500', { min: 0, max: 2500 }],
    ['50000-', { min: 50000, max: null }],
    ['100-50', null],
    ['-5', null],
    [null, null],
  ])('parseBand(%s)', (value, band) => {
    expect(parseBand(value)).toEqual(band);
  });

  it('a changed filter goes back to page 1; a page link keeps the rest', () => {
    const s = q('sort=price_asc&brand=A&brand=B&page=3');
    expect(hrefWith('/c/X', s, { inStock: 'true' })).toBe('/c/X?sort=price_asc&brand=A%2CB&inStock=true');
    expect(hrefWith('/c/X', s, { page: '2' })).toBe('/c/X?sort=price_asc&brand=A%2CB&page=2');
    expect(hrefWith('/c/X', s, { page: '1' })).toBe('/c/X?sort=price_asc&brand=A%2CB');
    expect(clearFiltersHref('/c/X', s)).toBe('/c/X?sort=price_asc');
  });

  it('pages: all when few, a window with gaps when many', () => {
    expect(pageWindow(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(6, 12)).toEqual([1, null, 5, 6, 7, null, 12]);
    expect(pageWindow(3, 12)).toEqual([1, 2, 3, 4, null, 12]);
  });
});

describe('structured data', () => {
  it('JSON-LD cannot close its script element', () => {
    const html = jsonLdHtml({ name: '</script><script>alert(1)</script>' });
    expect(html).not.toContain('<');
    expect(JSON.parse(html)).toEqual({ name: '</script><script>alert(1)</script>' });
  });
});
