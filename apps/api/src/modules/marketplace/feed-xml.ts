import { decimalAmount } from '@app/contracts';

/**
 * The Google Merchant Center product feed (RSS 2.0 with the `g:` namespace), which Bonanza and
 * most marketplaces import. Pure text functions: the builder feeds them rows page by page.
 */
export const G_NS = 'http://base.google.com/ns/1.0';

// Characters XML 1.0 does not allow at all (C0 controls but tab and line ends, lone surrogates,
// U+FFFE/U+FFFF): removed, since an importer rejects the whole file for one of them.
const NOT_XML = /[^\t\n\r\u{20}-\u{D7FF}\u{E000}-\u{FFFD}\u{10000}-\u{10FFFF}]/gu;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text safe inside an element or attribute: disallowed characters dropped, markup characters escaped. */
export function xmlText(s: string): string {
  return s.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/**
 * A description as plain text: product descriptions are HTML from the editor; Merchant Center wants
 * text (markup is allowed but shown literally by several importers). Tags dropped, the common
 * entities decoded (then escaped again by xmlText), whitespace collapsed, cut to `max` characters.
 */
export function plainText(s: string, max: number): string {
  const text = s
    .replace(NOT_XML, '')
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<br\s*\/?>|<\/(p|div|li|h[1-6])>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/gi, ' ')
    .replace(/&(amp|lt|gt|quot|#39|apos);/g, (_, e: string) =>
      e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : "'",
    )
    .replace(/\s+/g, ' ')
    .trim();
  return cut(text, max);
}

/** At most `max` characters (code points), not splitting a surrogate pair. */
export function cut(s: string, max: number): string {
  const chars = Array.from(s);
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join('')}…`;
}

/** "12.34 USD": the amount in the currency's minor digits, then its ISO code (Merchant Center's price format). */
export function feedPrice(amountMinor: number, currency: string): string {
  return `${decimalAmount(amountMinor, currency)} ${currency}`;
}

export interface FeedItem {
  id: string;
  title: string;
  description: string;
  link: string;
  imageLink: string;
  /** Regular price in minor units. */
  price: number;
  /** Lower sale price in minor units, when the product is on sale. */
  salePrice: number | null;
  currency: string;
  availability: 'in_stock' | 'out_of_stock' | 'backorder';
  brand: string | null;
  gtin: string | null;
  mpn: string | null;
  /** The category path, "Lighting > Pendants". */
  productType: string | null;
  /** The product's id when it has several variants (one item per variant); absent otherwise. */
  itemGroupId?: string | null;
  /** Google's variant attributes, from options named so (decision 112). */
  color?: string | null;
  size?: string | null;
  material?: string | null;
  pattern?: string | null;
}

const el = (name: string, value: string) => `<${name}>${xmlText(value)}</${name}>`;

/** One `<item>`: the fields Merchant Center documents, those the product does not have left out. */
export function itemXml(i: FeedItem): string {
  const parts = [el('g:id', i.id)];
  if (i.itemGroupId) parts.push(el('g:item_group_id', i.itemGroupId));
  parts.push(
    el('g:title', cut(i.title, 150)),
    el('g:description', i.description),
    el('g:link', i.link),
    el('g:image_link', i.imageLink),
    el('g:availability', i.availability),
    el('g:price', feedPrice(i.price, i.currency)),
  );
  if (i.salePrice !== null) parts.push(el('g:sale_price', feedPrice(i.salePrice, i.currency)));
  parts.push(el('g:condition', 'new'));
  if (i.brand) parts.push(el('g:brand', cut(i.brand, 70)));
  if (i.gtin) parts.push(el('g:gtin', i.gtin));
  if (i.mpn) parts.push(el('g:mpn', cut(i.mpn, 70)));
  // Without a GTIN or MPN Merchant Center wants this said, instead of flagging the item.
  if (!i.gtin && !i.mpn) parts.push(el('g:identifier_exists', 'no'));
  if (i.productType) parts.push(el('g:product_type', cut(i.productType, 750)));
  if (i.color) parts.push(el('g:color', cut(i.color, 100)));
  if (i.size) parts.push(el('g:size', cut(i.size, 100)));
  if (i.material) parts.push(el('g:material', cut(i.material, 200)));
  if (i.pattern) parts.push(el('g:pattern', cut(i.pattern, 100)));
  return `<item>${parts.join('')}</item>\n`;
}

export function feedHead(channel: { title: string; link: string; description: string }): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<rss version="2.0" xmlns:g="${G_NS}">\n<channel>\n` +
    `${el('title', channel.title)}\n${el('link', channel.link)}\n${el('description', channel.description)}\n`
  );
}

export const FEED_TAIL = '</channel>\n</rss>\n';

/** A GTIN as Merchant Center takes it: 8, 12, 13 or 14 digits (spaces and dashes dropped); else none. */
export function normaliseGtin(value: string): string | null {
  const digits = value.replace(/[\s-]/g, '');
  return /^(\d{8}|\d{12,14})$/.test(digits) ? digits : null;
}
