/** The invoice's text and colour helpers: pure functions of a value, no PDF in sight. */
import { formatMoney } from '@app/contracts';

export type Rgb = [number, number, number];

/** A row must fit on one page, so a pathological name is cut rather than overflow the footer. */
export const MAX_CELL_CHARS = 400;

export function parseRgb(value: string | null): Rgb | null {
  const m = value?.match(/^\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*$/);
  if (!m) return null;
  const rgb: Rgb = [Number(m[1]), Number(m[2]), Number(m[3])];
  return rgb.every((c) => c <= 255) ? rgb : null;
}

/** WCAG contrast ratio of the colour against white. */
export function contrastOnWhite([r, g, b]: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  return 1.05 / (luminance + 0.05);
}

// The order's instant has no store time zone with it; UTC keeps the date the same on every server.
export const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
export const countFormat = new Intl.NumberFormat('en-US');

export function formatDate(date: Date): string {
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
}

export function formatCount(n: number): string {
  return countFormat.format(n);
}

/**
 * Money as the storefront prints it. Some symbols (₹, ₩, ₪...) are not in WinAnsi: the ISO code
 * stands in for them, since "?1,234.00" would be no amount at all.
 */
export function moneyText(amountMinor: number, currency: string): string {
  const text = formatMoney(amountMinor, currency);
  if ([...text].every(isWinAnsi)) return text;
  return text.replace(/[^\u0020-\u007e\u00a0-\u00ff]+/gu, `${currency.toUpperCase()}\u00a0`);
}

export function clip(text: string, max = MAX_CELL_CHARS): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : text;
}

/** Characters past Latin-1 that WinAnsi (and so pdfkit's standard fonts) can still draw. */
export const WIN_ANSI_EXTRA = new Set(
  '\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013\u2014\u2018\u2019\u201a\u201c\u201d\u201e\u2020\u2021\u2022\u2026\u2030\u2039\u203a\u20ac\u2122',
);

export function isWinAnsi(ch: string): boolean {
  const cp = ch.codePointAt(0) ?? 0;
  // 0x80-0x9F are C1 controls in Unicode; pdfkit would send them as the WinAnsi glyphs at those codes.
  return (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) || WIN_ANSI_EXTRA.has(ch);
}

/** Look-alikes for characters WinAnsi lacks that customers and merchants commonly type or paste. */
export const SUBSTITUTES: Record<string, string> = {
  '\u2010': '-', // hyphen
  '\u2011': '-', // non-breaking hyphen
  '\u2012': '\u2013', // figure dash
  '\u2015': '\u2014', // horizontal bar
  '\u2212': '-', // minus sign
  '\u2032': "'", // prime
  '\u2033': '"', // double prime
  '\u2043': '-', // hyphen bullet
  '\u2219': '\u2022', // bullet operator
  '\u25cf': '\u2022', // black circle
  '\u25e6': '\u2022', // white bullet
  '\u2027': '\u00b7', // hyphenation point
  '\u201b': '\u2018',
  '\u201f': '\u201c',
  '\u2116': 'No.',
  '\u0141': 'L',
  '\u0142': 'l',
  '\u0110': 'D',
  '\u0111': 'd',
  '\u0131': 'i',
  '\u0127': 'h',
  '\u0126': 'H',
};

export const SPACES = /[\t\n\v\f\r\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/gu;
/** Invisible joiners and emoji variation selectors: they belong to the character before them. */
export const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]|\p{Variation_Selector}/u;
export const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * Reduce text to what the standard Helvetica can draw. pdfkit maps the WinAnsi punctuation (•, “ ”,
 * – —, €) itself but writes any other character as a wrong glyph, so those are replaced first: accents
 * that WinAnsi lacks are dropped ("ő" → "o"), and whatever has no stand-in becomes one "?" per
 * visible character, so an emoji built of several code points is still a single "?".
 */
export function toWinAnsi(text: string): string {
  let out = '';
  for (const { segment } of graphemes.segment(text.replace(SPACES, ' ').normalize('NFC'))) {
    out += graphemeToWinAnsi(segment);
  }
  return out;
}

export function graphemeToWinAnsi(grapheme: string): string {
  let out = '';
  for (const ch of grapheme) {
    if (isWinAnsi(ch)) out += ch;
    else if (SUBSTITUTES[ch] !== undefined) out += SUBSTITUTES[ch];
    else if (INVISIBLE.test(ch)) continue;
    else {
      const base = ch.normalize('NFD').replace(/\p{M}/gu, '');
      if (base && [...base].every(isWinAnsi)) out += base;
      else if (/\p{M}/u.test(ch)) continue;
      else if (/\p{Cc}/u.test(ch)) continue;
      else return '?';
    }
  }
  return out;
}
