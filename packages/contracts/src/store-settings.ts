import { z } from 'zod';
import type { DraftStatus } from './drafts';
import { DEFAULT_THEME, TEMPLATES } from './store';
import type { FormOutcome } from './storefront';
import type { ContrastWarning } from './theme-contrast';

/**
 * What the owner edits on the theme and store details pages, as drafts (decision 032):
 * the payloads of the `theme` and `details` draft kinds and of `PUT /api/v1/store/theme/update/{id}`
 * and `PUT /api/v1/store/detail/update/{id}`. Field names are the clients'.
 */

/** "R, G, B", three integers 0-255; kept in that one spelling so the storefront can build rgba() tints. */
export const rgbInputSchema = z
  .string({ error: 'enter three numbers "R, G, B"' })
  .trim()
  .regex(/^\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}$/, 'enter three whole numbers 0-255 as "R, G, B"')
  .refine((v) => v.split(',').every((p) => Number(p) <= 255), 'each of R, G, B must be 0 to 255')
  .transform((v) =>
    v
      .split(',')
      .map((p) => String(Number(p)))
      .join(', '),
  );

export const themeColorsInputSchema = z.strictObject({
  primary: rgbInputSchema,
  secondary: rgbInputSchema,
  banner: rgbInputSchema,
  action: rgbInputSchema,
});

export const themeDraftSchema = z.strictObject({
  template: z.enum(TEMPLATES, { error: 'choose DEFAULT or ONE' }),
  theme: z
    .string()
    .trim()
    .regex(/^[A-Z][A-Z0-9_]{0,39}$/, 'use capital letters, digits and underscores, e.g. THEME_FASHION')
    .default(DEFAULT_THEME),
  themeColors: themeColorsInputSchema,
});
export type ThemeDraft = z.infer<typeof themeDraftSchema>;

/** Hosts a URL must never name: this machine, private networks, link-local, and such names. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (!host.includes('.') && !host.includes(':')) return true;
  if (/(^|\.)(localhost|local|internal|intranet|lan|home|corp|test|invalid)$/.test(host)) return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  // Any IPv6 literal, and numeric forms such as 0x7f.1 or 2130706433: no store needs them.
  if (host.includes(':') || /^[0-9x.]+$/.test(host)) return true;
  return false;
}

/** An https URL on a public host, or null when it is not one. */
export function publicHttpsUrl(value: string): URL | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password || isPrivateHost(url.hostname)) return null;
  return url;
}

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `use at most ${max} characters`)
    .nullable()
    .default(null)
    .transform((v) => (v ? v : null));

const pattern = (re: RegExp, message: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `use at most ${max} characters`)
    .nullable()
    .default(null)
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || re.test(v), message);

/** A logo: our own media path (an upload), or an https image elsewhere that the server never fetches. */
export const logoUrlSchema = z
  .string()
  .trim()
  .max(2000, 'use at most 2000 characters')
  .nullable()
  .default(null)
  .transform((v) => (v ? v : null))
  .refine(
    (v) =>
      v === null ||
      (/^\/media\/[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(v) && !v.includes('..') && !v.includes('//')) ||
      publicHttpsUrl(v) !== null,
    'use an uploaded image (/media/...) or an https address on a public site',
  );

export const SEO_ROUTE = /^(default|\/[a-z0-9/_-]{0,99})$/;
export const SEO_META_MAX = 40;

export const seoMetaInputSchema = z.strictObject({
  route: z.string().trim().regex(SEO_ROUTE, 'use "default" or a path such as /products'),
  title: z.string().trim().min(1, 'enter a title').max(120, 'use at most 120 characters'),
  keywords: z.string().trim().max(255, 'use at most 255 characters').default(''),
  description: z.string().trim().max(320, 'use at most 320 characters').default(''),
});
export type SeoMetaInput = z.infer<typeof seoMetaInputSchema>;

/** The chat provider's widget id, "property/widget" (the provider's URL stays the platform's). */
export const CHAT_WIDGET_ID = /^[0-9a-f]{24}\/[0-9a-z]{6,16}$/i;

export const detailsDraftSchema = z.strictObject({
  logo: z
    .strictObject({
      url: logoUrlSchema,
      headerTitle: optionalText(80),
      headerDescription: optionalText(200),
    })
    .default({ url: null, headerTitle: null, headerDescription: null }),
  companyName: optionalText(120),
  companyAddress: z
    .strictObject({
      address1: optionalText(120),
      address2: optionalText(120),
      city: optionalText(80),
      /** The state or province (US_OR): one of the country's regions, checked by the server. */
      stateProvinceGeoId: pattern(/^[A-Z]{2,3}_[A-Z0-9]{1,3}$/, 'choose a state or region', 7),
      countryGeoId: pattern(/^[A-Z]{2,3}$/, 'choose a country', 3),
      postalCode: pattern(/^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/, 'enter a postal code (letters, digits, spaces)', 12),
    })
    .default({
      address1: null,
      address2: null,
      city: null,
      stateProvinceGeoId: null,
      countryGeoId: null,
      postalCode: null,
    }),
  emailAddress: z
    .string()
    .trim()
    .max(254, 'use at most 254 characters')
    .nullable()
    .default(null)
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || z.email().safeParse(v).success, 'enter a valid email address'),
  companyContact: z
    .strictObject({
      countryCode: pattern(/^\+?\d{1,4}$/, 'enter the country calling code, e.g. 1 or +44', 5),
      areaCode: pattern(/^\d{1,6}$/, 'enter digits only', 6),
      contactNumber: pattern(/^\d[\d ().-]{2,19}$/, 'enter a phone number (digits, spaces, dashes)', 20),
    })
    .default({ countryCode: null, areaCode: null, contactNumber: null }),
  promotionTitle: optionalText(120),
  pageTitle: optionalText(120),
  newsLetter: z.strictObject({ iframe: optionalText(5000) }).default({ iframe: null }),
  chat: z
    .strictObject({
      dataWidgetId: pattern(
        CHAT_WIDGET_ID,
        'use the widget id as the provider shows it: 24 hex digits, "/", then the widget',
        41,
      ),
    })
    .default({ dataWidgetId: null }),
  /** Whether the storefront offers the contact page ('Y') or not ('N'). */
  contactPage: z.enum(['Y', 'N'], { error: 'choose Y or N' }).default('Y'),
  seoMeta: z
    .array(seoMetaInputSchema)
    .max(SEO_META_MAX, `keep at most ${SEO_META_MAX} entries`)
    .default([])
    .superRefine((entries, c) => {
      const seen = new Set<string>();
      entries.forEach((e, i) => {
        if (seen.has(e.route))
          c.addIssue({ code: 'custom', path: [i, 'route'], message: 'this route is listed twice' });
        seen.add(e.route);
      });
      if (!seen.has('default')) c.addIssue({ code: 'custom', message: 'keep a "default" entry (the brand name)' });
    }),
});
export type DetailsDraft = z.infer<typeof detailsDraftSchema>;

/**
 * Fields `GET /api/v1/store/detail/fetch` carries that no write changes. A write may send them back
 * as they were read (so a client can write back what it read); a different value is refused.
 */
export const STORE_DETAIL_READ_ONLY = ['productStoreId', 'storeName', 'currencyUomId'] as const;
const readOnlyText = (what: string) => z.string().max(200).optional().describe(`Read-only: ${what}, as read.`);

/**
 * `PUT /api/v1/store/detail/update/{id}`: a patch of the details, and (optionally) of the theme in the
 * same save. Fields left out keep their values (nested objects too, field by field); `seoMeta`, when
 * sent, replaces the whole list. What the details read answers can be sent back as it is.
 */
export const storeDetailUpdateSchema = detailsDraftSchema.extend({
  productStoreId: readOnlyText("the store's id"),
  storeName: readOnlyText("the store's name"),
  currencyUomId: readOnlyText("the store's currency"),
  /** null, as the read says for a store that never chose: the storefront offers the contact page. */
  contactPage: z.enum(['Y', 'N'], { error: 'choose Y or N' }).nullable().optional(),
  template: themeDraftSchema.shape.template.optional(),
  theme: z
    .string()
    .trim()
    .regex(/^[A-Z][A-Z0-9_]{0,39}$/, 'use capital letters, digits and underscores, e.g. THEME_FASHION')
    .optional(),
  themeColors: themeColorsInputSchema.optional(),
});

export const storeIdPathSchema = z.object({
  id: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/, 'not a store id'),
});

export const contrastWarningSchema = z.object({ field: z.string(), message: z.string(), ratio: z.number() });

/** What a save answers: the draft is kept (not live), with contrast warnings for the colours. */
export const draftSavedSchema = z.object({
  kinds: z.array(z.string()),
  key: z.string(),
  updatedAt: z.string(),
  published: z.literal(false),
  warnings: z.array(contrastWarningSchema),
});
export type DraftSaved = z.infer<typeof draftSavedSchema>;

export interface ThemeEditorView {
  productStoreId: string;
  /** The draft if there is one, else what is live. */
  values: ThemeDraft;
  defaults: { theme: string; themeColors: ThemeDraft['themeColors'] };
  status: DraftStatus;
  warnings: ContrastWarning[];
}

export interface DetailsEditorView {
  productStoreId: string;
  storeName: string;
  values: DetailsDraft;
  status: DraftStatus;
  /** With their states or regions, for the store's origin address (carriers rate from it). */
  countries: { geoId: string; name: string; regions: { geoId: string; name: string }[] }[];
}

export type SettingsSaveResult =
  | { ok: true; message: string; status: DraftStatus; warnings: ContrastWarning[] }
  | FormOutcome<string>;
