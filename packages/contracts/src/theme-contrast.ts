/**
 * WCAG 2.x contrast of text on the theme colours (zod-free: the theme editor computes it in the
 * browser as the owner picks, the API answers the same warnings). A warning, never a refusal: the
 * owner may have reasons, but should know when white or dark text on a colour is hard to read.
 */
export type ThemeColorKey = 'primary' | 'secondary' | 'banner' | 'action';

/** The owner's names for the four colours, in the order the editor shows them. */
export const THEME_COLOR_FIELDS: { key: ThemeColorKey; label: string; hint: string }[] = [
  { key: 'action', label: 'Primary action', hint: 'Buttons and badges.' },
  { key: 'primary', label: 'Brand', hint: 'Header accents and links; light tints at 20% and 10%.' },
  { key: 'secondary', label: 'Medium', hint: 'Borders and secondary text.' },
  { key: 'banner', label: 'Dark', hint: 'Footer and banner backgrounds.' },
];

/** WCAG AA for normal text. */
export const AA_CONTRAST = 4.5;

/** "R, G, B" to three integers 0-255, or null when it is not exactly that. */
export function parseRgb(value: string): [number, number, number] | null {
  const m = /^\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*$/.exec(value);
  if (!m) return null;
  const parts = [Number(m[1]), Number(m[2]), Number(m[3])] as [number, number, number];
  return parts.every((p) => p <= 255) ? parts : null;
}

export function rgbToHex([r, g, b]: [number, number, number]): string {
  return `#${[r, g, b].map((p) => p.toString(16).padStart(2, '0')).join('')}`;
}

export function hexToRgb(hex: string): [number, number, number] | null {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  return m
    ? [Number.parseInt(m[1] ?? '0', 16), Number.parseInt(m[2] ?? '0', 16), Number.parseInt(m[3] ?? '0', 16)]
    : null;
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrastRatio(a: [number, number, number], b: [number, number, number]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const WHITE: [number, number, number] = [255, 255, 255];

export interface ContrastWarning {
  /** The colour's field, e.g. `themeColors.action`. */
  field: string;
  message: string;
  ratio: number;
}

/**
 * Where the storefront puts text with each colour: white text on the action colour (buttons) and
 * on the dark colour (footer), text in the brand and medium colours on white (links, accents). In
 * each case the other side is white, so one ratio against white says it.
 */
const TEXT_WITH: Record<ThemeColorKey, string> = {
  action: 'white text on buttons in this colour',
  primary: 'links and accents in this colour on white',
  banner: 'white text on the footer in this colour',
  secondary: 'secondary text in this colour on white',
};

export function contrastWarnings(colors: Partial<Record<ThemeColorKey, string>>): ContrastWarning[] {
  const out: ContrastWarning[] = [];
  for (const { key, label } of THEME_COLOR_FIELDS) {
    const rgb = colors[key] ? parseRgb(colors[key] as string) : null;
    if (!rgb) continue;
    const ratio = Math.round(contrastRatio(rgb, WHITE) * 100) / 100;
    if (ratio < AA_CONTRAST) {
      out.push({
        field: `themeColors.${key}`,
        ratio,
        message: `${label}: ${TEXT_WITH[key]} has a contrast of ${ratio}:1, below the 4.5:1 WCAG AA asks for; shoppers may find it hard to read.`,
      });
    }
  }
  return out;
}

/**
 * The text fields of the store details form, by their payload paths, in form
 * order: the page reads a post by them and the server names a refused one by them.
 */
export const STORE_DETAIL_TEXT_FIELDS = [
  'logo.url',
  'logo.headerTitle',
  'logo.headerDescription',
  'companyName',
  'companyAddress.address1',
  'companyAddress.address2',
  'companyAddress.city',
  'companyAddress.countryGeoId',
  'companyAddress.stateProvinceGeoId',
  'companyAddress.postalCode',
  'emailAddress',
  'companyContact.countryCode',
  'companyContact.areaCode',
  'companyContact.contactNumber',
  'promotionTitle',
  'pageTitle',
  'newsLetter.iframe',
  'chat.dataWidgetId',
] as const;
