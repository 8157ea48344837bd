import { describe, expect, it } from 'vitest';
import { isAllowedCmsImage, sanitizeCmsHtml, storedOwnerHtml } from './sanitize';

/** The CMS allow-list: what an owner's editor makes survives; anything active does not. */
describe('sanitizeCmsHtml', () => {
  it('keeps headings, lists, links, images and tables as the editor writes them', () => {
    const html =
      '<h2>Care</h2><p>Read <a href="https://example.com/a" target="_blank">this</a> and <a href="/page/details/faq">that</a>.</p>' +
      '<ul><li><p>One</p></li></ul><ol start="3"><li>Three</li></ol>' +
      '<img src="/media/products/lamp.webp" alt="Lamp"><img src="https://cdn.example.com/x.png" alt="X">' +
      '<table><tbody><tr><th colspan="1" rowspan="1">Size</th><td colspan="2">Large</td></tr></tbody></table>';
    const clean = sanitizeCmsHtml(html);
    expect(clean).toContain('<h2>Care</h2>');
    expect(clean).toContain('<a href="https://example.com/a" target="_blank" rel="noopener noreferrer">this</a>');
    expect(clean).toContain('<a href="/page/details/faq">that</a>');
    expect(clean).toContain('<ul><li><p>One</p></li></ul><ol start="3"><li>Three</li></ol>');
    expect(clean).toContain('<img src="/media/products/lamp.webp" alt="Lamp" />');
    expect(clean).toContain('<img src="https://cdn.example.com/x.png" alt="X" />');
    expect(clean).toContain('<th colspan="1" rowspan="1">Size</th><td colspan="2">Large</td>');
  });

  it('drops scripts and styles with their contents', () => {
    const clean = sanitizeCmsHtml('<p>a</p><script>alert(1)</script><style>body{display:none}</style><p>b</p>');
    expect(clean).toBe('<p>a</p><p>b</p>');
  });

  it('drops event handlers and inline styles', () => {
    const clean = sanitizeCmsHtml(
      '<p onclick="steal()" style="color:red">x</p><img src="/media/a.webp" onerror="steal()"><a href="/x" onmouseover="y()">l</a>',
    );
    expect(clean).not.toMatch(/on(click|error|mouseover)|style|steal/);
    expect(clean).toBe('<p>x</p><img src="/media/a.webp" /><a href="/x">l</a>');
  });

  it('drops javascript: and data: links and images, however they are spelled', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
    ]) {
      const clean = sanitizeCmsHtml(`<a href="${href}">x</a>`);
      expect(clean, href).toBe('<a>x</a>');
    }
    expect(sanitizeCmsHtml('<img src="data:image/png;base64,AAAA">')).toBe('');
    expect(sanitizeCmsHtml('<img src="javascript:alert(1)">')).toBe('');
  });

  it('takes images only from the store media or https', () => {
    expect(sanitizeCmsHtml('<img src="http://example.com/x.png">')).toBe('');
    expect(sanitizeCmsHtml('<img src="//evil.example/x.png">')).toBe('');
    expect(sanitizeCmsHtml('<img src="/api/v1/cart/clear">')).toBe('');
    expect(sanitizeCmsHtml('<img src="/media/../api/x">')).toBe('');
    expect(isAllowedCmsImage('/media/banners/a-1.webp')).toBe(true);
    expect(isAllowedCmsImage('https://cdn.example.com/a.png')).toBe(true);
    expect(isAllowedCmsImage(undefined)).toBe(false);
  });

  it('drops frames, forms and objects', () => {
    const clean = sanitizeCmsHtml(
      '<iframe src="https://x.example"></iframe><form action="https://x"><input name="a"></form><object data="x"></object><p>ok</p>',
    );
    expect(clean).toBe('<p>ok</p>');
  });
});

/** A product description as stored (decision 074): the owner's own text unless something had to go. */
describe('storedOwnerHtml', () => {
  it('keeps text and allowed HTML exactly as written: ampersands, brackets, quotes, entities, any script of any language', () => {
    for (const html of [
      'The Arden Pendant by Halden & Co. Takes an E26 bulb.\n\nDimmable.',
      'Size < 40 cm & > 20 cm; "really", it\'s\r\nbright',
      '<p>Ελαφρύ &amp; φωτεινό: 明るい&nbsp;光 🌞</p>\n<ul><li>Tom &amp; Jerry’s “lamp”</li><li>a &lt; b</li></ul>',
      '<p><a href=\'/page/details/faq\'>FAQ</a><img src="/media/a.webp" alt="A"><br></p>',
      'x &amp y &copy; &#169; &#x1F331;',
    ]) {
      expect(storedOwnerHtml(html)).toBe(html);
    }
  });

  it('stores the sanitised form when the allow-list takes something out, and that form is stable', () => {
    const cases: [string, string][] = [
      ['<p onclick="steal()">Halden & Co.</p>', '<p>Halden &amp; Co.</p>'],
      ['<script>alert(1)</script>Tea & cake', 'Tea &amp; cake'],
      ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
      [
        '<a href="https://x.example" target="_blank">x</a>',
        '<a href="https://x.example" target="_blank" rel="noopener noreferrer">x</a>',
      ],
      // A browser reads CDATA outside SVG as a comment ending at the first `>`: never kept as written.
      ['<![CDATA[><img src=x onerror=alert(1)>]]>', ''],
      ['<!-- a --><p>b</p>', '<p>b</p>'],
    ];
    for (const [html, stored] of cases) {
      expect(storedOwnerHtml(html)).toBe(stored);
      expect(storedOwnerHtml(stored)).toBe(stored);
    }
  });
});
