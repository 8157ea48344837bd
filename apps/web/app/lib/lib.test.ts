import { describe, expect, it } from 'vitest';
import { jsonLdHtml } from './json-ld';
import { frameParts } from './layout-rules';
import { safeRedirect } from './safe-redirect';
import { seoFor } from './seo';
import { themeCss } from './theme';
import { titleCase } from './title-case';

describe('frameParts', () => {
  it.each([
    '/auth/register',
    '/auth/login',
    '/auth/forgot-password',
    '/manage-store/bonanza-connect',
    '/auth/reset/abc',
    '/x/auth/y',
  ])('hides the whole frame on %s', (path) => {
    expect(frameParts(path)).toEqual({
      header: false,
      topStrip: false,
      categoryBar: false,
      footer: false,
      copyright: false,
    });
  });
  it.each([
    '/account/profile',
    '/account/password',
    '/order/history',
    '/account/payment-methods',
    '/manage-store/settings/theme',
    '/manage-store/settings/banners',
    '/manage-store/settings/cms',
    '/manage-store/settings/other',
    '/manage-store/settings/cms/details',
    '/manage-store/settings/access',
    '/order/history/',
  ])('shows everything but the category bar on %s', (path) => {
    expect(frameParts(path)).toEqual({
      header: true,
      topStrip: true,
      categoryBar: false,
      footer: true,
      copyright: true,
    });
  });
  it.each([
    '/',
    '/cart',
    '/checkout',
    '/faqs',
    '/categories/abc',
    '/lamp/LT-1',
    '/account/profile/settings',
    '/contact',
  ])('shows everything on %s', (path) => {
    expect(Object.values(frameParts(path)).every(Boolean)).toBe(true);
  });
});

describe('safeRedirect', () => {
  it('keeps same-origin relative paths with their query', () => {
    expect(safeRedirect('/account/profile')).toBe('/account/profile');
    expect(safeRedirect('/product/search/lamp?sort=price')).toBe('/product/search/lamp?sort=price');
  });
  it.each([
    'https://evil.example',
    '//evil.example',
    '/\\evil.example',
    'javascript:alert(1)',
    ' //evil.example',
    '/\t/evil.example',
    'evil',
    '',
    null,
  ])('sends %s to /', (to) => {
    expect(safeRedirect(to as string)).toBe('/');
  });
});

describe('seoFor', () => {
  const entries = [
    { route: 'default', title: 'Shop', keywords: 'Shop', description: 'Shop' },
    { route: '/', title: 'Home', keywords: 'k', description: 'd' },
    { route: '/product/search', title: 'Search', keywords: 'k', description: 'd' },
  ];
  it('picks the exact route, then a prefix, then the default', () => {
    expect(seoFor(entries, '/', 'X').title).toBe('Home');
    expect(seoFor(entries, '/product/search/lamp', 'X').title).toBe('Search');
    expect(seoFor(entries, '/faqs', 'X').title).toBe('Shop');
    expect(seoFor([], '/faqs', 'Brand').keywords).toBe('Brand');
  });
});

describe('themeCss and titleCase', () => {
  it('turns RGB strings into custom properties, clamping bad parts', () => {
    expect(themeCss({ primary: '1, 2, 3', secondary: '4,5,6', banner: '7, 8, 9', action: '300, -1, x' })).toBe(
      ':root{--brand:1, 2, 3;--medium:4, 5, 6;--dark:7, 8, 9;--action:255, 0, 0}',
    );
  });
  it('title-cases page titles, keeping small words small', () => {
    expect(titleCase('shipping and delivery')).toBe('Shipping and Delivery');
    expect(titleCase('returns & refunds')).toBe('Returns & Refunds');
  });
});

describe('mediaSrcSet', () => {
  it('offers widths of our own media only', async () => {
    const { mediaSrcSet } = await import('./media');
    expect(mediaSrcSet('http://a.localhost/media/seed/a/x.webp', [160, 320])).toBe(
      'http://a.localhost/media/seed/a/x.webp?w=160 160w, http://a.localhost/media/seed/a/x.webp?w=320 320w',
    );
    expect(mediaSrcSet('https://cdn.example/x.webp', [160])).toBeUndefined();
    expect(mediaSrcSet(null, [160])).toBeUndefined();
    expect(mediaSrcSet('/no-product-image.svg', [160])).toBeUndefined();
  });
});

describe('jsonLdHtml', () => {
  it('keeps a hostile review inside its script element, and the data intact', () => {
    const review = {
      '@type': 'Review',
      reviewBody: '<b>Bright</b> </script><script>alert(1)</script> <!-- x \u2028',
      name: '</SCRIPT><img src=x onerror=alert(1)>',
    };
    const html = jsonLdHtml({ '@type': 'Product', review: [review] });
    expect(html).not.toContain('<');
    expect(html.toLowerCase()).not.toContain('</script');
    expect(html).toContain('\\u003c/script>');
    expect(JSON.parse(html)).toEqual({ '@type': 'Product', review: [review] });
  });
});
