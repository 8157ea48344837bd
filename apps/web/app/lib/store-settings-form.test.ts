import { contrastRatio, contrastWarnings, hexToRgb, parseRgb, rgbToHex } from '@app/contracts/client';
import { describe, expect, it } from 'vitest';
import { detailsPayload, seoErrorsToRows, themePayload } from './store-settings-form';

const form = (entries: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(entries)) f.append(k, v);
  return f;
};

describe('theme form', () => {
  const base = {
    template: 'ONE',
    theme: 'THEME_FASHION',
    'themeColors.primary': '1, 2, 3',
    'was.themeColors.primary': '1, 2, 3',
    'pick.themeColors.primary': '#010203',
    'themeColors.secondary': '4, 5, 6',
    'themeColors.banner': '7, 8, 9',
    'themeColors.action': '10, 11, 12',
  };

  it('takes the typed text, or the picker when the text was left as it was (no JavaScript)', () => {
    expect(themePayload(form(base)).themeColors.primary).toBe('1, 2, 3');
    expect(themePayload(form({ ...base, 'pick.themeColors.primary': '#ff0080' })).themeColors.primary).toBe(
      '255, 0, 128',
    );
    // Typed text wins over the picker.
    expect(
      themePayload(form({ ...base, 'themeColors.primary': '9, 9, 9', 'pick.themeColors.primary': '#ff0080' }))
        .themeColors.primary,
    ).toBe('9, 9, 9');
  });

  it('uses the platform colours when asked', () => {
    const p = themePayload(form(base), { primary: 'a', secondary: 'b', banner: 'c', action: 'd' });
    expect(p.themeColors).toEqual({ primary: 'a', secondary: 'b', banner: 'c', action: 'd' });
    expect(p.template).toBe('ONE');
  });
});

describe('details form', () => {
  it('nests dotted names, empties become null, blank SEO rows are dropped and errors map back to rows', () => {
    const { payload, seoRows } = detailsPayload(
      form({
        companyName: ' Acme ',
        'companyAddress.city': '',
        'seoMeta.0.route': 'default',
        'seoMeta.0.title': 'Acme',
        'seoMeta.1.route': '',
        'seoMeta.1.title': '',
        'seoMeta.2.route': '/x',
        'seoMeta.2.title': '',
      }),
    );
    expect(payload.companyName).toBe('Acme');
    expect((payload.companyAddress as Record<string, unknown>).city).toBeNull();
    expect(payload.contactPage).toBe('N');
    expect(payload.seoMeta).toHaveLength(2);
    expect(seoRows).toEqual([0, 2]);
    expect(seoErrorsToRows({ 'seoMeta.1.title': 'enter a title', companyName: 'x' }, seoRows)).toEqual({
      'seoMeta.2.title': 'enter a title',
      companyName: 'x',
    });
  });
});

describe('colours and contrast', () => {
  it('parses "R, G, B" strictly and converts to and from hex', () => {
    expect(parseRgb('1,2, 3')).toEqual([1, 2, 3]);
    expect(parseRgb('256, 0, 0')).toBeNull();
    expect(parseRgb('1, 2')).toBeNull();
    expect(rgbToHex([255, 0, 128])).toBe('#ff0080');
    expect(hexToRgb('#FF0080')).toEqual([255, 0, 128]);
  });

  it('computes WCAG ratios and warns below 4.5:1 only', () => {
    expect(Math.round(contrastRatio([0, 0, 0], [255, 255, 255]))).toBe(21);
    expect(contrastWarnings({ action: '250, 250, 120', banner: '15, 23, 42' }).map((w) => w.field)).toEqual([
      'themeColors.action',
    ]);
  });
});
