import { describe, expect, it } from 'vitest';
import { variantItems } from './feed-builder';
import { FEED_TAIL, feedHead, feedPrice, G_NS, itemXml, normaliseGtin, plainText, xmlText } from './feed-xml';
import { feedItems, parseXml, XmlError } from './xml-check';

const item = {
  id: 'P-1',
  title: 'Lamp',
  description: 'A lamp',
  link: 'http://s.test/lamp/P-1',
  imageLink: 'http://s.test/media/p.webp',
  price: 1234,
  salePrice: null,
  currency: 'USD',
  availability: 'in_stock' as const,
  brand: null,
  gtin: null,
  mpn: null,
  productType: null,
};

describe('feed text', () => {
  it('escapes markup and drops characters XML 1.0 forbids, keeping emoji and tabs', () => {
    expect(xmlText('a & b <c> "d" \'e\'')).toBe('a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;');
    expect(xmlText('x\u0000\u0001\u0008\u000b\u001f\ufffe\uffffy\t💡')).toBe('xy\t💡');
    expect(xmlText('lone \ud800 surrogate')).toBe('lone  surrogate');
  });

  it('makes a description plain text of at most the given length', () => {
    expect(plainText('<p>Warm&nbsp;&amp; bright</p><ul><li>E26</li></ul><style>p{}</style>', 100)).toBe(
      'Warm & bright E26',
    );
    expect(Array.from(plainText('💡'.repeat(10), 5))).toHaveLength(5);
  });

  it('writes prices in the currency’s digits with its code', () => {
    expect(feedPrice(1234, 'USD')).toBe('12.34 USD');
    expect(feedPrice(5, 'EUR')).toBe('0.05 EUR');
    expect(feedPrice(1500, 'JPY')).toBe('1500 JPY');
  });

  it('takes GTINs of 8, 12, 13 or 14 digits only', () => {
    expect(normaliseGtin('0 12345-67890 5')).toBe('012345678905');
    expect(normaliseGtin('12345')).toBeNull();
    expect(normaliseGtin('ABC12345678')).toBeNull();
  });
});

describe('a feed', () => {
  it('is well-formed with the g namespace; optional fields only when present; identifier_exists without codes', () => {
    const xml =
      feedHead({ title: 'Brass & Co <Lamps>', link: 'http://s.test/', description: 'd' }) +
      itemXml(item) +
      itemXml({
        ...item,
        id: 'P-2',
        salePrice: 999,
        brand: 'Ashby',
        gtin: '012345678905',
        mpn: 'AB-1',
        productType: 'Lighting > Pendants',
      }) +
      FEED_TAIL;
    const root = parseXml(xml);
    expect(root.attrs['xmlns:g']).toBe(G_NS);
    expect(root.children[0]?.children[0]?.text).toBe('Brass & Co <Lamps>');
    const [a, b] = feedItems(xml);
    expect(a).toMatchObject({ 'g:price': '12.34 USD', 'g:identifier_exists': 'no', 'g:condition': 'new' });
    expect(a).not.toHaveProperty('g:sale_price');
    expect(a).not.toHaveProperty('g:brand');
    expect(b).toMatchObject({
      'g:sale_price': '9.99 USD',
      'g:brand': 'Ashby',
      'g:gtin': '012345678905',
      'g:mpn': 'AB-1',
      'g:product_type': 'Lighting > Pendants',
    });
    expect(b).not.toHaveProperty('g:identifier_exists');
  });

  it('the checker refuses what an importer would', () => {
    for (const bad of [
      '<rss><a></rss>',
      '<rss>a & b</rss>',
      '<rss><g:id>1</g:id></rss>',
      '<rss a="1" a="2"/>',
      '<rss/><rss/>',
      '<rss>\u0001</rss>',
      '<rss>&nbsp;</rss>',
    ]) {
      expect(() => parseXml(bad), bad).toThrow(XmlError);
    }
  });
});

describe('items of a product with variants', () => {
  const variant = (
    variantId: string,
    options: [string, string][],
    extra: Partial<Parameters<typeof variantItems>[1][number]> = {},
  ) => ({
    productId: 'P-1',
    variantId,
    options,
    barcode: null,
    listPrice: 9900,
    salePrice: null,
    stock: 3,
    image: null,
    ...extra,
  });

  it('one item per variant: the variant id, the product as item_group_id, Google attributes, other options in the title', () => {
    const built = variantItems(
      item,
      [
        variant(
          'V-1',
          [
            ['Colour', 'Brass'],
            ['Battery', '5 Ah'],
          ],
          { barcode: '0 12345-67890 5', image: '/media/v1.webp', salePrice: 8900 },
        ),
        variant(
          'V-2',
          [
            ['Colour', 'Black'],
            ['Battery', '5 Ah'],
          ],
          { stock: 0 },
        ),
      ],
      'http://s.test',
    );
    if (!built.ok) throw new Error('refused');
    expect(
      built.items.map((i) => [
        i.id,
        i.itemGroupId,
        i.title,
        i.color,
        i.availability,
        i.link,
        i.imageLink,
        i.gtin,
        i.salePrice,
      ]),
    ).toEqual([
      [
        'V-1',
        'P-1',
        'Lamp, 5 Ah',
        'Brass',
        'in_stock',
        'http://s.test/lamp/P-1?variant=V-1',
        'http://s.test/media/v1.webp',
        '012345678905',
        8900,
      ],
      [
        'V-2',
        'P-1',
        'Lamp, 5 Ah',
        'Black',
        'out_of_stock',
        'http://s.test/lamp/P-1?variant=V-2',
        item.imageLink,
        null,
        null,
      ],
    ]);
    const xml = itemXml(built.items[0] as (typeof built.items)[number]);
    expect(xml).toContain('<g:id>V-1</g:id><g:item_group_id>P-1</g:item_group_id>');
    expect(xml).toContain('<g:color>Brass</g:color>');
    expect(xml).not.toContain('<g:size>');
  });

  it('maps Size, Material and Pattern; a product without variants has no item_group_id', () => {
    const built = variantItems(
      item,
      [
        variant('V-1', [
          ['size', 'Large'],
          ['Material', 'Oak'],
          ['Pattern', 'Striped'],
        ]),
      ],
      'http://s.test',
    );
    expect(built.ok && built.items[0]).toMatchObject({
      size: 'Large',
      material: 'Oak',
      pattern: 'Striped',
      title: 'Lamp',
    });
    expect(itemXml(item)).not.toContain('item_group_id');
  });

  it('skips a product whose id Google cannot take as a group, and one whose variants nothing tells apart', () => {
    expect(variantItems({ ...item, id: 'P.1' }, [variant('V-1', [['Colour', 'Red']])], 'http://s.test')).toEqual({
      ok: false,
      reason: 'bad_group_id',
    });
    expect(
      variantItems(
        item,
        [
          variant('V-1', [
            ['Colour', 'Red'],
            ['Finish', 'Matt'],
          ]),
          variant('V-2', [
            ['Color', 'red'],
            ['Finish', 'matt'],
          ]),
        ],
        'http://s.test',
      ),
    ).toEqual({ ok: false, reason: 'indistinct_variants' });
  });
});
